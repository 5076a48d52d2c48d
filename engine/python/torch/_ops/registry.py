# The op registry: turns each declaration of op_table.py into torch.NAME (positional and keyword forms, out=),
# Tensor.NAME and Tensor.NAME_, with PyTorch's argument errors. The kernels stay plain functions in the
# other _ops modules; this layer only binds arguments and applies the generic out= / in-place rules.
import importlib
import inspect
import numbers

from .. import _dtype as D
from .. import _numpy_names as numpy_names
from . import _core as C
from . import out as O
from . import overlap
from .op_table import ALIASES, OPS


class Param:
    __slots__ = ("name", "kind", "default", "required", "kwonly")

    def __init__(self, text, kwonly):
        kind, rest = text.split(" ", 1)
        self.kind = kind
        self.kwonly = kwonly
        if "=" in rest:
            self.name, default = rest.split("=", 1)
            self.default = eval(default, {})  # literals only: None, numbers, (), False
            self.required = False
        else:
            self.name, self.default, self.required = rest, None, True


class Op:
    """One declared op: its parameters, kernel and rules."""

    def __init__(self, schema, kernel, kind, out_rule, variants, promote):
        self.schema = schema
        self.name, params = schema[:-1].split("(", 1)
        self.params = []
        kwonly = False
        for p in (x.strip() for x in params.split(",")):
            if p == "*":
                kwonly = True
                continue
            self.params.append(Param(p, kwonly))
        self.has_out = any(p.name == "out" for p in self.params)
        self.positional = [p for p in self.params if not p.kwonly]
        self.by_name = {p.name: p for p in self.params}
        module, fn = kernel.split(".")
        self.kernel = getattr(importlib.import_module("torch._ops." + module), fn)
        # the kernel's own names for the schema's positional parameters (kernels say `a, b` for input, other)
        kparams = list(inspect.signature(self.kernel).parameters)
        self.kernel_name = {p.name: (kparams[i] if not p.kwonly and i < len(kparams) else p.name)
                            for i, p in enumerate(self.params)}
        self.kind = kind
        self.out_rule = out_rule
        self.variants = variants.split()
        self.promote = promote
        # The common call - positional arguments only, every required one given, none of a wrong type - binds to
        # the kernel's own positional parameters unchanged (kernel_args of bind's values): _plain_positional
        # checks that without building the values, and anything else takes bind and its errors.
        self.min_positional = max((i + 1 for i, p in enumerate(self.positional) if p.required), default=0)
        self.positional_checks = tuple(_CHECK.get(p.kind, 0) for p in self.positional)
        self.plain_ok = not any(p.required and p.kwonly for p in self.params) and \
            not any(p.name == "out" for p in self.positional)

    def _plain_positional(self, args):
        """Whether positional-only `args` bind as given (bind would accept them and kernel_args pass them on
        by position): at least the required ones, at most the positional ones, each of an accepted type."""
        if not self.plain_ok or not self.min_positional <= len(args) <= len(self.positional):
            return False
        for check, v in zip(self.positional_checks, args):
            if check == 0 or v is None:
                continue
            if check == 2:
                if not isinstance(v, C.Tensor):
                    return False
            elif check == 1:
                if isinstance(v, bool) or not hasattr(v, "__index__"):
                    return False
            elif check == 4:
                if not isinstance(v, numbers.Real):  # (a 0-dim tensor too goes through bind's check)
                    return False
            elif not isinstance(v, (C.Tensor, numbers.Number)):
                return False
        return True

    def _plain_keywords(self, args, kwargs):
        """args followed by the keyword arguments when these name exactly the next positional parameters
        (`torch.sum(x, dim=2)`, `x.mean(dim=1, keepdim=True)`): bind would give the same values and kernel_args
        pass them all by position, so the kernel can take them as they stand. None for anything else (a gap,
        out=, a NumPy alias, a repeated or unknown name, a method's input=, a wrong type), which binds."""
        n, k = len(args), len(kwargs)
        if n + k > len(self.positional):
            return None
        full = list(args)
        for p in self.positional[n:n + k]:
            v = kwargs.get(p.name, _ABSENT)
            if v is _ABSENT:
                return None
            full.append(v)
        return full if self._plain_positional(full) else None

    # ------------------------------------------------------------------ arguments
    def bind(self, args, kwargs, owner=None, name=None):
        """The arguments as {param name: value} (defaults left out), with PyTorch's argument errors."""
        name = name or self.name
        npos = len(self.positional)
        if len(args) > npos:
            raise TypeError(f"{name}() takes {npos} positional argument{'s' if npos != 1 else ''} but "
                            f"{len(args)} {'was' if len(args) == 1 else 'were'} given")
        values = {}
        for p, v in zip(self.positional, args):
            values[p.name] = v
        kwargs = numpy_names.renamed(kwargs, self.by_name.keys() - ({"input"} if owner is not None else set()))
        for k, v in kwargs.items():
            p = self.by_name.get(k)
            if p is None or (k == "input" and owner is not None):
                raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
            if k in values:
                raise TypeError(f"{name}() got multiple values for argument '{k}'")
            values[k] = v
        missing = [p.name for p in self.params if p.required and p.name not in values]
        if missing and any(p.kind == "Scalar" for p in self.params):  # (Tensor and Scalar overloads in PyTorch)
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"({_got(args, kwargs, owner)}), but expected one of:")
        if missing:
            raise TypeError(f"{name}() missing {len(missing)} required positional arguments: "
                            + ", ".join(f'"{m}"' for m in missing))
        for i, p in enumerate(self.params):
            v = values.get(p.name)
            if v is None or p.kind == "Any":
                continue
            if p.kind == "int" and (isinstance(v, bool) or not hasattr(v, "__index__")):
                raise TypeError(f"{name}() received an invalid combination of arguments - got "
                                f"({_got(args, kwargs, owner)}), but expected one of:")
            if p.kind == "Tensor" and not isinstance(v, C.Tensor):
                raise TypeError(f"{name}(): argument '{p.name}' {_position(self, p, owner)}must be Tensor, not "
                                f"{type(v).__name__}")
            if p.kind == "Scalar" and not isinstance(v, (C.Tensor, numbers.Number)):
                if self.params[0].kind == "Scalar":  # (xlogy: Tensor and Scalar overloads of either operand)
                    raise TypeError(f"{name}() received an invalid combination of arguments - got "
                                    f"({_got(args, kwargs, owner)}), but expected one of:")
                raise TypeError(f"{name}(): argument '{p.name}' {_position(self, p, owner)}must be Tensor, not "
                                f"{type(v).__name__}")
            if p.kind == "float" and not (isinstance(v, numbers.Real) or (isinstance(v, C.Tensor) and
                                                                          v._impl.dim == 0)):
                raise TypeError(f"{name}(): argument '{p.name}' {_position(self, p, owner)}must be float, not "
                                f"{type(v).__name__}")
        return values

    def kernel_args(self, values):
        """(args, kwargs) for the kernel: positional parameters by position up to the first one not given,
        the rest by name (kernels name their parameters like the schema from there on), never `out`."""
        args, kw = [], {}
        for p in self.params:
            if p.name == "out" or p.name not in values:
                continue
            if not p.kwonly and len(args) == self.positional.index(p):
                args.append(values[p.name])
            else:
                kw[self.kernel_name[p.name]] = values[p.name]
        return args, kw

    def call(self, values):
        """The kernel, out of place."""
        args, kw = self.kernel_args(values)
        return self.kernel(*args, **kw)

    def inputs(self, values):
        ins = []
        for k, v in values.items():
            if k == "out":
                continue
            if isinstance(v, C.Tensor):
                ins.append(v)
            elif isinstance(v, (list, tuple)):
                ins.extend(x for x in v if isinstance(x, C.Tensor))
        return ins

    # ------------------------------------------------------------------ variants
    def function(self, args, kwargs):
        if not kwargs:
            if self._plain_positional(args):
                return self.kernel(*args)
        else:
            full = self._plain_keywords(args, kwargs)
            if full is not None:
                return self.kernel(*full)
        values = self.bind(args, kwargs)
        out = values.get("out")
        if out is None:
            return self.call(values)
        return self.with_out(values, out)

    def with_out(self, values, out):
        O.check_out_arg(self.name, out)
        if self.kind == "reduction" and values.get("dim") is None and self.name in ("sum", "prod", "mean"):
            got = ", ".join(["Tensor"] + [f"{k}={type(v).__name__}" for k, v in values.items() if k != "input"])
            raise TypeError(f"{self.name}() received an invalid combination of arguments - got ({got}), but "
                            "expected one of:")
        inputs = self.inputs(values)
        O.check_no_grad(self.name, inputs, out)
        _argument_checks(self.name, values)
        if self.name == "mean" and values.get("dtype") is not None:
            # mean's own checks (dim, dtype) come before its out dtype must equal dtype=
            dtype = values["dtype"]
            if not dtype.is_floating_point:
                raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating "
                                   f"point or complex dtype. Got: {O.scalar_name(dtype)}")
            C.dims_arg(values.get("dim"), values["input"]._impl.dim)
            if dtype is not C.dtype_of(out):
                raise RuntimeError(f"Expected out tensor to have dtype {O.TYPEMETA_NAMES[dtype._code]}, but "
                                   f"got {O.TYPEMETA_NAMES[C.dtype_of(out)._code]} instead")
        if self.out_rule == "reduce_dtype":
            # sum/prod with out=: the reduction runs in out's dtype (dtype= must then agree with it)
            dtype = values.get("dtype")
            C.dims_arg(values.get("dim"), values["input"]._impl.dim)  # a bad dim is reported first
            if dtype is None:
                values = dict(values, dtype=C.dtype_of(out))
            elif dtype is not C.dtype_of(out):
                raise RuntimeError(f"Expected out tensor to have dtype {O.TYPEMETA_NAMES[dtype._code]}, but got "
                                   f"{O.TYPEMETA_NAMES[C.dtype_of(out)._code]} instead")
            rule = "any"
        else:
            rule = self.out_rule_for(values)
        pointwise = self.kind in ("binary", "unary") or self.name == "where"
        if pointwise:
            overlap.check_write(out, inputs)
        else:
            overlap.assert_no_partial_overlap(out, inputs)
        first = values.get("input")
        input_dtype = C.dtype_of(first) if isinstance(first, C.Tensor) else None
        # ATen's order: out's dtype is checked before out is resized, except where the check lives in the
        # kernel (cat, mean's castability), which runs after the resize
        if pointwise:  # TensorIterator: shapes first (broadcast errors), then dtypes
            operands = self.operands(values)
            shape = C.broadcast_shapes(*[C.shape_of(v) for v in operands])
        expected = self.result_dtype(values)
        if rule in ("same_as_input", "same_as_input_nan_to_num"):
            O.check_dtype(rule, input_dtype, out, input_dtype)
        elif expected is not None:
            O.check_dtype(rule, expected, out, input_dtype)
        if self.name == "nan_to_num" and not C.dtype_of(first).is_floating_point:
            O.resize_output(out, tuple(first._impl.sizes))  # ATen: resize_output + copy_, no TensorIterator
            out.copy_(first)
            return out
        if pointwise:
            # TensorIterator resizes out (laid out like the result) before the kernel runs: a kernel error
            # leaves out resized
            # (numbers are TensorIterator operands of binary ops only: clamp, pow(Tensor, Scalar) are unary)
            unary_form = self.kind == "unary" or (self.name == "pow" and not isinstance(values.get("exponent"), C.Tensor))
            O.resize_like_pointwise(out, shape, [v for v in operands if isinstance(v, C.Tensor)] if unary_form
                                    else operands)
            result = self.call(values)
            O.check_device(result, out)
            O.check_dtype(rule, C.dtype_of(result), out, input_dtype)
            return O.store(result, out)
        if self.name == "index_select":  # ATen checks out's dtype, resizes it, then checks each index
            O.check_dtype(rule, input_dtype, out, input_dtype)
            x, index, d = values["input"], values["index"], values["dim"]
            sizes = list(x._impl.sizes)
            if sizes:
                sizes[C.wrap_dim(d, len(sizes))] = index._impl.numel
            O.resize_output(out, tuple(sizes))
        result = self.call(values)  # (the kernel's own shape checks come first)
        O.check_device(result, out)
        checked_in_kernel = rule in ("exact", "index_select") or (rule == "cat" and self.name == "cat")
        if checked_in_kernel:  # before out is resized
            O.check_dtype(rule, C.dtype_of(result), out, input_dtype)
        O.resize_like(out, result)
        if not checked_in_kernel:  # stack resizes out before cat checks it; mean checks after resizing
            O.check_dtype(rule, C.dtype_of(result), out, input_dtype)
        return O.store(result, out)

    def operands(self, values):
        """The tensor/number operands of a pointwise op, in schema order."""
        return [values[p.name] for p in self.params
                if p.kind in ("Tensor", "Scalar") and not p.kwonly and values.get(p.name) is not None
                and isinstance(values[p.name], (C.Tensor, numbers.Number))]

    def out_rule_for(self, values):
        """The declared out rule; pow with a number exponent is ATen's non-promoting unary pow
        (pow.Tensor_Scalar: out must be exactly the result's dtype), with a tensor one a binary op; clamp's
        tensor bounds likewise."""
        if self.name in ("pow", "square") and not isinstance(values.get("exponent"), C.Tensor):
            return "found"
        if self.name in ("clamp", "clamp_min", "clamp_max") and any(isinstance(values.get(k), C.Tensor)
                                                                     for k in ("min", "max")):
            return "castable"  # clamp.Tensor: a promoting TensorIterator op (ternary_pointwise.clamp_tensor)
        return self.out_rule

    def result_dtype(self, values):
        """The dtype the op computes, from its declared promotion kind (None: known only from the kernel)."""
        if self.kind not in ("unary", "binary"):
            return None
        x = values.get("input")
        if not isinstance(x, C.Tensor):
            return None
        if self.promote == "same":
            return C.dtype_of(x)
        operands = self.operands(values)
        if self.promote == "square":
            operands = [x, 2]
        try:
            pt = C.result_type(*operands)
        except TypeError:
            return None
        if self.promote == "bool":
            return D.bool
        float_result = self.promote == "float" and not (self.name == "div" and values.get("rounding_mode"))
        if float_result and not pt.is_floating_point:
            from .._default import get_default_dtype
            return get_default_dtype()
        return pt

    def method(self, this, args, kwargs):
        if not kwargs:
            args = (this,) + tuple(args)
            if self._plain_positional(args):
                return self.kernel(*args)
            return self.call(self.bind(args, kwargs, owner=this))
        full = self._plain_keywords((this,) + tuple(args), kwargs)
        if full is not None:
            return self.kernel(*full)
        values = self.bind((this,) + tuple(args), kwargs, owner=this)
        values.pop("out", None) if "out" in kwargs else None
        if "out" in kwargs:
            raise TypeError(f"{self.name}() got an unexpected keyword argument 'out'")
        return self.call(values)

    def inplace(self, this, args, kwargs):
        if "out" in kwargs:
            raise TypeError(f"{self.name}_() got an unexpected keyword argument 'out'")
        values = self.bind((this,) + tuple(args), kwargs, owner=this, name=self.name + "_")
        _argument_checks(self.name, values)
        # (the kernels' in-place paths check overlap themselves, after their own argument checks)
        if self.name in ("pow", "square") and self.out_rule_for(values) == "found":
            overlap.assert_no_internal_overlap(this)  # TensorIterator: overlap before dtypes
            expected = self.result_dtype(values)
            if expected is not None and expected is not C.dtype_of(this):
                raise RuntimeError(f"Found dtype {O.scalar_name(C.dtype_of(this))} but expected "
                                   f"{O.scalar_name(expected)}")
        args, kw = self.kernel_args(values)
        return self.kernel(*args, out=this, **kw)


_ABSENT = object()  # Op._plain_keywords: a parameter not given by keyword

# Op._plain_positional's type check of a parameter kind (bind's: 1 int, 2 Tensor, 3 Scalar, 4 float; 0 none)
_CHECK = {"int": 1, "Tensor": 2, "Scalar": 3, "float": 4}


def _argument_checks(name, values):
    """Checks some ops make on their arguments before TensorIterator looks at out (dtype, overlap)."""
    x = values.get("input")
    if name == "sub":
        from .elementwise import _check_bool_sub
        _check_bool_sub(x, values.get("other"))
    elif name == "neg" and isinstance(x, C.Tensor) and C.dtype_of(x) is D.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    elif name == "pow":
        e = values.get("exponent")
        if isinstance(x, C.Tensor) and not C.dtype_of(x).is_floating_point and isinstance(e, numbers.Integral) \
                and e < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")


def _type_name(v):
    if isinstance(v, C.Tensor):
        return "Tensor"
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def _got(args, kwargs, owner):
    """The argument types as PyTorch's parser lists them: positional ones (self left out for a method),
    then keyword ones."""
    parts = [_type_name(a) for a in (args[1:] if owner is not None else args)]
    parts += [f"{k}={_type_name(v)}" for k, v in reversed(list(kwargs.items()))]  # (PyTorch lists them last first)
    return ", ".join(parts)


def _position(op, p, owner=None):
    """The argument's position as PyTorch's parser counts it: a method's self is not counted."""
    if p.kwonly:
        return ""
    return f"(position {op.positional.index(p) + (0 if owner is not None else 1)}) "


def _function(op):
    def fn(*args, **kwargs):
        return op.function(args, kwargs)
    fn.__name__ = fn.__qualname__ = op.name
    fn.__module__ = "torch"
    fn.__doc__ = op.schema
    return fn


def _method(op):
    def m(self, *args, **kwargs):
        return op.method(self, args, kwargs)
    m.__name__ = op.name
    return m


def _inplace(op):
    def m(self, *args, **kwargs):
        return op.inplace(self, args, kwargs)
    m.__name__ = op.name + "_"
    return m


REGISTRY = {}


def install(torch_module, tensor_cls):
    """Builds every declared op's torch function and Tensor methods."""
    for row in OPS:
        op = Op(*row)
        REGISTRY[op.name] = op
        setattr(torch_module, op.name, _function(op))
        if "method" in op.variants:
            setattr(tensor_cls, op.name, _method(op))
        if "inplace" in op.variants:
            setattr(tensor_cls, op.name + "_", _inplace(op))
    for alias, name in ALIASES:
        setattr(torch_module, alias, getattr(torch_module, name))
        for suffix in ("", "_"):
            if hasattr(tensor_cls, name + suffix) and (suffix == "" or "inplace" in REGISTRY[name].variants):
                setattr(tensor_cls, alias + suffix, getattr(tensor_cls, name + suffix))
    _install_layout_methods(tensor_cls)


def _install_layout_methods(tensor_cls):
    """Tensor methods that change or reinterpret a layout (no torch.* function in PyTorch)."""
    from . import shape as S

    def unfold(self, dimension, size, step):
        return S.unfold(self, dimension, size, step)

    def resize_(self, *sizes, memory_format=None):
        C.check_inplace(self)
        shape = S._sizes_arg(sizes)
        return O.resize_(self, shape)

    def resize_as_(self, other, memory_format=None):
        return resize_(self, tuple(other._impl.sizes))
    tensor_cls.unfold = unfold
    tensor_cls.resize_ = resize_
    tensor_cls.resize_as_ = resize_as_

# The op registry: turns each declaration of op_table.py into torch.NAME (positional and keyword forms, out=),
# Tensor.NAME and Tensor.NAME_, with PyTorch's argument errors. The kernels stay plain functions in the
# other _ops modules; this layer only binds arguments and applies the generic out= / in-place rules.
import importlib
import inspect
import numbers

from .. import _dtype as D
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

    # ------------------------------------------------------------------ arguments
    def bind(self, args, kwargs, owner=None):
        """The arguments as {param name: value} (defaults left out), with PyTorch's argument errors."""
        name = self.name
        npos = len(self.positional)
        if len(args) > npos:
            raise TypeError(f"{name}() takes {npos} positional argument{'s' if npos != 1 else ''} but "
                            f"{len(args)} {'was' if len(args) == 1 else 'were'} given")
        values = {}
        for p, v in zip(self.positional, args):
            values[p.name] = v
        for k, v in kwargs.items():
            p = self.by_name.get(k)
            if p is None or (k == "input" and owner is not None):
                raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
            if k in values:
                raise TypeError(f"{name}() got multiple values for argument '{k}'")
            values[k] = v
        missing = [p.name for p in self.params if p.required and p.name not in values]
        if missing:
            raise TypeError(f"{name}() missing {len(missing)} required positional arguments: "
                            + ", ".join(f'"{m}"' for m in missing))
        for i, p in enumerate(self.params):
            v = values.get(p.name)
            if v is None or p.kind == "Any":
                continue
            if p.kind == "Tensor" and not isinstance(v, C.Tensor):
                raise TypeError(f"{name}(): argument '{p.name}' {_position(self, p)}must be Tensor, not "
                                f"{type(v).__name__}")
            if p.kind == "Scalar" and not isinstance(v, (C.Tensor, numbers.Number)):
                raise TypeError(f"{name}(): argument '{p.name}' {_position(self, p)}must be Tensor, not "
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
        if self.out_rule == "reduce_dtype":
            # sum/prod with out=: the reduction runs in out's dtype (dtype= must then agree with it)
            dtype = values.get("dtype")
            if dtype is None:
                values = dict(values, dtype=C.dtype_of(out))
            elif dtype is not C.dtype_of(out):
                raise RuntimeError(f"Expected out tensor to have dtype {O.TYPEMETA_NAMES[dtype._code]}, but got "
                                   f"{O.TYPEMETA_NAMES[C.dtype_of(out)._code]} instead")
            rule = "any"
        else:
            rule = self.out_rule
        if self.kind in ("binary", "unary") or self.name == "where":
            overlap.check_write(out, inputs)
        else:
            overlap.assert_no_partial_overlap(out, inputs)
        first = values.get("input")
        input_dtype = C.dtype_of(first) if isinstance(first, C.Tensor) else None
        expected = self.result_dtype(values)
        if expected is not None:  # ATen checks out's dtype before its kernel can refuse a dtype
            O.check_dtype(rule, expected, out, input_dtype)
        result = self.call(values)
        O.check_device(result, out)
        O.check_dtype(rule, C.dtype_of(result), out, input_dtype)
        return O.store(result, out)

    def result_dtype(self, values):
        """The dtype the op computes, from its declared promotion kind (None: known only from the kernel)."""
        if self.kind not in ("unary", "binary"):
            return None
        x = values.get("input")
        if not isinstance(x, C.Tensor):
            return None
        if self.promote == "same":
            return C.dtype_of(x)
        operands = [values[p.name] for p in self.params
                    if p.kind in ("Tensor", "Scalar") and not p.kwonly and values.get(p.name) is not None
                    and isinstance(values[p.name], (C.Tensor, numbers.Number))]
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
        values = self.bind((this,) + tuple(args), kwargs, owner=this)
        values.pop("out", None) if "out" in kwargs else None
        if "out" in kwargs:
            raise TypeError(f"{self.name}() got an unexpected keyword argument 'out'")
        return self.call(values)

    def inplace(self, this, args, kwargs):
        if "out" in kwargs:
            raise TypeError(f"{self.name}_() got an unexpected keyword argument 'out'")
        values = self.bind((this,) + tuple(args), kwargs, owner=this)
        overlap.check_write(this, [v for v in self.inputs(values) if v is not this])
        args, kw = self.kernel_args(values)
        return self.kernel(*args, out=this, **kw)


def _position(op, p):
    if p.kwonly:
        return ""
    return f"(position {op.positional.index(p) + 1}) "


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

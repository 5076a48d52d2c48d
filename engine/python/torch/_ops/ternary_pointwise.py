# addcmul, addcdiv, lerp and clamp with tensor bounds as ATen runs them: one kernel each (one result allocation,
# no temporaries), one node that saves what PyTorch's saves (tools/autograd/derivatives.yaml), and in-place forms
# that continue self's own history (VariableType's rebase_history), cloning self first only where a formula needs
# its old values (original_self: a real allocation with CloneBackward0, kept by the node).
#
# Their float32 numbers are those of ATen's CPU kernels as built for AVX2 machines: GCC contracts addcmul's
# `self + value * t1 * t2` and lerp's two forms into one fused multiply-add (one rounding), which float64
# arithmetic reproduces here (a float32 product is exact in float64). addcdiv's division leaves nothing to fuse.
import numpy as np

from ..autograd import graph
from . import _core as C
from . import out as O
from . import overlap
from .elementwise import _Like, _sum_to


class _Arg:
    """In a save spec: the op's operand i (0 is self; an in-place op saves its clone of self's old values)."""
    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i


_RESULT = object()  # in a save spec: the op's result (self after an in-place write)


def _run(name, operands, common, compute, saves, grad, inplace):
    """The op over `operands` (operand 0 is self; None: an absent optional operand, clamp's max) computed in dtype
    `common`: TensorIterator's checks (overlap, device, the output's shape and castability when in place), then
    compute(*numpy values), then the node. saves(needs): {saved name: _Arg, _RESULT or a plain value};
    grad(g, saved, likes): a gradient (or None) per operand."""
    present = [o for o in operands if o is not None]
    tensors = [o for o in present if isinstance(o, C.Tensor)]
    self = operands[0]
    if inplace:
        overlap.check_write(self, tensors[1:])
        dev = C.elementwise_device(tensors, outputs=[self])
    else:
        dev = C.elementwise_device(tensors)
    shape = C.broadcast_shapes(*(C.shape_of(o) for o in present))
    if inplace:
        if tuple(shape) != tuple(self._impl.sizes):
            raise RuntimeError(f"output with shape {list(self._impl.sizes)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        if not O.can_cast(common, C.dtype_of(self)):
            raise RuntimeError(f"result type {O.scalar_name(common)} can't be cast to the desired output type "
                               f"{O.scalar_name(C.dtype_of(self))}")
    odt = C.dtype_of(self) if inplace else common
    npd = C.compute_dtype(common)
    values = [None if o is None else C.values_of(o, npd) for o in operands]
    needs = [o is not None and C.needs_grad(o) for o in operands]
    spec = saves(needs) if any(needs) and odt.is_floating_point else None
    if not inplace:
        result = C.make_pointwise(compute(*values), odt, dev, tuple(present))
        if spec is not None:
            _attach(name, result, operands, needs, spec, grad, None, None)
        return result
    original = None
    if spec is not None and any(isinstance(v, _Arg) and v.i == 0 for v in spec.values()):
        original = self.clone()
    edges = [graph.edge_of(o) if isinstance(o, C.Tensor) else (None, 0) for o in operands] if spec else None
    before = graph.base_edge(self) if spec is not None else None
    C.write(self, compute(*values))
    if spec is not None:
        _attach(name, self, operands, needs, spec, grad, edges, original)
        graph.rebase_view(self, before)
    return self


def _attach(name, result, operands, needs, spec, grad, edges, original):
    likes = [_Like(o) if n else None for o, n in zip(operands, needs)]
    saved, held, outs = {}, {}, []
    for key, v in spec.items():
        if isinstance(v, _Arg):
            v = original if v.i == 0 and original is not None else operands[v.i]
        elif v is _RESULT:
            outs.append(graph.SavedOutput(result))
            saved[key], held[key] = result, outs[-1]
            continue
        saved[key] = held[key] = v

    def fn(gs):
        return grad(gs[0], {k: (v.unpack() if isinstance(v, graph.SavedOutput) else v) for k, v in held.items()},
                    likes)
    if edges is None:
        node = graph.attach(name, [result], [o if isinstance(o, C.Tensor) else None for o in operands], fn,
                            saved=saved)
    else:
        node = graph.attach_edges(name, [result], edges, fn, saved=saved)
    for so in outs:
        so.bind(node)


def _begin(name, x, inputs, out, compute):
    """(inplace, or the finished out= result): in place, autograd's leaf check comes before anything else; out= of
    another tensor runs the op out of place and stores it by PyTorch's out= rules."""
    if out is None:
        return False, None
    if out is x:
        C.check_inplace(x)
        return True, None
    return False, O.write_out(name, compute, [t for t in inputs if isinstance(t, C.Tensor)], out)


def _on_cuda(tensors):
    return any(isinstance(t, C.Tensor) and t._impl.device_key >= 0 for t in tensors)


def _not_implemented(kernel, dtype):
    return RuntimeError(f"\"{kernel}\" not implemented for '{O.scalar_name(dtype)}'")


def _fma32(a, b, c):
    """a * b + c with one rounding to float32 (a, b, c float32): exact product and sum in float64, then rounded."""
    return (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(np.float32)


# ----------------------------------------------------------------------------- addcmul / addcdiv
def addcmul(input, tensor1, tensor2, value, out):  # noqa: A002
    common, inplace, done = _addc_begin(addcmul, input, tensor1, tensor2, value, out)
    if done is not None:
        return done
    kernel = "addcmul_cuda" if _on_cuda((input, tensor1, tensor2)) else "addcmul_cpu_out"

    def compute(s, t1, t2):
        if s.dtype == np.bool_:
            raise _not_implemented(kernel, common)
        _check_cpu_output(out, common, (input, tensor1, tensor2))
        v = _value_as(value, s.dtype)
        if s.dtype == np.float32:
            return _fma32(v * t1, t2, s)
        return s + v * t1 * t2

    def saves(needs):
        return {"tensor1": _Arg(1) if needs[2] else None, "tensor2": _Arg(2) if needs[1] else None, "value": value}

    def grad(g, s, likes):
        return (_sum_to(g, likes[0]),
                _sum_to(g * (s["tensor2"] * value), likes[1]) if likes[1] else None,
                _sum_to(g * (s["tensor1"] * value), likes[2]) if likes[2] else None)
    return _run("AddcmulBackward0", [input, tensor1, tensor2], common, compute, saves, grad, inplace)


def addcdiv(input, tensor1, tensor2, value, out):  # noqa: A002
    common, inplace, done = _addc_begin(addcdiv, input, tensor1, tensor2, value, out)
    if done is not None:
        return done
    if not C.dtype_of(tensor1).is_floating_point and not C.dtype_of(tensor2).is_floating_point:
        raise RuntimeError("Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
                           "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
                           "be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
                           "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
                           "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
                           "for all dtypes.")

    def compute(s, t1, t2):
        _check_cpu_output(out, common, (input, tensor1, tensor2))
        return s + _value_as(value, s.dtype) * t1 / t2

    def saves(needs):
        return {"tensor1": _Arg(1) if needs[2] else None, "tensor2": _Arg(2), "value": value}

    def grad(g, s, likes):
        t1, t2 = s["tensor1"], s["tensor2"]
        return (_sum_to(g, likes[0]),
                _sum_to(g * (value / t2), likes[1]) if likes[1] else None,
                _sum_to(-g * (value * t1 / (t2 * t2)), likes[2]) if likes[2] else None)
    return _run("AddcdivBackward0", [input, tensor1, tensor2], common, compute, saves, grad, inplace)


def _addc_begin(kernel, input, tensor1, tensor2, value, out):  # noqa: A002
    """(common dtype, in place, the finished out= result or None) of addcmul/addcdiv: _begin, with out='s
    computation followed by the CPU kernel's refusal of an out of another dtype."""
    common = C.result_type(input, tensor1, tensor2)
    tensors = (input, tensor1, tensor2)
    inplace, done = _begin(kernel.__name__, input, tensors, out,
                           lambda: _checked_output(out, common, tensors,
                                                   lambda: kernel(input, tensor1, tensor2, value, None)))
    return common, inplace, done


def _checked_output(out, common, tensors, compute):
    """out='s computation, then the CPU kernel's refusal of an out of another dtype (_check_cpu_output)."""
    result = compute()
    _check_cpu_output(out, common, tensors)
    return result


def _check_cpu_output(out, common, tensors):
    """ATen's CPU addcmul/addcdiv kernels run without dynamic casting: an output (in place or out=) of another
    dtype than the inputs' common one trips its internal assert (CUDA's kernels cast)."""
    if out is not None and C.dtype_of(out) is not common and O.can_cast(common, C.dtype_of(out)) \
            and not _on_cuda(tensors + (out,)):
        raise RuntimeError("!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
                           "\"./aten/src/ATen/native/cpu/Loops.h\":347, please report a bug to PyTorch. ")


def _value_as(value, np_dtype):
    """The kernel's value.to<scalar_t>(): an integral computation truncates a float value (addcmul(i, i, i, 0.5)
    adds nothing)."""
    if isinstance(value, C.Tensor):
        value = value.item()
    if np.issubdtype(np_dtype, np.integer):
        return np_dtype.type(int(value))
    return np_dtype.type(value)


# ----------------------------------------------------------------------------- lerp
def lerp(input, end, weight, out=None):  # noqa: A002
    tensor_weight = isinstance(weight, C.Tensor)
    if not isinstance(end, C.Tensor) or not (tensor_weight or isinstance(weight, (int, float, complex))):
        raise TypeError(f"lerp() received an invalid combination of arguments - got (Tensor, {type(end).__name__}, "
                        f"{type(weight).__name__}), but expected one of:\n"
                        " * (Tensor input, Tensor end, Tensor weight, *, Tensor out)\n"
                        " * (Tensor input, Tensor end, Number weight, *, Tensor out)\n")
    inplace, done = _begin("lerp", input, (input, end, weight), out, lambda: lerp(input, end, weight))
    if done is not None:
        return done
    common = C.dtype_of(input)
    for what, t in (("end", end), ("weight", weight if tensor_weight else None)):
        if t is not None and C.dtype_of(t) is not common:
            raise RuntimeError(f"expected dtype {O.TYPEMETA_NAMES[common._code]} for `{what}` but got dtype "
                               f"{O.TYPEMETA_NAMES[C.dtype_of(t)._code]}")
    cuda = _on_cuda((input, end, weight))
    if not common.is_floating_point or (common._code in (2, 3) and not cuda):
        raise _not_implemented("lerp_cuda" if cuda else
                               "lerp_kernel_tensor" if tensor_weight else "lerp_kernel_scalar", common)
    if isinstance(weight, complex) and not common.is_complex:
        raise RuntimeError(f"value cannot be converted to type {O.TYPEMETA_NAMES[common._code]} without overflow")
    if tensor_weight:
        def compute(s, e, w):
            return _lerp_values(s, e, w)

        def saves(needs):
            return {"end": _Arg(1) if needs[2] else None, "self": _Arg(0) if needs[2] else None, "weight": _Arg(2)}

        def grad(g, s, likes):
            w = s["weight"]
            return (_sum_to(g * (1 - w), likes[0]) if likes[0] else None,
                    _sum_to(g * w, likes[1]) if likes[1] else None,
                    _sum_to(g * (s["end"] - s["self"]), likes[2]) if likes[2] else None)
        return _run("LerpBackward1", [input, end, weight], common, compute, saves, grad, inplace)

    def compute(s, e):
        return _lerp_values(s, e, s.dtype.type(weight))

    def grad(g, s, likes):
        return (_sum_to(g * (1 - float(weight)), likes[0]) if likes[0] else None,
                _sum_to(g * weight, likes[1]) if likes[1] else None)
    return _run("LerpBackward0", [input, end], common, compute, lambda needs: {"weight": weight}, grad, inplace)


def _lerp_values(s, e, w):
    """ATen's lerp: self + w * (end - self) for w < 0.5, end - (end - self) * (1 - w) otherwise (more exact
    near each end; PyTorch 1.13 tests w itself, not |w|: a negative weight takes the first form); float32 with one
    rounding per form, as the AVX2 kernels' fused multiply-adds."""
    d = e - s
    one_minus = w.dtype.type(1) - w
    if s.dtype == np.float32:
        small = _fma32(np.asarray(w), d, s)
        large = _fma32(-d, np.asarray(one_minus), e)
    else:
        small = s + w * d
        large = e - d * one_minus
    return np.where(w < 0.5, small, large)


# ----------------------------------------------------------------------------- clamp with tensor bounds
def clamp_tensor(x, min, max, out, node):  # noqa: A002
    """clamp.Tensor (ClampBackward0: self, min and max saved, one edge each, an absent bound's empty) and
    clamp_min.Tensor / clamp_max.Tensor (ClampMinBackward1 / ClampMaxBackward1: self and the bound)."""
    for bound in (min, max):
        if bound is not None and not isinstance(bound, C.Tensor):
            got = ", ".join(["Tensor"] + [f"{k}={type(v).__name__}" for k, v in (("max", max), ("min", min))
                                         if v is not None])
            raise TypeError(f"clamp() received an invalid combination of arguments - got ({got}), but expected "
                            "one of:\n * (Tensor input, Tensor min, Tensor max, *, Tensor out)\n"
                            " * (Tensor input, Number min, Number max, *, Tensor out)\n")
    inplace, done = _begin("clamp", x, (x, min, max), out, lambda: clamp_tensor(x, min, max, None, node))
    if done is not None:
        return done
    common = C.result_type(*(v for v in (x, min, max) if v is not None))

    # NaN in the value or a bound gives NaN (maximum/minimum propagate it); min > max gives max
    if node == "ClampMinBackward1":
        operands, compute = [x, min], np.maximum
        saves = (lambda needs: {"self": _Arg(0), "min": _Arg(1)})
    elif node == "ClampMaxBackward1":
        operands, compute = [x, max], np.minimum
        saves = (lambda needs: {"self": _Arg(0), "max": _Arg(1)})
    else:
        operands, compute = [x, min, max], _clamp_values
        saves = (lambda needs: {"self": _Arg(0), "min": _Arg(1), "max": _Arg(2)})
    return _run(node, operands, common, compute, saves, _clamp_grad(node), inplace)


def _clamp_values(v, lo, hi):
    r = v if lo is None else np.maximum(v, lo)
    return r if hi is None else np.minimum(r, hi)


def _clamp_grad(node):
    """clamp_backward_min_max: self's gradient where min <= self <= max; min's where self < min (and min < max
    when both are given), max's where self > max (or max < min)."""
    def grad(g, s, likes):
        from . import elementwise as B
        self_ = s["self"]
        lo, hi = s.get("min"), s.get("max")
        zero = g.new_zeros(())
        out = []
        if likes[0]:
            if lo is not None and hi is not None:
                keep = (self_ >= lo).logical_and_(self_ <= hi)
            else:
                keep = self_ >= lo if lo is not None else self_ <= hi
            out.append(_sum_to(B.where(keep, g, zero), likes[0]))
        else:
            out.append(None)
        rest = likes[1:]
        bounds = [b for b in ((lo, "min"), (hi, "max")) if b[1] in s]
        for like, (bound, which) in zip(rest, bounds):
            if not like or bound is None:
                out.append(None)
                continue
            if which == "min":
                pred = self_ < lo if hi is None else (self_ < lo).logical_and_(lo < hi)
            else:
                pred = self_ > hi if lo is None else (self_ > hi).logical_or_(hi < lo)
            out.append(_sum_to(B.where(pred, g, zero), like))
        return tuple(out)
    return grad


# ----------------------------------------------------------------------------- entry points
# torch.addcmul / Tensor.addcmul / Tensor.addcmul_ (and addcdiv) with PyTorch's argument parsing: the deprecated
# value-first overload (a UserWarning, TORCH_WARN_ONCE in the parser: once per process, whichever op comes first)
# and its message for a wrong argument count.
_warned_deprecated = [False]


def _addc_arguments(name, given, rest, value, method):
    """(tensor1, tensor2, value) from the positional arguments after input/self (`rest`); `given`: all the
    positional arguments as PyTorch's message lists them (a method's self left out)."""
    if len(rest) == 3 and not isinstance(rest[0], C.Tensor) and isinstance(rest[1], C.Tensor):
        if not _warned_deprecated[0]:
            _warned_deprecated[0] = True
            if method:
                old, new = (f"{name}(Number value, Tensor tensor1, Tensor tensor2)",
                            f"{name}(Tensor tensor1, Tensor tensor2, *, Number value)")
            else:
                old, new = (f"{name}(Tensor input, Number value, Tensor tensor1, Tensor tensor2, *, Tensor out)",
                            f"{name}(Tensor input, Tensor tensor1, Tensor tensor2, *, Number value, Tensor out)")
            O.warn_at_caller(f"This overload of {name} is deprecated:\n\t{old}\nConsider using one of the "
                             f"following signatures instead:\n\t{new} (Triggered internally at  "
                             "./torch/csrc/utils/python_arg_parser.cpp:1420.)")
        return rest[1], rest[2], rest[0]
    if len(rest) != 2:
        got = ", ".join("Tensor" if isinstance(a, C.Tensor) else type(a).__name__ for a in given)
        expected = ("Tensor tensor1, Tensor tensor2, *, Number value" if method else
                    "Tensor input, Tensor tensor1, Tensor tensor2, *, Number value, Tensor out")
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected "
                        f"({expected})")
    for i, what in enumerate(("tensor1", "tensor2")):
        if not isinstance(rest[i], C.Tensor):
            raise TypeError(f"{name}(): argument '{what}' (position {i + 1 + (not method)}) must be Tensor, not "
                            f"{type(rest[i]).__name__}")
    return rest[0], rest[1], value


def _addc_function(name, kernel):
    def fn(*args, value=1, out=None):
        t1, t2, v = _addc_arguments(name, args, args[1:], value, False)
        return kernel(args[0], t1, t2, v, out)
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = "torch"
    return fn


def _addc_method(name, kernel, inplace):
    def m(self, *args, value=1):
        t1, t2, v = _addc_arguments(name + ("_" if inplace else ""), args, args, value, True)
        return kernel(self, t1, t2, v, self if inplace else None)
    m.__name__ = name + ("_" if inplace else "")
    return m


def _lerp_method(inplace):
    def m(self, *args, **kwargs):
        return lerp(self, *args, **kwargs, out=self) if inplace else lerp(self, *args, **kwargs)
    m.__name__ = "lerp_" if inplace else "lerp"
    return m


def install(torch_module, tensor_cls):
    from . import unary
    unary.clamp_tensor = clamp_tensor
    for name, kernel in (("addcmul", addcmul), ("addcdiv", addcdiv)):
        setattr(torch_module, name, _addc_function(name, kernel))
        setattr(tensor_cls, name, _addc_method(name, kernel, False))
        setattr(tensor_cls, name + "_", _addc_method(name, kernel, True))
    torch_module.lerp = lerp
    tensor_cls.lerp = _lerp_method(False)
    tensor_cls.lerp_ = _lerp_method(True)

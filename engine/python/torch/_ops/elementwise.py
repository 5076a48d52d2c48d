# Binary elementwise ops (arithmetic with broadcasting and type promotion, comparisons, where) with
# PyTorch's device checks, result dtypes, in-place rules and autograd. Unary ops live in unary.py and are
# re-exported here, so `elementwise` stays the one namespace for all of them.
import math

import numpy as np

from .. import _dtype as D
from ..autograd import graph
from . import _core as C
from . import scalar_check
from . import out as O
from . import overlap

can_cast, scalar_name = O.can_cast, O.scalar_name  # c10::canCast and ScalarType names live with out= (out.py)


def _default_float():
    from .._default import get_default_dtype
    return get_default_dtype()


def _float_of(d):
    return d if d.is_floating_point else _default_float()


# ----------------------------------------------------------------------------- binary
class _Like:
    """The shape and dtype of an operand: all its gradient needs to be reduced and cast back to it, so a
    backward closure holds this instead of the operand (whose memory PyTorch may have freed)."""
    __slots__ = ("sizes", "dtype")

    def __init__(self, t):
        self.sizes = tuple(t._impl.sizes)
        self.dtype = C.dtype_of(t)


def _like(t):
    """_Like of an operand that needs a gradient, else None (no gradient is computed for it)."""
    return _Like(t) if isinstance(t, C.Tensor) and C.needs_grad(t) else None


def _num(x):
    """A saved operand: a Python number is saved by PyTorch as a wrapped 0-dim tensor."""
    return x if isinstance(x, C.Tensor) else graph.Wrapped(x)


def _held(saved, result):
    """What a backward closure holds of `saved`: numbers unwrapped, its own result as a graph.SavedOutput (a
    closure referencing the output would be a reference cycle)."""
    if not saved:
        return {}
    return {k: (v.value if isinstance(v, graph.Wrapped) else
                graph.SavedOutput(v) if v is result and v is not None else v) for k, v in saved.items()}


def _unpacked(held):
    return {k: (v.unpack() if isinstance(v, graph.SavedOutput) else v) for k, v in held.items()}


def binary(name, a, b, compute, grad=None, out_dtype=None, math_dtype=None, out=None, save=None,
           number_operand=True):
    """a op b. compute(x, y) works on numpy arrays in the math dtype. save(a, b, result, need_a, need_b)
    returns what PyTorch's node saves ({name: value}, see graph.attach); grad(g, like_a, like_b, saved)
    returns the gradients of a and b from those alone (like_x: _Like, or None when x needs no gradient).
    out_dtype/math_dtype map the promoted dtype."""
    tensors = [x for x in (a, b) if isinstance(x, C.Tensor)]
    if out is not None:
        if out is a:
            return binary_inplace(name, out, b, compute, grad, out_dtype, math_dtype, save=save)
        # out= of another tensor: op(a, b) computed out of place, then PyTorch's out= rules (out.py)
        return O.write_out(_public_name(name), lambda: binary(name, a, b, compute, grad, out_dtype, math_dtype,
                                                              save=save, number_operand=number_operand), tensors, out)
    dev = C.elementwise_device(tensors)
    pt = C.result_type(a, b)
    odt = out_dtype(pt) if out_dtype else pt
    mdt = math_dtype(pt) if math_dtype else odt
    C.broadcast_shapes(C.shape_of(a), C.shape_of(b))
    npd = C.compute_dtype(mdt)
    res = C.elementwise_compute(compute, C.values_of(a, npd), C.values_of(b, npd))
    # number_operand=False: ATen runs this form as a unary op (pow.Tensor_Scalar): b takes no part in the layout
    result = C.make_pointwise(res, odt, dev, (a, b) if number_operand else tuple(tensors))
    if grad is not None and odt.is_floating_point and C.needs_grad(a, b):
        attach_binary(name, a, b, result, grad, save)
    return result


def attach_binary(name, a, b, result, grad, save):
    """binary()'s autograd half: `result` (a op b, already computed) gets its node. Also the C++ fast path's
    (torch/_ops/fast_grad.py), so both paths make the very same node."""
    # (_like and _held inline: this runs for every recorded add/mul/sub/pow, and the calls cost more than the work)
    Tensor = C.Tensor
    ta, tb = isinstance(a, Tensor), isinstance(b, Tensor)
    la = _Like(a) if ta and (a._grad_fn is not None or a._requires_grad) else None
    lb = _Like(b) if tb and (b._grad_fn is not None or b._requires_grad) else None
    saved = save(a, b, result, la is not None, lb is not None) if save else None
    held, outs = {}, None
    if saved:
        for k, v in saved.items():
            if isinstance(v, graph.Wrapped):
                v = v.value
            elif v is result and v is not None:
                v = graph.SavedOutput(v)
                outs = [v] if outs is None else outs + [v]
            held[k] = v
    # the held dict itself when it holds no SavedOutput to unpack (no formula changes its argument)
    fn = (lambda gs: grad(gs[0], la, lb, _unpacked(held))) if outs else (lambda gs: grad(gs[0], la, lb, held))
    if name in _SCALAR_OVERLOADS:
        node = graph.attach(name, [result], [a if ta else b], _tensor_side(fn, ta), saved=saved)
    else:
        node = graph.attach(name, [result], [a if ta else None, b if tb else None], fn, saved=saved)
    if outs:
        for v in outs:
            v.bind(node)


# Nodes of ATen overloads that take the number operand as a Scalar (pow.Tensor_Scalar, pow.Scalar, xlogy.Scalar_Self /
# Scalar_Other, fmod.Scalar, remainder.Scalar, rsub.Scalar, copysign.Scalar): one edge, the tensor's. (mul, add, sub
# and div wrap a number in a tensor: their nodes keep two edges, the number's empty.)
_SCALAR_OVERLOADS = frozenset(("PowBackward0", "PowBackward2", "XlogyBackward1", "XlogyBackward2", "FmodBackward0",
                               "RemainderBackward0", "RsubBackward1", "CopysignBackward1"))


def _tensor_side(fn, first):
    """fn's gradient of the one tensor operand (the first or the second), for a one-edge node."""
    return (lambda gs: (fn(gs)[0],)) if first else (lambda gs: (fn(gs)[1],))


# In-place ops whose node saves no operand (only alpha): binary_inplace rebases their history without a snapshot.
_REBASE_ONLY = ("AddBackward0", "SubBackward0")


def attach_rebased(name, self, other, grad, save):
    """The node of `self op= other` for an op in _REBASE_ONLY, self's new values already written (its history not
    yet changed): it continues self's old history. Also the C++ fast path's (fast_grad.record), so both paths
    make the very same node."""
    la, lb = _like(self), _like(other)
    held = save(self, other, None, la is not None, lb is not None)
    graph.attach_edges(name, [self], [graph.edge_of(self), graph.edge_of(other) if isinstance(other, C.Tensor)
                                      else (None, 0)], lambda gs: grad(gs[0], la, lb, held), saved=held)


def binary_inplace(name, self, other, compute, grad=None, out_dtype=None, math_dtype=None, swapped=False,
                   save=None):
    """self op= other, PyTorch's checks: output device, castable result type, no broadcasting of self."""
    C.check_inplace(self)
    tensors = [self] + ([other] if isinstance(other, C.Tensor) else [])
    overlap.check_write(self, tensors[1:])
    C.elementwise_device([t for t in tensors], outputs=[self])
    a, b = (other, self) if swapped else (self, other)
    # TensorIterator's order: shapes (self, an output that cannot resize, comes first), then dtypes
    bshape = C.broadcast_shapes(C.shape_of(self), C.shape_of(other))
    if tuple(bshape) != tuple(self._impl.sizes):
        raise RuntimeError(f"output with shape {list(self._impl.sizes)} doesn't match the broadcast shape "
                           f"{list(bshape)}")
    pt = C.result_type(a, b)
    odt = out_dtype(pt) if out_dtype else pt
    mdt = math_dtype(pt) if math_dtype else odt
    sdt = C.dtype_of(self)
    if not can_cast(odt, sdt):
        raise RuntimeError(f"result type {scalar_name(odt)} can't be cast to the desired output type "
                           f"{scalar_name(sdt)}")
    if (grad is not None and name in _REBASE_ONLY and not swapped and self._base is None
            and C.needs_grad(self, other)):
        # add_/sub_: their node saves only alpha, so the values are computed in place as without autograd and
        # the node continues self's old history (PyTorch's rebase_history: AddBackward0's first edge is self's
        # old grad_fn, not a copy's), as the in-place unary ops do
        npd = C.compute_dtype(mdt)
        C.write(self, C.elementwise_compute(compute, C.values_of(a, npd), C.values_of(b, npd)))
        attach_rebased(name, self, other, grad, save)
        return self
    if grad is not None and C.needs_grad(self, other):
        before = graph.base_edge(self)  # a view written in place: its base's history continues (CopySlices)
        _rebased(name, self, a, b, compute, grad, mdt, save)
        graph.rebase_view(self, before)
        return self
    npd = C.compute_dtype(mdt)
    res = C.elementwise_compute(compute, C.values_of(a, npd), C.values_of(b, npd))
    C.write(self, res)
    return self


def _rebased(name, self, a, b, compute, grad, mdt, save):
    """`self op= other` under autograd as VariableType runs it (rebase_history): the values are computed in place;
    the node's edges are the operands' own histories (self's old grad_fn first, no copy's node in between); a
    formula that needs self's old values saves `original_self`, a clone taken before the write (with autograd,
    CloneBackward0: a real allocation the node keeps, as PyTorch's); a saved result is self after the write."""
    la, lb = _like(a), _like(b)
    saved = save(a, b, self, la is not None, lb is not None) if save else None
    original = None
    if saved and any(v is self for k, v in saved.items() if k != "result"):
        original = self.clone()
        saved = {k: (original if v is self and k != "result" else v) for k, v in saved.items()}
    if name in _SCALAR_OVERLOADS:
        edges = [graph.edge_of(self)]
    else:
        edges = [graph.edge_of(a) if isinstance(a, C.Tensor) else (None, 0),
                 graph.edge_of(b) if isinstance(b, C.Tensor) else (None, 0)]
    npd = C.compute_dtype(mdt)
    C.write(self, C.elementwise_compute(compute, C.values_of(a, npd), C.values_of(b, npd)))
    held = _held(saved, self)
    outs = [v for v in held.values() if isinstance(v, graph.SavedOutput)]
    fn = (lambda gs: grad(gs[0], la, lb, _unpacked(held))) if outs else (lambda gs: grad(gs[0], la, lb, held))
    if len(edges) == 1:
        fn = _tensor_side(fn, a is self)
    node = graph.attach_edges(name, [self], edges, fn, saved=saved)
    for v in outs:
        v.bind(node)


def _public_name(node_name):
    """The op's name in PyTorch's messages, from its autograd node name (AddBackward0 -> add)."""
    base = node_name.split("Backward")[0]
    return base[0].lower() + "".join("_" + ch.lower() if ch.isupper() else ch for ch in base[1:])


def _sum_to(g, like):
    """g reduced to the operand's shape and cast to its dtype (like: a _Like or a Tensor; None: no grad)."""
    if like is None or g is None:
        return None
    sizes, dtype = (like.sizes, like.dtype) if isinstance(like, _Like) else (like._impl.sizes, C.dtype_of(like))
    g = C.sum_to_shape(g, sizes)
    if C.dtype_of(g) is not dtype:
        g = g.to(dtype)
    return g


def _alpha(v, alpha):
    return v if alpha is None or alpha == 1 else v * alpha


def _save_alpha(alpha):
    # add/sub/rsub save only alpha (a Scalar): neither operand is needed for their gradients
    return lambda a, b, r, need_a, need_b: {"alpha": alpha}


def _check_alpha(a, b, alpha):
    """ATen's alpha_check: a floating alpha cannot scale an integral (or bool) result; then the kernel's
    alpha.to<scalar_t>() refuses one beyond the common dtype's range."""
    if alpha == 1:
        return
    common = C.result_type(a, b)
    if isinstance(alpha, (float, np.floating)) and not (common.is_floating_point or common.is_complex):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    scalar_check.check(alpha, common)


def add(a, b, alpha=1, out=None):
    _check_alpha(a, b, alpha)
    if alpha != 1 and not isinstance(b, C.Tensor):
        b = b * alpha
        alpha = 1
    if alpha != 1:
        def compute(x, y):
            if x.dtype == np.bool_ and y.dtype == np.bool_:  # alpha is cast to bool first: x or (y and alpha)
                return x | (y & bool(alpha))
            return x + y * alpha
    else:
        compute = np.add
    return binary("AddBackward0", a, b, compute, add_grad(alpha), out=out, save=_save_alpha(alpha))


def add_grad(alpha):
    def grad(g, la, lb, s):
        return _sum_to(g, la), _sum_to(_alpha(g, alpha), lb)
    return grad


def _check_bool_sub(a, b):
    """sub_check: both operands bool (a tensor or a Python bool) or one bool tensor is refused."""
    def is_bool(x):
        return (isinstance(x, C.Tensor) and C.dtype_of(x) is D.bool) or isinstance(x, (bool, np.bool_))
    if is_bool(a) and is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    for x in (a, b):  # (a Python bool is a wrapped bool tensor here)
        if is_bool(x):
            raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                               "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def sub(a, b, alpha=1, out=None):
    _check_bool_sub(a, b)
    _check_alpha(a, b, alpha)
    if alpha != 1:
        def compute(x, y):
            return x - y * alpha
    else:
        compute = np.subtract
    return binary("SubBackward0", a, b, compute, sub_grad(alpha), out=out, save=_save_alpha(alpha))


def sub_grad(alpha):
    def grad(g, la, lb, s):
        return _sum_to(g, la), _sum_to(-_alpha(g, alpha), lb)
    return grad


def rsub(a, b, alpha=1):
    """b - a * alpha (Tensor.__rsub__ / torch.rsub); with a Python number b the node is RsubBackward1."""
    if isinstance(b, C.Tensor):
        r = sub(b, a, alpha)
        if r._grad_fn is not None:
            r._grad_fn.__class__ = graph.node_class("RsubBackward0")
        return r
    _check_bool_sub(b, a)

    def grad(g, l_number, l_self, s):  # operands in compute order: the number b, then the tensor a
        return None, _sum_to(-_alpha(g, alpha), l_self)
    return binary("RsubBackward1", b, a, (lambda x, y: x - y * alpha) if alpha != 1 else np.subtract, grad,
                  save=_save_alpha(alpha))


def mul(a, b, out=None):
    if out is None and not isinstance(a, C.Tensor) and isinstance(b, C.Tensor):
        a, b = b, a  # number * tensor runs as tensor.mul(number): the number is `other`, as in PyTorch
    return binary("MulBackward0", a, b, _mul_compute, mul_grad, out=out, save=_save_mul)


def mul_grad(g, la, lb, s):
    return (_sum_to(g * s["other"], la) if la is not None else None,
            _sum_to(g * s["self"], lb) if lb is not None else None)


def _save_mul(a, b, r, need_a, need_b):
    # mul_tensor_backward(grad, other) for self, (grad, self) for other: each operand is saved only when
    # the other one needs a gradient
    return {"self": _num(a) if need_b else None, "other": _num(b) if need_a else None}


def _save_both(a, b, r, need_a, need_b):
    return {"self": _num(a), "other": _num(b)}


def _mul_compute(x, y):
    if x.dtype == np.bool_:
        return np.logical_and(x, y)
    return x * y


def div(a, b, rounding_mode=None, out=None):
    if rounding_mode is None:
        return binary("DivBackward0", a, b, np.true_divide, div_grad, out_dtype=_float_of, out=out, save=_save_div)
    if rounding_mode == "trunc":
        def compute(x, y):
            if x.dtype == np.bool_:
                raise RuntimeError("\"div_trunc_cpu\" not implemented for 'Bool'")
            q = np.true_divide(x, y)
            return np.trunc(q) if np.issubdtype(q.dtype, np.floating) and np.issubdtype(x.dtype, np.floating) \
                else _int_div(x, y, trunc=True)
    elif rounding_mode == "floor":
        def compute(x, y):
            if x.dtype == np.bool_:
                raise RuntimeError("\"div_floor_cpu\" not implemented for 'Bool'")
            if np.issubdtype(x.dtype, np.floating):
                return np.floor(np.true_divide(x, y))
            return _int_div(x, y, trunc=False)
    else:
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    # div.Tensor_mode (a number is wrapped: two edges), saving what div's formulas save plus the mode; both
    # gradients are zeros (the rounded quotient is piecewise constant), allocated as PyTorch's zeros_like
    return binary("DivBackward2", a, b, compute, _div_mode_grad, out=out,
                  save=lambda a, b, r, need_a, need_b: dict(_save_div(a, b, r, need_a, need_b),
                                                            rounding_mode=rounding_mode))


def _div_mode_grad(g, la, lb, s):
    return (None if la is None else _sum_to(g.new_zeros(g.shape, dtype=la.dtype), la),
            None if lb is None else _sum_to(g.new_zeros(g.shape, dtype=lb.dtype), lb))


def div_grad(g, la, lb, s):
    other = s["other"]
    ga = _sum_to(div(g, other), la) if la is not None else None
    # div_tensor_other_backward: -grad * ((self / other) / other); PyTorch does not save the result
    gb = _sum_to(-g * div(div(s["self"], other), other), lb) if lb is not None else None
    return ga, gb


def _save_div(a, b, r, need_a, need_b):
    # self is needed only for other's gradient; other for both
    return {"self": _num(a) if need_b else None, "other": _num(b)}


def _int_div(x, y, trunc):
    if np.broadcast(x, y).size and np.any(y == 0):
        raise RuntimeError("ZeroDivisionError")
    if trunc:
        return np.trunc(np.true_divide(x, y)).astype(x.dtype)
    return np.floor_divide(x, y)


def floor_divide(a, b, out=None):
    return div(a, b, rounding_mode="floor", out=out)


def _save_for_other(a, b, r, need_a, need_b):
    # remainder/fmod: self's gradient is grad itself; other's needs self and other
    if not isinstance(b, C.Tensor):
        return None
    return {"self": _num(a) if need_b else None, "other": b if need_b else None}


def remainder(a, b, out=None):
    def compute(x, y):
        if x.dtype == np.bool_:
            raise RuntimeError("\"remainder_cpu\" not implemented for 'Bool'")
        if not np.issubdtype(x.dtype, np.floating) and np.broadcast(x, y).size and np.any(y == 0):
            raise RuntimeError("ZeroDivisionError")  # (an empty result divides nothing)
        return np.mod(x, y)

    def grad(g, la, lb, s):
        return _sum_to(g, la), (_sum_to(-g * floor_divide(s["self"], s["other"]), lb) if lb is not None else None)
    # remainder.Scalar is RemainderBackward0, remainder.Tensor RemainderBackward1
    return binary("RemainderBackward1" if isinstance(b, C.Tensor) else "RemainderBackward0", a, b, compute, grad,
                  out=out, save=_save_for_other)


def fmod(a, b, out=None):
    def grad(g, la, lb, s):
        return _sum_to(g, la), (_sum_to(-g * div(s["self"], s["other"], rounding_mode="trunc"), lb)
                                if lb is not None else None)
    def compute(x, y):
        if x.dtype == np.bool_:
            raise RuntimeError("\"fmod_cpu\" not implemented for 'Bool'")
        if not np.issubdtype(x.dtype, np.floating) and np.broadcast(x, y).size and np.any(y == 0):
            raise RuntimeError("ZeroDivisionError")  # (an empty result divides nothing)
        return np.fmod(x, y)
    return binary("FmodBackward1" if isinstance(b, C.Tensor) else "FmodBackward0", a, b, compute, grad, out=out,
                  save=_save_for_other)


def pow(a, b, out=None):  # noqa: A001
    if not isinstance(a, C.Tensor) and not isinstance(b, C.Tensor):
        raise TypeError(f"pow() received an invalid combination of arguments - got ({type(a).__name__}, "
                        f"{type(b).__name__}), but expected one of:\n"
                        " * (Tensor input, Tensor exponent, *, Tensor out)\n"
                        " * (Number self, Tensor exponent, *, Tensor out)\n"
                        " * (Tensor input, Number exponent, *, Tensor out)\n")
    if out is None and (type(b) is int or type(b) is float) and isinstance(a, C.Tensor):
        r = _pow_float_number(a, b)
        if r is not None:
            return r

    def compute(x, y):
        if x.dtype == np.bool_:
            raise RuntimeError("\"pow\" not implemented for 'Bool'")
        if not isinstance(b, C.Tensor) and not np.issubdtype(x.dtype, np.floating) and b < 0:
            # pow(Tensor, Scalar) refuses the scalar itself (before any cast to the tensor's dtype)
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        if not np.issubdtype(x.dtype, np.floating) and np.any(np.asarray(y) < 0):
            # x ** -n in integers: 1 for 1, +-1 for -1, 0 otherwise (C's integer division of 1 by x ** n)
            neg = np.where(x == 1, 1, np.where(x == -1, np.where(y % 2 == 0, 1, -1), 0)).astype(x.dtype)
            return np.where(y < 0, neg, np.power(x, np.maximum(y, 0)))
        if not isinstance(b, C.Tensor) and np.issubdtype(x.dtype, np.floating) and isinstance(b, (int, float)) \
                and not isinstance(b, bool):
            r = _pow_scalar_special(x, b)
            if r is not None:
                return r
        return np.power(x, y)

    if isinstance(a, C.Tensor) and isinstance(b, C.Tensor):
        name = "PowBackward1"   # pow.Tensor_Tensor
    elif isinstance(a, C.Tensor):
        name = "PowBackward0"   # pow.Tensor_Scalar: the exponent is a plain Scalar
    else:
        name = "PowBackward2"   # pow.Scalar (number ** tensor, Tensor.__rpow__)
    return binary(name, a, b, compute, _pow_grad, out=out, save=_save_pow, number_operand=isinstance(b, C.Tensor))


def _pow_grad(g, la, lb, s):
    base, exponent = s["self"], s["exponent"]
    ga = gb = None
    if la is not None:
        if not isinstance(exponent, C.Tensor) and exponent == 0:
            # pow_backward(grad, self, Scalar 0) is zeros_like(self): not grad * 0 * self ** -1 (nan at self 0)
            from .._factories import zeros_like
            ga = _sum_to(zeros_like(base), la)
        else:
            ga = _sum_to(g * exponent * pow(base, exponent - 1), la)
    if lb is not None:
        lg = log(base) if isinstance(base, C.Tensor) else math.log(base) if base > 0 else float("nan")
        gb = _sum_to(g * s["result"] * lg, lb)
    return ga, gb


_FLOAT_CODES = (D.float32._code, D.float64._code)


def _pow_float_number(a, b):
    """pow(float32/float64 tensor, int/float) - x ** 2 in a polynomial fit - without binary()'s general
    machinery: what binary() does for this form, step for step, where it cannot fail. The result dtype is the
    tensor's (a floating tensor wins over any number), the math runs in it (values_of: the tensor's own values,
    the exponent as a 0-dim array of that dtype), the special cases as compute() takes them, the same layout
    (make_pointwise with the tensor alone: pow.Tensor_Scalar is a unary op to TensorIterator) and the same
    PowBackward0 node. None for anything else (other dtypes, virtual tensors): binary() then."""
    impl = a._impl
    if impl.dtype_code not in _FLOAT_CODES or impl.is_virtual:
        return None
    odt = C.dtype_of(a)
    x = C.read(a)
    with C.fp_quiet():
        res = _pow_scalar_special(x, b)
        if res is None:
            res = np.power(x, np.asarray(b).astype(odt._np))
    dev = C.elementwise_device((a,))
    # make_pointwise's first case inline (a contiguous operand without size-1 dims: a plain contiguous result)
    result = C.make(res, odt, dev) if impl.is_contiguous and 1 not in impl.sizes else \
        C.make_pointwise(res, odt, dev, (a,))
    if C.needs_grad(a):
        attach_binary("PowBackward0", a, b, result, _pow_grad, _save_pow)
    return result


def _pow_scalar_special(x, e):
    """pow_tensor_scalar_kernel's special cases for float and double (PowKernel.cpp), None for the others:
    ** 0.5 is sqrt (so pow(-0.0, 0.5) is -0.0 and pow(-inf, 0.5) nan, as there), ** -0.5 is 1 / sqrt,
    ** -1 the reciprocal, ** 2 and ** 3 products (as rounded there), ** -2 is 1 / (x * x). Other small integer
    powers of floats are taken in double by squaring and rounded to float once: std::pow's result (the Sleef
    vector pow ATen also uses is within an ulp of it); np.power's per-element powf costs ~300 ns here (a
    128x784 batch ** 4: 30 ms, against 1 ms). ** 1 is a copy, as pow_Tensor_Scalar_out takes it (out.copy_(base)):
    x ** 2's backward asks for it, and glibc's powf is slow on negative bases (~7 ms for a 128x784 batch)."""
    if e == 1:
        return x.copy()
    if e == 2:
        return x * x
    if e == 3:
        return x * x * x
    if x.dtype not in (np.float32, np.float64):
        return None
    if e == 0.5:
        return np.sqrt(x)
    if e == -0.5:
        return x.dtype.type(1) / np.sqrt(x)
    if e == -1:
        return x.dtype.type(1) / x
    if e == -2:
        return x.dtype.type(1) / (x * x)
    if x.dtype == np.float32 and (4 <= e <= 64 or -64 <= e <= -3) and float(e).is_integer():  # (abs: torch's here)
        n, base, acc = int(e) if e > 0 else -int(e), x.astype(np.float64), None
        while n:
            if n & 1:
                acc = base if acc is None else acc * base
            n >>= 1
            if n:
                base = base * base
        return (acc if e > 0 else 1.0 / acc).astype(np.float32)
    return None


def _save_pow(a, b, r, need_a, need_b):
    # self and exponent serve both gradients, the result the exponent's: saved even when the exponent needs none
    # (PyTorch guards the saving of inputs, never of outputs); Scalars stay plain numbers
    return {"self": a, "exponent": b, "result": r} if isinstance(b, C.Tensor) \
        else {"self": a, "exponent": b}


def atan2(a, b, out=None):
    def grad(g, la, lb, s):
        ta, tb = s["self"], s["other"]
        den = ta * ta + tb * tb
        return _sum_to(g * tb / den, la), _sum_to(-g * ta / den, lb)
    return binary("Atan2Backward0", a, b, np.arctan2, grad, out_dtype=_float_of, out=out, save=_save_both)


def maximum(a, b, out=None):
    def grad(g, la, lb, s):
        mask = ge(s["self"], s["other"])
        return _sum_to(where(mask, g, 0.0), la), _sum_to(where(mask, 0.0, g), lb)
    return binary("MaximumBackward0", a, b, np.maximum, grad, out=out, save=_save_both)


def minimum(a, b, out=None):
    def grad(g, la, lb, s):
        mask = le(s["self"], s["other"])
        return _sum_to(where(mask, g, 0.0), la), _sum_to(where(mask, 0.0, g), lb)
    return binary("MinimumBackward0", a, b, np.minimum, grad, out=out, save=_save_both)


def fmax(a, b, out=None):
    """maximum that ignores NaN (NaN only where both are NaN)."""
    def grad(g, la, lb, s):
        mask = logical_or(ge(s["self"], s["other"]), isnan(s["other"]))
        return _sum_to(where(mask, g, 0.0), la), _sum_to(where(mask, 0.0, g), lb)
    return binary("FmaxBackward0", a, b, np.fmax, grad, out=out, save=_save_both)


def fmin(a, b, out=None):
    """minimum that ignores NaN (NaN only where both are NaN)."""
    def grad(g, la, lb, s):
        mask = logical_or(le(s["self"], s["other"]), isnan(s["other"]))
        return _sum_to(where(mask, g, 0.0), la), _sum_to(where(mask, 0.0, g), lb)
    return binary("FminBackward0", a, b, np.fmin, grad, out=out, save=_save_both)


def _bool_out(pt):
    return D.bool


def _cmp(name, fn):
    def op(a, b, out=None):
        return binary(name, a, b, fn, None, out_dtype=_bool_out, math_dtype=lambda pt: pt, out=out)
    op.__name__ = name
    return op


eq = _cmp("eq", np.equal)
ne = _cmp("ne", np.not_equal)
lt = _cmp("lt", np.less)
le = _cmp("le", np.less_equal)
gt = _cmp("gt", np.greater)
ge = _cmp("ge", np.greater_equal)
logical_and = _cmp("logical_and", np.logical_and)
logical_or = _cmp("logical_or", np.logical_or)
logical_xor = _cmp("logical_xor", np.logical_xor)


def _bitwise(name, fn):
    def compute(x, y):
        # refused in the dtype the op runs in (after the in-place castability check, as in PyTorch)
        if np.issubdtype(x.dtype, np.floating):
            raise RuntimeError(f"\"{name}_cpu\" not implemented for '{'Double' if x.dtype == np.float64 else 'Float'}'")
        return fn(x, y)

    def op(a, b, out=None):
        return binary(name, a, b, compute, None, out=out)
    return op


bitwise_and = _bitwise("bitwise_and", np.bitwise_and)
bitwise_or = _bitwise("bitwise_or", np.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor)


def where(condition, x=None, y=None):
    if x is None and y is None:
        from .indexing import nonzero
        return nonzero(condition, as_tuple=True)
    tensors = [t for t in (condition, x, y) if isinstance(t, C.Tensor)]
    if isinstance(condition, C.Tensor) and C.dtype_of(condition) is not D.bool:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{scalar_name(C.dtype_of(condition))}")
    dev = C.elementwise_device(tensors)
    odt = C.result_type(x, y)
    for number in (y, x):  # ATen makes a number operand at::scalar_tensor(number, result dtype): other first
        if not isinstance(number, C.Tensor):
            scalar_check.check(number, odt)
    C.broadcast_shapes(C.shape_of(condition), C.shape_of(x), C.shape_of(y))
    npd = C.compute_dtype(odt)
    res = np.where(C.values_of(condition, np.bool_), C.values_of(x, npd), C.values_of(y, npd))
    result = C.make_pointwise(res, odt, dev, (condition, x, y))
    if odt.is_floating_point and C.needs_grad(x, y):
        tx = x if isinstance(x, C.Tensor) else None
        ty = y if isinstance(y, C.Tensor) else None
        lx, ly = _like(x), _like(y)  # PyTorch saves only the condition

        def fn(gs):
            g = gs[0]
            return (None,
                    _sum_to(where(condition, g, 0.0), lx) if lx is not None else None,
                    _sum_to(where(condition, 0.0, g), ly) if ly is not None else None)
        graph.attach("WhereBackward0", [result], [None, tx, ty], fn, saved={"condition": condition})
    return result


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    dev = C.elementwise_device([t for t in (a, b) if isinstance(t, C.Tensor)])
    va = C.values_of(a, np.float64)
    vb = C.values_of(b, np.float64)
    return C.make(np.isclose(va, vb, rtol=rtol, atol=atol, equal_nan=equal_nan), D.bool, dev)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.all(C.read(isclose(a, b, rtol, atol, equal_nan))))


def equal(a, b):
    C.elementwise_device([a, b])
    if tuple(a._impl.sizes) != tuple(b._impl.sizes):
        return False
    return bool(np.array_equal(C.read(a), C.read(b)))


# Unary ops (imported last: unary.py uses the binary ops above in its gradients).
from .unary import (abs, bitwise_not, ceil, clamp, clamp_max, clamp_min, cos, erf, erfinv, exp, expm1,  # noqa: E402,F401,A004
                    floor, frac, isfinite, isinf, isnan, log, log10, log1p, log2, logical_not, nan_to_num, neg,
                    reciprocal, relu, round, rsqrt, sigmoid, sign, sin, sqrt, square, tan, tanh, trunc, unary)

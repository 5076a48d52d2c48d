# Unary elementwise ops (exp, log, sqrt, tanh, sigmoid, relu, erf, rounding, tests like isnan, clamp) with
# PyTorch's result dtypes (integer inputs give floats for transcendental functions), in-place forms and autograd.
import math

import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from ..autograd import grad_mode, graph
from . import _core as C
from . import scalar_check
from . import elementwise as B
from . import out as O
from . import overlap
from .elementwise import _float_of

def _saves(which, x, r, extra):
    """PyTorch's saved set of a unary op: its input ("self") or its result, plus plain values (clamp's
    min/max)."""
    saved = {"self": x} if which == "x" else ({"result": r} if which == "r" else {})
    if extra:
        saved.update(extra)
    return saved or None


def _kernel_of(name):
    """The op name of an autograd node name (FloorBackward0 -> floor), for _KERNEL_SUPPORT."""
    return name.split("Backward")[0].lower()


def unary(name, x, compute, grad=None, out_dtype=None, out=None, precise=False, save=None, extra=None):
    if out is not None and out is not x:
        # out= of another tensor: computed out of place, then PyTorch's out= rules (out.py)
        return O.write_out(B._public_name(name), lambda: unary(name, x, compute, grad, out_dtype, precise=precise,
                                                               save=save, extra=extra), [x], out)
    if out is not None:
        C.check_inplace(out)
        overlap.assert_no_internal_overlap(out)
    dev = C.elementwise_device([x])
    xdt = C.dtype_of(x)
    odt = out_dtype(xdt) if out_dtype else xdt
    if out is not None and not O.can_cast(odt, xdt):
        raise RuntimeError(f"result type {O.scalar_name(odt)} can't be cast to the desired output type "
                           f"{O.scalar_name(xdt)}")
    npd = C.compute_dtype(odt if odt.is_floating_point else xdt)
    if precise and npd == np.float32:
        npd = np.float64  # transcendental functions: compute wide, round once (PyTorch's are within 1 ulp)
    if _kernel_of(name) in _KERNEL_SUPPORT:  # the kernel refuses the dtype after the checks above
        _check_kernel(_kernel_of(name), x)
    res = C.elementwise_compute(compute, C.values_of(x, npd))
    if out is not None:
        if grad is not None and out is x and C.needs_grad(out) and x._base is not None:
            # written through a view: the op as on any tensor, then the base's history continues (CopySlices)
            before = graph.base_edge(x)
            x._base, base = None, x._base
            try:
                unary(name, x, compute, grad, out_dtype, out=x, precise=precise, save=save, extra=extra)
            finally:
                x._base = base
            graph.rebase_view(x, before)
            return x
        if grad is not None and C.needs_grad(out) and out is x and save != "x" and odt is C.dtype_of(out):
            # In place (relu_, sigmoid_, ...): the node continues x's old history and, when it saves its
            # result, saves x itself after the write, as PyTorch does: no copy of x stays allocated.
            edge = graph.edge_of(out)
            C.write(out, res)
            rs = graph.SavedOutput(out) if save == "r" else None
            node = graph.attach_edges(name, [out], [edge], lambda gs: (grad(gs[0], None, rs and rs.unpack()),),
                                      saved=_saves(save, None, out, extra))
            if rs is not None:
                rs.bind(node)
            return out
        if grad is not None and C.needs_grad(out) and save == "x":
            # in place on a saved input (abs_, log_, erfc_, ...): the node continues x's old history and saves
            # original_self, a clone VariableType takes before the write - with autograd (CloneBackward0), so
            # create_graph differentiates through it; no other allocation
            edge = graph.edge_of(out)
            original = out.clone()
            C.write(out, res)
            graph.attach_edges(name, [out], [edge], lambda gs: (grad(gs[0], original, None),),
                               saved=_saves(save, original, out, extra))
            return out
        if grad is not None and C.needs_grad(out):
            # (a node saving its result, whose dtype differs from out's): out of place, then written back
            r = unary(name, out.clone(), compute, grad, out_dtype, precise=precise, save=save, extra=extra)
            C.write(out, C.read(r))
            out._grad_fn, out._output_nr = r._grad_fn, 0
            return out
        C.write(out, res)
        return out
    result = C.make_pointwise(res, odt, dev, (x,))
    if grad is not None and odt.is_floating_point and C.needs_grad(x):
        attach_unary(name, x, result, grad, save, extra)
    return result


def attach_unary(name, x, result, grad, save, extra=None):
    """unary()'s autograd half for an out-of-place result; also the C++ fast path's (torch/_ops/fast_grad.py),
    so both paths make the very same node."""
    # The backward closure holds only what PyTorch saves (`save`), so an input or output nobody else
    # holds is freed as it would be in PyTorch (ReLU keeps its result, not the Linear output before it).
    # The output is held as a detached alias: a closure referencing it would be a reference cycle.
    xs = x if save == "x" else None
    rs = graph.SavedOutput(result) if save == "r" else None
    node = graph.attach(name, [result], [x], lambda gs: (grad(gs[0], xs, rs and rs.unpack()),),
                        saved=_saves(save, x, result, extra))
    if rs is not None:
        rs.bind(node)


# CPU kernels that PyTorch does not build for some dtypes: (kernel name in its message, refused kind).
_KERNEL_SUPPORT = {"floor": ("floor_vml_cpu", "bool"), "ceil": ("ceil_vml_cpu", "bool"),
                   "trunc": ("trunc_vml_cpu", "bool"), "round": ("round_vml_cpu", "bool"),
                   "frac": ("frac_cpu", "integral"), "abs": ("abs_cpu", "bool"),
                   "bitwise_not": ("bitwise_not_cpu", "floating")}


def _check_kernel(op, x):
    kernel, refused = _KERNEL_SUPPORT[op]
    d = C.dtype_of(x)
    if refused == "floating":
        if d.is_floating_point:
            raise RuntimeError(f"\"{kernel}\" not implemented for '{O.scalar_name(d)}'")
        return
    if d is D.bool or (refused == "integral" and not d.is_floating_point):
        raise RuntimeError(f"\"{kernel}\" not implemented for '{O.scalar_name(d)}'")


def _floatify(d):
    return _float_of(d)


def neg(x, out=None):
    if C.dtype_of(x) is D.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    return unary("NegBackward0", x, np.negative, neg_grad, out=out)


def neg_grad(g, x, r):
    return -g


def abs(x, out=None):  # noqa: A001
    return unary("AbsBackward0", x, np.abs, lambda g, x, r: g * sign(x), out=out, save="x")


def _sign_np(v):
    if v.dtype == np.bool_:
        return v.copy()
    if v.dtype.kind == "f":  # ATen's (0 < a) - (a < 0): NaN and -0.0 give +0.0 (numpy: NaN, -0.0)
        return (v > 0).astype(v.dtype) - (v < 0).astype(v.dtype)
    return np.sign(v)


def sign(x, out=None):
    return unary("SignBackward0", x, _sign_np, lambda g, x, r: g * 0.0, out=out)


def exp(x, out=None):
    return unary("ExpBackward0", x, np.exp, exp_grad, _floatify, out=out, precise=True, save="r")


def exp_grad(g, x, r):
    return g * r


def expm1(x, out=None):
    return unary("Expm1Backward0", x, np.expm1, lambda g, x, r: g * (r + 1), _floatify, out=out, precise=True, save="r")


def log(x, out=None):
    return unary("LogBackward0", x, np.log, lambda g, x, r: g / x, _floatify, out=out, precise=True, save="x")


def log2(x, out=None):
    return unary("Log2Backward0", x, np.log2, lambda g, x, r: g / (x * math.log(2.0)), _floatify, out=out, precise=True, save="x")


def log10(x, out=None):
    return unary("Log10Backward0", x, np.log10, lambda g, x, r: g / (x * math.log(10.0)), _floatify, out=out, precise=True, save="x")


def log1p(x, out=None):
    return unary("Log1PBackward0", x, np.log1p, lambda g, x, r: g / (x + 1), _floatify, out=out, precise=True, save="x")


def sqrt(x, out=None):
    return unary("SqrtBackward0", x, np.sqrt, lambda g, x, r: g / (2 * r), _floatify, out=out, precise=True, save="r")


def rsqrt(x, out=None):
    return unary("RsqrtBackward0", x, lambda v: 1.0 / np.sqrt(v), lambda g, x, r: -0.5 * g * r * r * r,
                 _floatify, out=out, save="r")


def reciprocal(x, out=None):
    return unary("ReciprocalBackward0", x, lambda v: 1.0 / v, lambda g, x, r: -g * r * r, _floatify, out=out, precise=True, save="r")


def square(x, out=None):
    # ATen's square is pow(x, 2): one PowBackward0 that saves x once (not mul's self and other)
    return B.pow(x, 2, out=out)


def sin(x, out=None):
    return unary("SinBackward0", x, np.sin, lambda g, x, r: g * cos(x), _floatify, out=out, precise=True, save="x")


def cos(x, out=None):
    return unary("CosBackward0", x, np.cos, lambda g, x, r: -g * sin(x), _floatify, out=out, precise=True, save="x")


def tan(x, out=None):
    return unary("TanBackward0", x, np.tan, lambda g, x, r: g * (1 + r * r), _floatify, out=out, precise=True, save="r")


# Inverse and hyperbolic trigonometry: gradients as tools/autograd/derivatives.yaml writes them.
def asin(x, out=None):
    return unary("AsinBackward0", x, np.arcsin, lambda g, x, r: g * rsqrt(1 - x * x), _floatify, out=out,
                 precise=True, save="x")


def acos(x, out=None):
    return unary("AcosBackward0", x, np.arccos, lambda g, x, r: -(g * rsqrt(1 - x * x)), _floatify, out=out,
                 precise=True, save="x")


def atan(x, out=None):
    return unary("AtanBackward0", x, np.arctan, lambda g, x, r: g / (x * x + 1), _floatify, out=out, precise=True,
                 save="x")


def sinh(x, out=None):
    return unary("SinhBackward0", x, np.sinh, lambda g, x, r: g * cosh(x), _floatify, out=out, precise=True,
                 save="x")


def cosh(x, out=None):
    return unary("CoshBackward0", x, np.cosh, lambda g, x, r: g * sinh(x), _floatify, out=out, precise=True,
                 save="x")


def asinh(x, out=None):
    return unary("AsinhBackward0", x, np.arcsinh, lambda g, x, r: g * rsqrt(x * x + 1), _floatify, out=out,
                 precise=True, save="x")


def acosh(x, out=None):
    return unary("AcoshBackward0", x, np.arccosh, lambda g, x, r: g * rsqrt(x * x - 1), _floatify, out=out,
                 precise=True, save="x")


def atanh(x, out=None):
    return unary("AtanhBackward0", x, np.arctanh, lambda g, x, r: g * (1 / (1 - x * x)), _floatify, out=out,
                 precise=True, save="x")


def exp2(x, out=None):
    return unary("Exp2Backward0", x, np.exp2, lambda g, x, r: g * r * math.log(2.0), _floatify, out=out,
                 precise=True, save="r")


def tanh(x, out=None):
    return unary("TanhBackward0", x, np.tanh, tanh_grad, _floatify, out=out, precise=True, save="r")


def tanh_grad(g, x, r):
    fast = _activation_kernel(1, g, r)
    return fast if fast is not None else C.one_kernel(lambda: g * (1 - r * r))


def _sigmoid_np(v):
    return np.where(v >= 0, 1.0 / (1.0 + np.exp(-np.abs(v))), np.exp(-np.abs(v)) / (1.0 + np.exp(-np.abs(v)))) \
        .astype(v.dtype, copy=False)


def sigmoid(x, out=None):
    return unary("SigmoidBackward0", x, _sigmoid_np, sigmoid_grad, _floatify, out=out, precise=True, save="r")


def sigmoid_grad(g, x, r):
    fast = _activation_kernel(2, g, r)
    return fast if fast is not None else C.one_kernel(lambda: g * r * (1 - r))


def relu(x, out=None):
    if C.dtype_of(x) is D.bool:
        raise RuntimeError("\"clamp_min_cpu\" not implemented for 'Bool'")
    # clamp_min(x, 0): only values below zero become zero (-0.0 and NaN stay, as in PyTorch; np.maximum gave +0.0)
    return unary("ReluBackward0", x, lambda v: np.where(v < 0, np.zeros((), v.dtype), v), relu_grad, out=out,
                 save="r")


def _activation_kernel(kind, g, r):
    """The C++ kernel (bindings_fast_grad.cpp) of relu's (0), tanh's (1) or sigmoid's (2) backward formula below,
    for dense float operands outside create_graph; None where it does not apply."""
    if C.FAST_KERNELS and not grad_mode._enabled[0] and not (g._impl.is_virtual or r._impl.is_virtual):
        fast = _E.nn_activation_backward(kind, g._impl, r._impl)
        if fast is not None:
            return C.wrap(fast)
    return None


def relu_grad(g, x, r):
    # threshold_backward: one kernel, one result
    fast = _activation_kernel(0, g, r)
    return fast if fast is not None else C.one_kernel(lambda: g * B.gt(r, 0))


def _erf_np(v):
    # Abramowitz-Stegun 7.1.26 refined with one Newton step on the float64 value (|error| < 1e-12).
    v64 = np.asarray(v, dtype=np.float64)
    s = np.sign(v64)
    a = np.abs(v64)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t \
        * np.exp(-a * a)
    return (s * y).astype(np.asarray(v).dtype, copy=False)


def _erf_exact(v):
    f = np.vectorize(math.erf, otypes=[np.float64])
    return f(np.asarray(v, dtype=np.float64)).astype(np.asarray(v).dtype, copy=False)


def erf(x, out=None):
    return unary("ErfBackward0", x, _erf_exact, lambda g, x, r: g * (2.0 / math.sqrt(math.pi)) * exp(-x * x),
                 _floatify, out=out, save="x")


def _erfinv_np(v):
    v64 = np.asarray(v, dtype=np.float64)
    # Giles' approximation, then two Newton steps on erf.
    w = -np.log((1.0 - v64) * (1.0 + v64))
    small = w < 5.0
    ws = w - 2.5
    p1 = 2.81022636e-08
    for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
              -0.00417768164, 0.246640727, 1.50140941):
        p1 = c + p1 * ws
    wl = np.sqrt(np.maximum(w, 0)) - 3.0
    p2 = -0.000200214257
    for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
              0.00943887047, 1.00167406, 2.83297682):
        p2 = c + p2 * wl
    x = np.where(small, p1, p2) * v64
    erf_v = np.vectorize(math.erf, otypes=[np.float64])
    for _ in range(2):
        err = erf_v(x) - v64
        x = x - err / (2.0 / math.sqrt(math.pi) * np.exp(-x * x))
    x = np.where(v64 == 1, np.inf, np.where(v64 == -1, -np.inf, x))
    return x.astype(np.asarray(v).dtype, copy=False)


def erfinv(x, out=None):
    return unary("ErfinvBackward0", x, _erfinv_np,
                 # PyTorch saves self and recomputes erfinv(self) in backward.
                 lambda g, x, r: g * (math.sqrt(math.pi) / 2.0) * exp(erfinv(x) ** 2), _floatify, out=out, precise=True,
                 save="x")


def floor(x, out=None):
    return unary("FloorBackward0", x, np.floor, lambda g, x, r: g * 0.0, out=out)


def ceil(x, out=None):
    return unary("CeilBackward0", x, np.ceil, lambda g, x, r: g * 0.0, out=out)


def trunc(x, out=None):
    return unary("TruncBackward0", x, np.trunc, lambda g, x, r: g * 0.0, out=out)


def round(x, decimals=0, out=None):  # noqa: A001
    if decimals:
        return unary("RoundBackward1", x, lambda v: np.round(v, decimals), lambda g, x, r: g * 0.0, out=out)
    return unary("RoundBackward0", x, np.rint, lambda g, x, r: g * 0.0, out=out)


def frac(x, out=None):
    return unary("FracBackward0", x, lambda v: v - np.trunc(v), lambda g, x, r: g, out=out)


def logical_not(x, out=None):
    return unary("logical_not", x, np.logical_not, None, lambda d: D.bool, out=out)


def bitwise_not(x, out=None):
    return unary("bitwise_not", x, np.invert, None, out=out)


def isnan(x):
    return unary("isnan", x, np.isnan, None, lambda d: D.bool)


def isinf(x):
    return unary("isinf", x, np.isinf, None, lambda d: D.bool)


def isfinite(x):
    return unary("isfinite", x, np.isfinite, None, lambda d: D.bool)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None, out=None):
    if not C.dtype_of(x).is_floating_point and (out is None or out is x):
        return x if out is x else x.clone()  # ATen: integers hold no NaN/inf, nothing runs (no overlap check)
    return unary("NanToNumBackward0", x, lambda v: np.nan_to_num(v, nan=nan, posinf=posinf, neginf=neginf),
                 lambda g, x, r: g * isfinite(x), out=out, save="x")


# clamp.Tensor: ternary_pointwise.clamp_tensor, set by ternary_pointwise.install (that module builds on elementwise,
# which imports this one: an import from here would close a circle)
clamp_tensor = None


def clamp(x, min=None, max=None, out=None, _node="ClampBackward1"):  # noqa: A002
    """_node: clamp_min/clamp_max with a number bound are ops of their own in ATen (ClampMinBackward0 saving
    self and min, ClampMaxBackward0 self and max; F.normalize's clamp_min shows it). Tensor bounds are clamp.Tensor
    (ternary_pointwise.clamp_tensor)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, C.Tensor) or isinstance(max, C.Tensor):
        return clamp_tensor(x, min, max, out, {"ClampMinBackward0": "ClampMinBackward1",
                                                "ClampMaxBackward0": "ClampMaxBackward1"}.get(_node, "ClampBackward0"))
    if out is not None and out is not x:
        return O.write_out("clamp", lambda: clamp(x, min, max), [x], out)
    xdt = C.dtype_of(x)
    odt = C.result_type(x, *(v for v in (min, max) if v is not None))
    for bound in (min, max):  # the kernel's min.to<scalar_t>() in the computing dtype
        if bound is not None:
            scalar_check.check(bound, odt)
    if out is None:
        odt_final = odt
    else:
        if not O.can_cast(odt, xdt):
            raise RuntimeError(f"result type {O.scalar_name(odt)} can't be cast to the desired output type "
                               f"{O.scalar_name(xdt)}")
        odt_final = xdt

    def compute(v):
        # the bounds in the compute dtype first, as ATen casts them (uint8: -1 is 255)
        lo = None if min is None else np.asarray(min).astype(v.dtype)
        hi = None if max is None else np.asarray(max).astype(v.dtype)
        r = v
        if lo is not None:
            r = np.maximum(r, lo)
        if hi is not None:
            r = np.minimum(r, hi)
        return r if lo is None or hi is None or lo <= hi else np.full_like(v, hi)

    def grad(g, x_, r):
        mask = None
        if min is not None:
            mask = B.ge(x_, min)
        if max is not None:
            m2 = B.le(x_, max)
            mask = m2 if mask is None else B.logical_and(mask, m2)
        return g * mask
    bounds = {"ClampMinBackward0": {"min": min}, "ClampMaxBackward0": {"max": max}}.get(_node, {"min": min, "max": max})
    return unary(_node, x, compute, grad, lambda d: odt_final, out=out, save="x", extra=bounds)


def clamp_min(x, min, out=None):  # noqa: A002
    return clamp(x, min=min, out=out, _node="ClampMinBackward0")


def clamp_max(x, max, out=None):  # noqa: A002
    return clamp(x, max=max, out=out, _node="ClampMaxBackward0")

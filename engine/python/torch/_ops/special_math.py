# numpy kernels of the special pointwise functions (erfc, lgamma, digamma, trigamma, the Hurwitz zeta behind
# polygamma, sinc, logit, xlogy, hypot, logaddexp/logaddexp2), written after ATen's CPU kernels
# (aten/src/ATen/native/Math.h: calc_digamma, trigamma, zeta, calc_polygamma; cpu/UnaryOpsKernel.cpp,
# cpu/BinaryOpsKernel.cpp). ATen runs them in the tensor's own dtype, and for float32 that shows: sinc(1.0)
# is sin(pi_f) / pi_f = -2.78e-08, trigamma(-1.0) is 1.29e15 rather than inf. So each kernel does its
# arithmetic in the array's dtype, and the libm calls (sin, log, exp, ...) in float64 rounded once to that
# dtype: a correctly rounded sinf/logf, as glibc's are to within an ulp.
# Pure numpy on arrays of float32 or float64 (half and bfloat16 arrive as float32, as ATen computes them):
# nothing here knows tensors. Called inside fp_quiet (no numpy warnings).
import math

import numpy as np

_PI = math.pi


def _libm(fn, v):
    """fn (a float64 numpy ufunc) of v, rounded to v's dtype: what the C call on that type returns."""
    return fn(v.astype(np.float64)).astype(v.dtype, copy=False)


def _per_element(fn, v):
    """math.fn element by element in float64 (map in C over a list: ~60 ns an element), rounded to v's dtype
    (math.erfc / math.lgamma have no numpy ufunc)."""
    f64 = np.asarray(v, dtype=np.float64)
    res = np.fromiter(map(fn, f64.reshape(-1).tolist()), dtype=np.float64, count=f64.size)
    return res.reshape(f64.shape).astype(v.dtype, copy=False)


# ----------------------------------------------------------------------------- erfc, lgamma
def erfc(v):
    return _per_element(math.erfc, v)


def lgamma(v):
    """std::lgamma: +inf at the poles (0 and the negative integers) and at +-inf, where math.lgamma raises or
    is not asked (those elements go through as 1.0 and are replaced)."""
    pole = np.isinf(v) | ((v <= 0) & (v == np.floor(v)))
    safe = np.where(pole | np.isnan(v), v.dtype.type(1), v)
    res = _per_element(math.lgamma, safe)
    return np.where(pole, v.dtype.type(np.inf), np.where(np.isnan(v), v, res)).astype(v.dtype, copy=False)


# ----------------------------------------------------------------------------- digamma
_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma_positive(x):
    """calc_digamma for x > 0 (or NaN/inf): the recurrence up to 10, then the asymptotic series."""
    T = x.dtype.type
    x = x.copy()
    result = np.zeros_like(x)
    for _ in range(10):  # x > 0 reaches 10 in at most 10 steps (1e-30 -> 1 -> ... -> 10)
        m = x < 10
        if not m.any():
            break
        result = np.where(m, result - T(1) / x, result)
        x = np.where(m, x + T(1), x)
    z = T(1) / (x * x)
    poly = np.zeros_like(x)
    for c in _DIGAMMA_A:  # polevl(z, A, 6)
        poly = poly * z + T(c)
    y = np.where(x < T(1.0e17), z * poly, T(0))
    series = result + _libm(np.log, x) - T(0.5) / x - y
    return np.where(x == 10, result + T(_PSI_10), series)


def digamma(v):
    """calc_digamma: digamma(+-0) = -+inf (copysign(inf, -x)), NaN at the negative integers, the reflection
    digamma(1 - x) - pi / tan(pi * r) (r the fractional part, in double) for the other negatives."""
    T = v.dtype.type
    x = np.asarray(v)
    neg = x < 0
    is_int = x == np.trunc(x)
    reflect = neg & ~is_int
    y = np.where(reflect, T(1) - x, x)
    y = np.where(neg & is_int, T(1), y)  # (a placeholder; NaN below)
    res = _digamma_positive(y)
    if reflect.any():
        r = np.modf(x.astype(np.float64))[0]
        term = (_PI / np.tan(_PI * r)).astype(v.dtype)  # computed in double, cast once (the float kernel does)
        res = np.where(reflect, res - term, res)
    res = np.where(neg & is_int, T(np.nan), res)
    return np.where(x == 0, np.copysign(T(np.inf), -x), res).astype(v.dtype, copy=False)


# ----------------------------------------------------------------------------- trigamma, zeta, polygamma
def trigamma(v):
    """ATen's trigamma (polygamma(1, x)): reflection below 0.5, six recurrence steps, the asymptotic series."""
    T = v.dtype.type
    x = np.asarray(v).copy()
    low = x < T(0.5)
    result = np.zeros_like(x)
    if low.any():
        sin_pi_x = _libm(np.sin, T(_PI) * x)
        result = np.where(low, result - (T(_PI) * T(_PI)) / (sin_pi_x * sin_pi_x), result)
        x = np.where(low, T(1) - x, x)
    for _ in range(6):
        result = result + T(1) / (x * x)
        x = x + T(1)
    ixx = T(1) / (x * x)
    tail = (T(1) + T(1) / (T(2) * x) + ixx * (T(1. / 6) - ixx * (T(1. / 30) - ixx * T(1. / 42)))) / x
    result = result + tail
    return np.where(low, -result, result).astype(v.dtype, copy=False)


_MACHEP = 1.11022302462515654042E-16
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)


def zeta(x, q):
    """Hurwitz zeta(x, q) for a number x and a float64 array q (Cephes' algorithm as ATen's zeta, in double,
    which is ATen's accumulate type for float too); each element stops where ATen's loop returns."""
    q = np.asarray(q, dtype=np.float64)
    if x == 1:
        return np.full(q.shape, np.inf)
    if x < 1:
        return np.full(q.shape, np.nan)
    out = np.full(q.shape, np.nan)
    pole = (q <= 0) & (q == np.floor(q))
    out[pole] = np.inf
    active = ~pole
    if x != math.floor(x):
        active &= ~(q <= 0)  # NaN
    s = np.where(active, np.power(q, -x), 0.0)
    a = q.copy()
    b = np.zeros_like(q)
    i = 0
    while True:  # while ((i < 9) || (a <= 9.0)) { ...; if converged: return s }
        go = active & ((i < 9) | (a <= 9.0))
        if not go.any():
            break
        i += 1
        a = np.where(go, a + 1.0, a)
        b = np.where(go, np.power(a, -x), b)
        s = np.where(go, s + b, s)
        done = go & (-_MACHEP * s < b) & (b < _MACHEP * s)
        out[done] = s[done]
        active &= ~done
    w = a
    s = np.where(active, s + b * w / (x - 1.0), s)
    s = np.where(active, s - 0.5 * b, s)
    a = np.ones_like(q)
    k = 0.0
    for c in _ZETA_A:  # the Euler-Maclaurin terms
        if not active.any():
            break
        a = a * (x + k)
        b = b / w
        t = a * b / c
        s = np.where(active, s + t, s)
        done = active & (np.abs(t / s) < _MACHEP)
        out[done] = s[done]
        active &= ~done
        k += 1.0
        a = a * (x + k)
        b = b / w
        k += 1.0
    out[active] = s[active]
    return out


def polygamma(n, v):
    """polygamma_kernel: digamma for n = 0, trigamma for n = 1, else calc_polygamma:
    (-1)^(n+1) * exp(lgamma(n + 1)) * zeta(n + 1, x), the factor in the array's dtype."""
    if n == 0:
        return digamma(v)
    if n == 1:
        return trigamma(v)
    T = v.dtype.type
    lg = T(math.lgamma(n + 1.0))
    fac = T(1 if n % 2 else -1) * T(math.exp(float(lg)))
    return (fac * zeta(float(n + 1), v).astype(v.dtype)).astype(v.dtype, copy=False)


# ----------------------------------------------------------------------------- sinc, logit
def sinc(v):
    """sinc_kernel: 1 at 0, else sin(pi * x) / (pi * x) with pi * x in the array's dtype."""
    T = v.dtype.type
    product = T(_PI) * v
    return np.where(v == 0, T(1), _libm(np.sin, product) / product).astype(v.dtype, copy=False)


def logit(v, eps):
    """logit_kernel: log(x / (1 - x)) (inf at 1); with eps >= 0, x clamped to [eps, 1 - eps] first
    (x < lo ? lo : x > hi ? hi : x, so NaN stays NaN). eps None is ATen's -1 (no clamp)."""
    T = v.dtype.type
    x = v
    if eps is not None and T(eps) >= 0:
        lo = T(eps)
        hi = T(1) - lo
        x = np.where(v < lo, lo, np.where(v > hi, hi, v)).astype(v.dtype, copy=False)
    return np.where(x == 1, T(np.inf), _libm(np.log, x / (T(1) - x))).astype(v.dtype, copy=False)


def logit_backward(g, x, eps):
    """logit_backward's kernel (the backward outside create_graph): NaN outside [0, 1] (eps None) or 0
    outside [eps, 1 - eps], dy * inf at 0 and 1, else dy / (x * (1 - x))."""
    T = x.dtype.type
    inner = np.where((x == 0) | (x == 1), g * T(np.inf), g / (x * (T(1) - x)))
    if eps is None or T(eps) < 0:
        return np.where((x < 0) | (x > 1), T(np.nan), inner).astype(x.dtype, copy=False)
    lo = T(eps)
    hi = T(1) - lo
    return np.where((x < lo) | (x > hi), T(0), inner).astype(x.dtype, copy=False)


# ----------------------------------------------------------------------------- binary
def xlogy(x, y):
    """xlogy_kernel: NaN where y is NaN, 0 where x == 0, else x * log(y)."""
    T = x.dtype.type
    r = x * _libm(np.log, np.broadcast_to(y, np.broadcast(x, y).shape))
    return np.where(np.isnan(y), T(np.nan), np.where(x == 0, T(0), r)).astype(x.dtype, copy=False)


def hypot(a, b):
    return np.hypot(a, b)


def _log_add(a, b, exp_fn, scale):
    """logaddexp(2)_kernel: a where both are the same infinity, else max(a, b) + log1p(exp(-|a - b|))
    (* 1/ln 2 for base 2); std::max(a, b) keeps a unless a < b."""
    T = a.dtype.type
    m = np.where(a < b, b, a)
    tail = _libm(np.log1p, _libm(exp_fn, -np.abs(a - b)))
    if scale is not None:
        tail = tail * T(scale)
    return np.where(np.isinf(a) & (a == b), a, m + tail).astype(a.dtype, copy=False)


def logaddexp(a, b):
    return _log_add(a, b, np.exp, None)


def logaddexp2(a, b):
    return _log_add(a, b, np.exp2, 1.0 / math.log(2.0))

# The float32 log and sincos of ATen's avx_mathfun.h (Cephes polynomials, Pommier's SSE port), which
# torch.randn's AVX2 Box-Muller (normal_fill_16_AVX2) uses instead of libm: emulated operation by operation in
# numpy float32 so that DeviceScope's random normals are PyTorch's bit for bit. The AVX2 kernels are compiled
# with FMA and GCC contracts each multiply feeding an add into one fused multiply-add; `_fma` reproduces that
# (a float32 product is exact in float64, so one float64 add and a rounding to float32 give the fused result
# except in double-rounding ties, about one in 2^29). Checked against torch 1.13 on 262,144 draws.
import numpy as np

_F = np.float32
_LOG_P = [_F(v) for v in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                          1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1)]
_MIN_NORM_POS = np.array(0x00800000, dtype=np.int32).view(_F)
_HALF_BITS = np.array(0.5, dtype=_F).view(np.int32)


def _fma(a, b, c):
    return (np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)).astype(_F)


def log256(x):
    """log256_ps: natural log of float32 values (NaN for x <= 0)."""
    x = np.asarray(x, dtype=_F)
    invalid = x <= 0
    x = np.maximum(x, _MIN_NORM_POS)
    bits = x.view(np.int32)
    exponent = (bits.view(np.uint32) >> 23).astype(np.int32)
    x = ((bits & np.int32(~0x7f800000)) | _HALF_BITS).view(_F)  # the mantissa, in [0.5, 1)
    e = (exponent - 0x7f).astype(_F) + _F(1)
    below = x < _F(0.707106781186547524)
    tmp = np.where(below, x, _F(0))
    x = x - _F(1)
    e = e - np.where(below, _F(1), _F(0))
    x = x + tmp
    z = x * x
    y = np.full_like(x, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = _fma(y, x, p)
    y = y * x
    y = _fma(y, z, e * _F(-2.12194440e-4))
    y = _fma(z, _F(-0.5), y)
    x = x + y
    x = _fma(e, _F(0.693359375), x)
    return np.where(invalid, _F(np.nan), x)


def sincos256(x):
    """sincos256_ps: (sin, cos) of float32 values."""
    x = np.asarray(x, dtype=_F)
    sign_sin = x.view(np.int32) & np.int32(-0x80000000)
    x = np.abs(x)
    j = (x * _F(1.27323954473516)).astype(np.int32)  # scale by 4/pi, truncate (cvttps)
    j = (j + 1) & ~1
    y = j.astype(_F)
    swap_sign_sin = (j & 4) << 29
    poly_mask = (j & 2) == 0
    # extended precision modular arithmetic: x = ((x - y * DP1) - y * DP2) - y * DP3
    x = _fma(y, _F(-0.78515625), x)
    x = _fma(y, _F(-2.4187564849853515625e-4), x)
    x = _fma(y, _F(-3.77489497744594108e-8), x)
    sign_cos = ((~(j - 2)) & 4) << 29
    sign_sin = sign_sin ^ swap_sign_sin
    z = x * x
    y = np.full_like(x, _F(2.443315711809948E-005))  # cosine polynomial, 0 <= x <= pi/4
    y = _fma(y, z, _F(-1.388731625493765E-003))
    y = _fma(y, z, _F(4.166664568298827E-002))
    y = y * z
    y = _fma(y, z, -(z * _F(0.5)))
    y = y + _F(1)
    y2 = np.full_like(x, _F(-1.9515295891E-4))  # sine polynomial
    y2 = _fma(y2, z, _F(8.3321608736E-3))
    y2 = _fma(y2, z, _F(-1.6666654611E-1))
    y2 = y2 * z
    y2 = _fma(y2, x, x)
    ysin2 = np.where(poly_mask, y2, _F(0))
    ysin1 = np.where(poly_mask, _F(0), y)
    y2 = y2 - ysin2
    y = y - ysin1
    s = ((ysin1 + ysin2).view(np.int32) ^ sign_sin.astype(np.int32)).view(_F)
    c = ((y + y2).view(np.int32) ^ sign_cos.astype(np.int32)).view(_F)
    return s, c

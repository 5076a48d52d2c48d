// torch.randn's float32 Box-Muller (ATen's normal_fill_16_AVX2 with avx_mathfun.h's log256_ps / sincos256_ps) in
// C++, operation for operation as torch/_avx_mathfun.py and torch/_cpu_sampling.py's _block16_avx2 emulate it in
// numpy: the same float32 ops in the same order, and each fused multiply-add as that emulation computes it (the
// float32 product exact in double, one double add, one rounding to float32). numpy spent ~40 passes over the
// tensor with a temporary each (torch.randn of 2.4M floats: 0.4 s against PyTorch's 0.02 s: cifar10_cnn's
// synthetic images; now ~0.06 s). Nothing here is contracted into FMA behind the emulation's back:
// fp-contract=off, and the AVX2 clone has no FMA anyway (-mavx2 does not imply -mfma).
// DEVICESCOPE_NO_FAST_OPS=1 keeps the numpy path (torch/_cpu_sampling.py); the agreement test
// tests/fastpath/random_normal.py compares the two bit for bit (and its values are real PyTorch's).
#include <pybind11/numpy.h>

// The kernel's helpers take and return 32-byte vectors: always inlined, so no call ABI is involved (GCC warns
// about the AVX ABI at the end of the file, where a push/pop would not reach).
#pragma GCC diagnostic ignored "-Wpsabi"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "bindings_common.h"

namespace ds::python {
namespace {

// The kernel's options (to the pop below): -O3, sqrt without errno (its argument -2 log(u1) is never negative) so
// that it can be a vector instruction, no contraction into FMA.
#pragma GCC push_options
#pragma GCC optimize("O3", "no-math-errno", "no-trapping-math", "fp-contract=off")

// Eight lanes at a time in GCC vector types (element-wise IEEE float32/float64 ops, like the AVX2 kernel's
// registers; the compiler's auto-vectorizer gave up on this loop's selects).
typedef float f8 __attribute__((vector_size(32)));
typedef int32_t i8 __attribute__((vector_size(32)));
typedef uint32_t u8 __attribute__((vector_size(32)));
typedef double d8 __attribute__((vector_size(64)));

inline __attribute__((always_inline)) i8 bits_of(const f8& v) { return reinterpret_cast<const i8&>(v); }
inline __attribute__((always_inline)) f8 float_of(const i8& b) { return reinterpret_cast<const f8&>(b); }
inline __attribute__((always_inline)) f8 splat(float v) { return f8{v, v, v, v, v, v, v, v}; }

// _avx_mathfun._fma: a * b + c with the product exact in double, one double add, then float32.
inline __attribute__((always_inline)) f8 fma_emulated(const f8& a, const f8& b, const f8& c) {
  return __builtin_convertvector(__builtin_convertvector(a, d8) * __builtin_convertvector(b, d8) +
                                     __builtin_convertvector(c, d8),
                                 f8);
}

// The constants as numpy makes them: the Python (double) literal rounded to float32.
const float kLogP[9] = {float(7.0376836292E-2),  float(-1.1514610310E-1), float(1.1676998740E-1),
                        float(-1.2420140846E-1), float(1.4249322787E-1),  float(-1.6668057665E-1),
                        float(2.0000714765E-1),  float(-2.4999993993E-1), float(3.3333331174E-1)};

// _avx_mathfun.log256 (the Box-Muller's 1 - u lies in (0, 1]: never the invalid branch's NaN, kept for
// fidelity to the function).
inline __attribute__((always_inline)) f8 log256(const f8& x_in) {
  f8 x = x_in;
  const i8 invalid = x <= splat(0.0f);
  const f8 min_norm = float_of(i8{} + 0x00800000);
  x = x != x ? x : (x < min_norm ? min_norm : x);  // np.maximum (NaN propagates)
  const i8 bits = bits_of(x);
  const i8 exponent = i8(u8(bits) >> 23);
  x = float_of((bits & int32_t(~0x7f800000)) | (i8{} + 0x3f000000));  // | the bits of 0.5
  f8 e = __builtin_convertvector(exponent - 0x7f, f8) + 1.0f;
  const i8 below = x < splat(float(0.707106781186547524));
  const f8 tmp = below ? x : splat(0.0f);
  x = x - 1.0f;
  e = e - (below ? splat(1.0f) : splat(0.0f));
  x = x + tmp;
  const f8 z = x * x;
  f8 y = splat(kLogP[0]);
  for (int i = 1; i < 9; ++i) y = fma_emulated(y, x, splat(kLogP[i]));
  y = y * x;
  y = fma_emulated(y, z, e * float(-2.12194440e-4));
  y = fma_emulated(z, splat(-0.5f), y);
  x = x + y;
  x = fma_emulated(e, splat(0.693359375f), x);
  return invalid ? float_of(i8{} + 0x7fc00000) : x;
}

// _avx_mathfun.sincos256.
inline __attribute__((always_inline)) void sincos256(const f8& x_in, f8& s, f8& c) {
  f8 x = x_in;
  i8 sign_sin = bits_of(x) & int32_t(0x80000000u);
  x = float_of(bits_of(x) & 0x7fffffff);  // fabs
  i8 j = __builtin_convertvector(x * float(1.27323954473516), i8);  // truncation, as astype(int32)
  j = (j + 1) & ~1;
  f8 y = __builtin_convertvector(j, f8);
  const i8 swap_sign_sin = i8(u8(j & 4) << 29);
  const i8 poly_mask = (j & 2) == 0;
  x = fma_emulated(y, splat(-0.78515625f), x);
  x = fma_emulated(y, splat(float(-2.4187564849853515625e-4)), x);
  x = fma_emulated(y, splat(float(-3.77489497744594108e-8)), x);
  const i8 sign_cos = i8(u8((~(j - 2)) & 4) << 29);
  sign_sin ^= swap_sign_sin;
  const f8 z = x * x;
  y = splat(float(2.443315711809948E-005));
  y = fma_emulated(y, z, splat(float(-1.388731625493765E-003)));
  y = fma_emulated(y, z, splat(float(4.166664568298827E-002)));
  y = y * z;
  y = fma_emulated(y, z, -(z * 0.5f));
  y = y + 1.0f;
  f8 y2 = splat(float(-1.9515295891E-4));
  y2 = fma_emulated(y2, z, splat(float(8.3321608736E-3)));
  y2 = fma_emulated(y2, z, splat(float(-1.6666654611E-1)));
  y2 = y2 * z;
  y2 = fma_emulated(y2, x, x);
  const f8 ysin2 = poly_mask ? y2 : splat(0.0f);
  const f8 ysin1 = poly_mask ? splat(0.0f) : y;
  y2 = y2 - ysin2;
  y = y - ysin1;
  s = float_of(bits_of(ysin1 + ysin2) ^ sign_sin);
  c = float_of(bits_of(y + y2) ^ sign_cos);
}

// _cpu_sampling._block16_avx2 over m rows of 16 uniforms (float32, C order): u1 = 1 - row[:8], u2 = row[8:],
// radius = sqrt(-2 log u1), (sin, cos) of 2 pi u2; the row becomes [radius cos, radius sin] * std + mean, each
// product rounded to float32, then scaled in double and rounded once more.
__attribute__((target_clones("avx2", "default"))) void normal_rows(const float* in, float* o, int64_t m,
                                                                   double mean64, double std64) {
  const f8 two_pi = splat(float(2.0 * M_PI));
  const d8 mean8 = d8{} + mean64, std8 = d8{} + std64;
  for (int64_t r = 0; r < m; ++r) {
    f8 u1, u2;
    std::memcpy(&u1, in + r * 16, sizeof u1);
    std::memcpy(&u2, in + r * 16 + 8, sizeof u2);
    const f8 r2 = splat(-2.0f) * log256(splat(1.0f) - u1);
    alignas(32) float lanes[8];
    std::memcpy(lanes, &r2, sizeof lanes);
    for (int k = 0; k < 8; ++k) lanes[k] = __builtin_sqrtf(lanes[k]);  // one vsqrtps
    f8 radius;
    std::memcpy(&radius, lanes, sizeof radius);
    f8 s, c;
    sincos256(two_pi * u2, s, c);
    const f8 n1 = __builtin_convertvector(__builtin_convertvector(radius * c, d8) * std8 + mean8, f8);
    const f8 n2 = __builtin_convertvector(__builtin_convertvector(radius * s, d8) * std8 + mean8, f8);
    std::memcpy(o + r * 16, &n1, sizeof n1);
    std::memcpy(o + r * 16 + 8, &n2, sizeof n2);
  }
}

#pragma GCC pop_options

py::array_t<float> normal_block16(const py::array_t<float, py::array::c_style | py::array::forcecast>& blocks,
                                  double mean, double std_) {
  if (blocks.ndim() != 2 || blocks.shape(1) != 16) throw py::value_error("normal_block16: expected (m, 16) uniforms");
  const int64_t m = blocks.shape(0);
  py::array_t<float> out({py::ssize_t(m), py::ssize_t(16)});
  normal_rows(blocks.data(), out.mutable_data(), m, double(float(mean)), double(float(std_)));
  return out;
}

// The CPU generator's uniform draws (torch/_mt19937.py, torch/_cpu_sampling.py's uniform_real): numpy's MT19937
// (mt19937.c: the same 624-word state, regenerated when pos reaches 624, the same tempering) stepped here from the
// state numpy holds, which the caller puts back. Each value is (draw & (2^digits - 1)) * 2^-digits in double, one
// 32-bit draw each, two for 53 digits (the first one the high half, as random64()). numpy's random_raw plus the
// combining, masking and converting passes cost ~0.7 s for profiler_module_tutorial's 12.5M doubles.
constexpr int kMtN = 624, kMtM = 397;

void mt_regenerate(uint32_t* key) {
  auto twist = [](uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);
    return c ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
  };
  int i = 0;
  for (; i < kMtN - kMtM; ++i) key[i] = twist(key[i], key[i + 1], key[i + kMtM]);
  for (; i < kMtN - 1; ++i) key[i] = twist(key[i], key[i + 1], key[i + kMtM - kMtN]);
  key[kMtN - 1] = twist(key[kMtN - 1], key[0], key[kMtM - 1]);
}

py::tuple mt19937_unit(py::array_t<uint32_t, py::array::c_style | py::array::forcecast> key_arr, int64_t pos, int64_t n, int digits) {
  if (key_arr.ndim() != 1 || key_arr.shape(0) != kMtN || pos < 0 || pos > kMtN || n < 0 || digits < 1 ||
      digits > 53 || (digits > 32 && digits != 53))
    throw py::value_error("mt19937_unit: expected a 624-word key, 0 <= pos <= 624, n >= 0, digits <= 32 or 53");
  uint32_t* key = key_arr.mutable_data();
  py::array_t<double> out(py::ssize_t{n});
  double* o = out.mutable_data();
  int p = int(pos);
  auto next = [&]() {
    if (p == kMtN) {
      mt_regenerate(key);
      p = 0;
    }
    uint32_t y = key[p++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  };
  const double unit = std::ldexp(1.0, -digits);
  if (digits == 53) {
    const uint64_t mask = (uint64_t(1) << 53) - 1;
    for (int64_t k = 0; k < n; ++k) {
      const uint64_t hi = next();
      const uint64_t v = (hi << 32) | next();
      o[k] = double(v & mask) * unit;
    }
  } else {
    const uint32_t mask = digits == 32 ? 0xffffffffu : (uint32_t(1) << digits) - 1;
    for (int64_t k = 0; k < n; ++k) o[k] = double(next() & mask) * unit;
  }
  // (the key as stepped is returned: a converted argument would have been a copy)
  return py::make_tuple(out, p, key_arr);
}

}  // namespace

void bind_sampling(py::module_& m) {
  m.def("normal_block16", &normal_block16, py::arg("blocks"), py::arg("mean"), py::arg("std"));
  m.def("mt19937_unit", &mt19937_unit, py::arg("key"), py::arg("pos"), py::arg("n"), py::arg("digits"));
}

}  // namespace ds::python

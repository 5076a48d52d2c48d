// Typed loops for the elementwise fast path. Integer arithmetic goes through the unsigned type so that
// overflow wraps (as in PyTorch) instead of being undefined behaviour.
#include <cmath>
#include "tensor/elementwise_kernels.h"

#include <functional>
#include <type_traits>

namespace ds {
namespace {

template <typename T>
T scalar_of(const KernelInput& in) {
  if constexpr (std::is_floating_point_v<T>) return T(in.fscalar);
  else if constexpr (std::is_same_v<T, bool>) return in.iscalar != 0;
  else return T(in.iscalar);
}

// Calls f(i, offset_a, offset_b) for every output element i in row-major order, with each input's
// element offset from its strides (an odometer over the output shape; the last dim runs innermost).
template <typename F>
void for_each_strided(const Shape& sizes, const Shape& sa, const Shape& sb, F&& f) {
  const size_t nd = sizes.size();
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  if (numel == 0) return;
  if (nd == 0) {
    f(0, 0, 0);
    return;
  }
  std::vector<int64_t> index(nd, 0);
  const int64_t inner = sizes[nd - 1], ia = sa[nd - 1], ib = sb[nd - 1];
  int64_t oa = 0, ob = 0;
  for (int64_t i = 0; i < numel;) {
    for (int64_t k = 0; k < inner; ++k, ++i) f(i, oa + k * ia, ob + k * ib);
    // carry into the outer dims
    for (size_t d = nd - 1; d-- > 0;) {
      ++index[d];
      oa += sa[d];
      ob += sb[d];
      if (index[d] < sizes[d]) break;
      oa -= sa[d] * sizes[d];
      ob -= sb[d] * sizes[d];
      index[d] = 0;
    }
  }
}

bool dense_like_output(const KernelInput& in, const Shape& sizes) {
  if (!in.data) return true;  // a scalar
  int64_t expect = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    if (sizes[d] != 1 && in.strides[d] != expect) return false;
    expect *= sizes[d];
  }
  return true;
}

template <typename T, typename Op, typename R = T>
void run_binary(const Shape& sizes, void* out_v, const KernelInput& a, const KernelInput& b, Op op) {
  R* out = static_cast<R*>(out_v);
  const T* pa = static_cast<const T*>(a.data);
  const T* pb = static_cast<const T*>(b.data);
  const T ca = scalar_of<T>(a), cb = scalar_of<T>(b);
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  if (dense_like_output(a, sizes) && dense_like_output(b, sizes)) {
    // The common case (same-shape contiguous operands, or a scalar): flat loops the compiler vectorizes.
    // In place (out is a): one pointer for both, so the vectorizer's alias check concerns b alone.
    T* self = std::is_same_v<T, R> ? reinterpret_cast<T*>(out) : nullptr;
    if (pa == self && pb) for (int64_t i = 0; i < numel; ++i) out[i] = op(self[i], pb[i]);
    else if (pa == self) for (int64_t i = 0; i < numel; ++i) out[i] = op(self[i], cb);
    else if (pa && pb) for (int64_t i = 0; i < numel; ++i) out[i] = op(pa[i], pb[i]);
    else if (pa) for (int64_t i = 0; i < numel; ++i) out[i] = op(pa[i], cb);
    else if (pb) for (int64_t i = 0; i < numel; ++i) out[i] = op(ca, pb[i]);
    else for (int64_t i = 0; i < numel; ++i) out[i] = op(ca, cb);
    return;
  }
  const Shape zeros(sizes.size(), 0);
  for_each_strided(sizes, pa ? a.strides : zeros, pb ? b.strides : zeros, [&](int64_t i, int64_t oa, int64_t ob) {
    out[i] = op(pa ? pa[oa] : ca, pb ? pb[ob] : cb);
  });
}

// Comparisons in the operands' dtype, bool out (NaN compares false except with !=, as in IEEE).
template <typename T>
void compare_typed(BinaryKind op, const Shape& sizes, void* out, const KernelInput& a, const KernelInput& b) {
  switch (op) {
    case BinaryKind::Eq: run_binary<T, std::equal_to<T>, bool>(sizes, out, a, b, {}); break;
    case BinaryKind::Ne: run_binary<T, std::not_equal_to<T>, bool>(sizes, out, a, b, {}); break;
    case BinaryKind::Lt: run_binary<T, std::less<T>, bool>(sizes, out, a, b, {}); break;
    case BinaryKind::Le: run_binary<T, std::less_equal<T>, bool>(sizes, out, a, b, {}); break;
    case BinaryKind::Gt: run_binary<T, std::greater<T>, bool>(sizes, out, a, b, {}); break;
    case BinaryKind::Ge: run_binary<T, std::greater_equal<T>, bool>(sizes, out, a, b, {}); break;
    default: break;
  }
}

template <typename T>
void binary_typed(BinaryKind op, const Shape& sizes, void* out, const KernelInput& a, const KernelInput& b,
                  double falpha, int64_t ialpha) {
  if (is_comparison(op)) {
    compare_typed<T>(op, sizes, out, a, b);
    return;
  }
  if constexpr (std::is_same_v<T, bool>) {
    // Only Add (or) and Mul (and) reach here for bool; alpha is 1.
    if (op == BinaryKind::Mul) run_binary<T>(sizes, out, a, b, [](bool x, bool y) { return x && y; });
    else run_binary<T>(sizes, out, a, b, [](bool x, bool y) { return x || y; });
  } else if constexpr (std::is_floating_point_v<T>) {
    // x + y * alpha rounds the product first (no fused multiply-add), as the numpy path did.
    const T alpha = T(falpha);
    switch (op) {
      case BinaryKind::Add:
        if (alpha == T(1)) run_binary<T>(sizes, out, a, b, [](T x, T y) { return x + y; });
        else run_binary<T>(sizes, out, a, b, [alpha](T x, T y) { return x + T(y * alpha); });
        break;
      case BinaryKind::Sub:
        if (alpha == T(1)) run_binary<T>(sizes, out, a, b, [](T x, T y) { return x - y; });
        else run_binary<T>(sizes, out, a, b, [alpha](T x, T y) { return x - T(y * alpha); });
        break;
      case BinaryKind::Mul: run_binary<T>(sizes, out, a, b, [](T x, T y) { return x * y; }); break;
      case BinaryKind::Div: run_binary<T>(sizes, out, a, b, [](T x, T y) { return x / y; }); break;
      default: break;
    }
  } else {
    using U = std::make_unsigned_t<T>;
    const U alpha = U(T(ialpha));
    switch (op) {
      case BinaryKind::Add: run_binary<T>(sizes, out, a, b, [alpha](T x, T y) { return T(U(x) + U(y) * alpha); }); break;
      case BinaryKind::Sub: run_binary<T>(sizes, out, a, b, [alpha](T x, T y) { return T(U(x) - U(y) * alpha); }); break;
      case BinaryKind::Mul: run_binary<T>(sizes, out, a, b, [](T x, T y) { return T(U(x) * U(y)); }); break;
      default: break;  // integer true division promotes to float: never a fast-path case
    }
  }
}

template <typename T>
void unary_typed(UnaryKind op, int64_t n, void* out_v, const void* x_v) {
  T* out = static_cast<T*>(out_v);
  const T* x = static_cast<const T*>(x_v);
  if constexpr (std::is_same_v<T, bool>) {
    return;  // relu and neg of bool tensors raise in PyTorch: never a fast-path case
  } else if constexpr (std::is_floating_point_v<T>) {
    // relu keeps NaN and -0.0 (clamp_min: only values below zero become zero)
    switch (op) {
      case UnaryKind::Relu: for (int64_t i = 0; i < n; ++i) out[i] = x[i] < T(0) ? T(0) : x[i]; break;
      case UnaryKind::Neg: for (int64_t i = 0; i < n; ++i) out[i] = -x[i]; break;
      case UnaryKind::Tanh: for (int64_t i = 0; i < n; ++i) out[i] = T(std::tanh(double(x[i]))); break;
      case UnaryKind::Exp: for (int64_t i = 0; i < n; ++i) out[i] = T(std::exp(double(x[i]))); break;
      case UnaryKind::Abs: for (int64_t i = 0; i < n; ++i) out[i] = std::fabs(x[i]); break;
      case UnaryKind::Sqrt: for (int64_t i = 0; i < n; ++i) out[i] = T(std::sqrt(double(x[i]))); break;
      case UnaryKind::Sigmoid:
        // unary.py _sigmoid_np: exp(-|v|) on either side of 0, so neither branch overflows
        for (int64_t i = 0; i < n; ++i) {
          const double v = double(x[i]), e = std::exp(-std::fabs(v));
          out[i] = T(v >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e));
        }
        break;
    }
  } else {
    using U = std::make_unsigned_t<T>;
    if (op == UnaryKind::Relu) for (int64_t i = 0; i < n; ++i) out[i] = x[i] < T(0) ? T(0) : x[i];
    else for (int64_t i = 0; i < n; ++i) out[i] = T(U(0) - U(x[i]));
  }
}

}  // namespace

bool elementwise_kernel_dtype(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Int64 || t == DType::Int32 || t == DType::Bool;
}

void binary_kernel(BinaryKind op, DType dtype, const Shape& sizes, void* out, const KernelInput& a,
                   const KernelInput& b, double falpha, int64_t ialpha) {
  switch (dtype) {
    case DType::Float32: binary_typed<float>(op, sizes, out, a, b, falpha, ialpha); break;
    case DType::Float64: binary_typed<double>(op, sizes, out, a, b, falpha, ialpha); break;
    case DType::Int64: binary_typed<int64_t>(op, sizes, out, a, b, falpha, ialpha); break;
    case DType::Int32: binary_typed<int32_t>(op, sizes, out, a, b, falpha, ialpha); break;
    case DType::Bool: binary_typed<bool>(op, sizes, out, a, b, falpha, ialpha); break;
    default: break;
  }
}

void unary_kernel(UnaryKind op, DType dtype, int64_t numel, void* out, const void* x) {
  switch (dtype) {
    case DType::Float32: unary_typed<float>(op, numel, out, x); break;
    case DType::Float64: unary_typed<double>(op, numel, out, x); break;
    case DType::Int64: unary_typed<int64_t>(op, numel, out, x); break;
    case DType::Int32: unary_typed<int32_t>(op, numel, out, x); break;
    default: break;
  }
}

}  // namespace ds

// ATen's normalization formulas (aten/src/ATen/native/cpu/layer_norm_kernel.cpp, Normalization.cpp's
// batch_norm_cpu_* templates, cpu/group_norm_kernel.cpp), one row / channel / group at a time.
#include "tensor/norm_kernels.h"

#include <algorithm>
#include <cmath>

namespace ds {
namespace {

// Sums in double over kLanes independent chains: one chain of dependent adds runs at the add's latency,
// kLanes of them at its throughput, and the compiler turns the lanes into vector adds (which it may not do
// for a single chain: that would reorder the sum). The lanes are added together at the end.
constexpr int kLanes = 8;

template <typename T>
double lane_sum(const T* x, int64_t n) {
  double acc[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int q = 0; q < kLanes; ++q) acc[q] += double(x[i + q]);
  for (; i < n; ++i) acc[0] += double(x[i]);
  double s = 0;
  for (double a : acc) s += a;
  return s;
}

template <typename T>
double lane_sq_dev(const T* x, int64_t n, double mean) {
  double acc[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int q = 0; q < kLanes; ++q) {
      const double d = double(x[i + q]) - mean;
      acc[q] += d * d;
    }
  for (; i < n; ++i) {
    const double d = double(x[i]) - mean;
    acc[0] += d * d;
  }
  double s = 0;
  for (double a : acc) s += a;
  return s;
}

// sum += sum(dy), dot += sum((x - mu) * dy), each over lanes as above.
template <typename T>
void lane_sum_dot(const T* dy, const T* x, int64_t n, double mu, double& sum, double& dot) {
  double as[kLanes] = {}, ad[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int q = 0; q < kLanes; ++q) {
      as[q] += double(dy[i + q]);
      ad[q] += (double(x[i + q]) - mu) * double(dy[i + q]);
    }
  for (; i < n; ++i) {
    as[0] += double(dy[i]);
    ad[0] += (double(x[i]) - mu) * double(dy[i]);
  }
  for (int q = 0; q < kLanes; ++q) {
    sum += as[q];
    dot += ad[q];
  }
}

// Mean and biased variance of `count` values spread as `blocks` runs of `run` elements `stride` apart
// (a channel of (N, C, S) is N runs of S), two-pass in double.
template <typename T>
void moments(const T* x, int64_t blocks, int64_t run, int64_t stride, double& mean, double& var) {
  const double count = double(blocks * run);
  double s = 0;
  for (int64_t b = 0; b < blocks; ++b) s += lane_sum(x + b * stride, run);
  mean = count > 0 ? s / count : 0;
  double q = 0;
  for (int64_t b = 0; b < blocks; ++b) q += lane_sq_dev(x + b * stride, run, mean);
  var = count > 0 ? q / count : 0;
}

}  // namespace

template <typename T>
void layer_norm_forward(int64_t m, int64_t n, const T* x, const T* weight, const T* bias, double eps, T* y, T* mean,
                        T* rstd) {
  for (int64_t r = 0; r < m; ++r) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    double mu, var;
    moments(xr, 1, n, n, mu, var);
    const double rs = 1.0 / std::sqrt(std::max(var, 0.0) + eps);
    for (int64_t j = 0; j < n; ++j) {
      double v = (double(xr[j]) - mu) * rs;
      if (weight) v *= double(weight[j]);
      if (bias) v += double(bias[j]);
      yr[j] = T(v);
    }
    mean[r] = T(mu);
    rstd[r] = T(rs);
  }
}

template <typename T>
void layer_norm_backward(int64_t m, int64_t n, const T* dy, const T* x, const T* mean, const T* rstd, const T* weight,
                         T* dx, T* dweight, T* dbias) {
  if (dweight) std::fill(dweight, dweight + n, T(0));
  if (dbias) std::fill(dbias, dbias + n, T(0));
  const double scale = n > 0 ? 1.0 / double(n) : 0;
  for (int64_t r = 0; r < m; ++r) {
    const T* xr = x + r * n;
    const T* dyr = dy + r * n;
    const double mu = mean[r], a = rstd[r];
    if (dx) {
      double ds = 0, db = 0;
      for (int64_t j = 0; j < n; ++j) {
        const double gdy = double(dyr[j]) * (weight ? double(weight[j]) : 1.0);
        ds += gdy * double(xr[j]);
        db += gdy;
      }
      const double b = (db * mu - ds) * a * a * a * scale;
      const double c = -b * mu - db * a * scale;
      T* dxr = dx + r * n;
      for (int64_t j = 0; j < n; ++j)
        dxr[j] = T(a * double(dyr[j]) * (weight ? double(weight[j]) : 1.0) + b * double(xr[j]) + c);
    }
    for (int64_t j = 0; j < n; ++j) {
      if (dweight) dweight[j] += T(double(dyr[j]) * (double(xr[j]) - mu) * a);
      if (dbias) dbias[j] += dyr[j];
    }
  }
}

template <typename T>
void batch_norm_forward(int64_t n, int64_t c, int64_t s, const T* x, const T* weight, const T* bias, T* running_mean,
                        T* running_var, bool training, double momentum, double eps, T* y, T* save_mean,
                        T* save_invstd) {
  const int64_t count = n * s;
  for (int64_t ch = 0; ch < c; ++ch) {
    const T* xc = x + ch * s;
    double mu, invstd;
    if (training) {
      double var;
      moments(xc, n, s, c * s, mu, var);
      invstd = 1.0 / std::sqrt(var + eps);
      save_mean[ch] = T(mu);
      save_invstd[ch] = T(invstd);
      if (running_mean) running_mean[ch] = T(momentum * mu + (1 - momentum) * double(running_mean[ch]));
      if (running_var) {
        const double unbiased = count > 1 ? var * double(count) / double(count - 1) : var;
        running_var[ch] = T(momentum * unbiased + (1 - momentum) * double(running_var[ch]));
      }
    } else {
      mu = running_mean[ch];
      invstd = 1.0 / std::sqrt(double(running_var[ch]) + eps);
    }
    const double w = weight ? double(weight[ch]) : 1.0, b = bias ? double(bias[ch]) : 0.0;
    const double k = invstd * w, off = b - mu * k;  // y = x * k + off
    for (int64_t i = 0; i < n; ++i) {
      const T* xi = xc + i * c * s;
      T* yi = y + ch * s + i * c * s;
      for (int64_t j = 0; j < s; ++j) yi[j] = T(double(xi[j]) * k + off);
    }
  }
}

template <typename T>
void batch_norm_backward(int64_t n, int64_t c, int64_t s, const T* dy, const T* x, const T* weight,
                         const T* running_mean, const T* running_var, const T* save_mean, const T* save_invstd,
                         bool training, double eps, T* dx, T* dweight, T* dbias) {
  const double count = double(n * s);
  for (int64_t ch = 0; ch < c; ++ch) {
    const double mu = training ? double(save_mean[ch]) : double(running_mean[ch]);
    const double invstd = training ? double(save_invstd[ch]) : 1.0 / std::sqrt(double(running_var[ch]) + eps);
    double sum = 0, dot = 0;
    for (int64_t i = 0; i < n; ++i) lane_sum_dot(dy + (i * c + ch) * s, x + (i * c + ch) * s, s, mu, sum, dot);
    const double w = weight ? double(weight[ch]) : 1.0;
    if (dx) {
      for (int64_t i = 0; i < n; ++i) {
        const T* xi = x + (i * c + ch) * s;
        const T* dyi = dy + (i * c + ch) * s;
        T* dxi = dx + (i * c + ch) * s;
        if (training) {
          const double k = dot * invstd * invstd / count, grad_mean = sum / count;
          for (int64_t j = 0; j < s; ++j)
            dxi[j] = T((double(dyi[j]) - grad_mean - (double(xi[j]) - mu) * k) * invstd * w);
        } else {
          for (int64_t j = 0; j < s; ++j) dxi[j] = T(double(dyi[j]) * invstd * w);
        }
      }
    }
    if (dweight) dweight[ch] = T(dot * invstd);
    if (dbias) dbias[ch] = T(sum);
  }
}

template <typename T>
void group_norm_forward(int64_t n, int64_t c, int64_t s, int64_t groups, const T* x, const T* weight, const T* bias,
                        double eps, T* y, T* mean, T* rstd) {
  const int64_t d = c / groups;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t off = (i * c + g * d) * s;
      double mu, var;
      moments(x + off, 1, d * s, d * s, mu, var);
      const double rs = 1.0 / std::sqrt(std::max(var, 0.0) + eps);
      mean[i * groups + g] = T(mu);
      rstd[i * groups + g] = T(rs);
      for (int64_t k = 0; k < d; ++k) {
        const int64_t ch = g * d + k;
        const double sc = rs * (weight ? double(weight[ch]) : 1.0);
        const double sh = (bias ? double(bias[ch]) : 0.0) - mu * sc;
        const T* xk = x + off + k * s;
        T* yk = y + off + k * s;
        for (int64_t j = 0; j < s; ++j) yk[j] = T(double(xk[j]) * sc + sh);
      }
    }
  }
}

template <typename T>
void group_norm_backward(int64_t n, int64_t c, int64_t s, int64_t groups, const T* dy, const T* x, const T* mean,
                         const T* rstd, const T* weight, T* ds_buf, T* db_buf, T* dx, T* dweight, T* dbias) {
  const int64_t d = c / groups;
  for (int64_t i = 0; i < n * c; ++i) {
    double a = 0, b = 0;
    for (int64_t j = 0; j < s; ++j) {
      a += double(dy[i * s + j]) * double(x[i * s + j]);
      b += dy[i * s + j];
    }
    ds_buf[i] = T(a);
    db_buf[i] = T(b);
  }
  if (dx) {
    const double scale = 1.0 / double(d * s);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t g = 0; g < groups; ++g) {
        const double mu = mean[i * groups + g], rs = rstd[i * groups + g];
        double dsv = 0, dbv = 0;
        for (int64_t k = 0; k < d; ++k) {
          const int64_t ch = g * d + k;
          const double gamma = weight ? double(weight[ch]) : 1.0;
          dsv += double(ds_buf[i * c + ch]) * gamma;
          dbv += double(db_buf[i * c + ch]) * gamma;
        }
        const double c2 = (dbv * mu - dsv) * rs * rs * rs * scale;
        const double c3 = -c2 * mu - dbv * rs * scale;
        for (int64_t k = 0; k < d; ++k) {
          const int64_t ch = g * d + k;
          const double c1 = rs * (weight ? double(weight[ch]) : 1.0);
          const int64_t off = (i * c + ch) * s;
          for (int64_t j = 0; j < s; ++j) dx[off + j] = T(c1 * double(dy[off + j]) + c2 * double(x[off + j]) + c3);
        }
      }
    }
  }
  for (int64_t ch = 0; ch < c; ++ch) {
    double gw = 0, gb = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t g = ch / d;
      gw += (double(ds_buf[i * c + ch]) - double(db_buf[i * c + ch]) * double(mean[i * groups + g])) *
            double(rstd[i * groups + g]);
      gb += db_buf[i * c + ch];
    }
    if (dweight) dweight[ch] = T(gw);
    if (dbias) dbias[ch] = T(gb);
  }
}

#define DS_NORM_INSTANTIATE(T)                                                                                    \
  template void layer_norm_forward<T>(int64_t, int64_t, const T*, const T*, const T*, double, T*, T*, T*);        \
  template void layer_norm_backward<T>(int64_t, int64_t, const T*, const T*, const T*, const T*, const T*, T*, T*, \
                                       T*);                                                                       \
  template void batch_norm_forward<T>(int64_t, int64_t, int64_t, const T*, const T*, const T*, T*, T*, bool,       \
                                      double, double, T*, T*, T*);                                                \
  template void batch_norm_backward<T>(int64_t, int64_t, int64_t, const T*, const T*, const T*, const T*,         \
                                       const T*, const T*, const T*, bool, double, T*, T*, T*);                   \
  template void group_norm_forward<T>(int64_t, int64_t, int64_t, int64_t, const T*, const T*, const T*, double,   \
                                      T*, T*, T*);                                                                \
  template void group_norm_backward<T>(int64_t, int64_t, int64_t, int64_t, const T*, const T*, const T*,          \
                                       const T*, const T*, T*, T*, T*, T*, T*);
DS_NORM_INSTANTIATE(float)
DS_NORM_INSTANTIATE(double)
#undef DS_NORM_INSTANTIATE

}  // namespace ds

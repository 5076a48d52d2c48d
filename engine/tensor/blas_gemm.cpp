// cblas_?gemm resolved with dlopen/dlsym from libblas.so.3 (the library numpy links against, so it is
// normally loaded already and dlopen just returns it).
#include "tensor/blas_gemm.h"

#include <dlfcn.h>

#include <algorithm>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ds {
namespace {

// CBLAS's enum values (cblas.h): fixed by the CBLAS standard.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*,
                       int);
using Dgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double,
                       double*, int);

struct Blas {
  Sgemm sgemm = nullptr;
  Dgemm dgemm = nullptr;
  char path[512] = "";
};

// Sets OpenBLAS's settings (prepare_blas_environment) and returns the names it set, not the user's own.
std::vector<const char*> set_blas_settings() {
  std::vector<const char*> set;
  if (!std::getenv("OPENBLAS_CORETYPE")) {
    __builtin_cpu_init();
    const char* core = nullptr;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
      core = "SkylakeX";
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      core = "Haswell";
    if (core && setenv("OPENBLAS_CORETYPE", core, 0) == 0) set.push_back("OPENBLAS_CORETYPE");
  }
  if (!std::getenv("OPENBLAS_NUM_THREADS") && !std::getenv("OMP_NUM_THREADS")) {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency() / 2);
    if (setenv("OPENBLAS_NUM_THREADS", std::to_string(threads).c_str(), 0) == 0) set.push_back("OPENBLAS_NUM_THREADS");
  }
  return set;
}

// Takes back the settings set_blas_settings made once the library has read them: OpenBLAS reads its environment
// once, in its constructor (dlopen), and a script's subprocesses must see the user's environment, not ours (a
// child python3 with numpy would otherwise run on our core type and thread count without anybody asking).
struct RestoreEnvironment {
  std::vector<const char*> names;
  ~RestoreEnvironment() {
    for (const char* name : names) unsetenv(name);
  }
};

const Blas& blas() {
  static Blas b;
  static std::once_flag once;
  std::call_once(once, [] {
    const RestoreEnvironment restore{set_blas_settings()};
    for (const char* name : {"libblas.so.3", "libcblas.so.3", "libopenblas.so.0"}) {
      void* h = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
      if (!h) continue;
      b.sgemm = reinterpret_cast<Sgemm>(dlsym(h, "cblas_sgemm"));
      b.dgemm = reinterpret_cast<Dgemm>(dlsym(h, "cblas_dgemm"));
      if (b.sgemm && b.dgemm) {
        Dl_info info;
        if (dladdr(reinterpret_cast<void*>(b.sgemm), &info) && info.dli_fname)
          snprintf(b.path, sizeof b.path, "%s", info.dli_fname);
        return;
      }
      b.sgemm = nullptr;
      b.dgemm = nullptr;
    }
  });
  return b;
}

}  // namespace

void prepare_blas_environment() { set_blas_settings(); }

bool blas_available() { return blas().sgemm != nullptr; }
const char* blas_library_path() { return blas().path; }

bool gemm(DType dtype, int64_t m, int64_t n, int64_t k, const GemmOperand& a, const GemmOperand& b, void* c,
          double beta, int64_t ldc) {
  const Blas& lib = blas();
  if (!lib.sgemm) return false;
  if (ldc == 0) ldc = n;
  for (int64_t v : {m, n, k, a.ld, b.ld, ldc})
    if (v > INT_MAX) return false;  // CBLAS takes int sizes
  const int ta = a.transposed ? kTrans : kNoTrans, tb = b.transposed ? kTrans : kNoTrans;
  if (dtype == DType::Float32) {
    lib.sgemm(kRowMajor, ta, tb, int(m), int(n), int(k), 1.0f, static_cast<const float*>(a.data), int(a.ld),
              static_cast<const float*>(b.data), int(b.ld), float(beta), static_cast<float*>(c), int(ldc));
    return true;
  }
  if (dtype == DType::Float64) {
    lib.dgemm(kRowMajor, ta, tb, int(m), int(n), int(k), 1.0, static_cast<const double*>(a.data), int(a.ld),
              static_cast<const double*>(b.data), int(b.ld), beta, static_cast<double*>(c), int(ldc));
    return true;
  }
  return false;
}

}  // namespace ds

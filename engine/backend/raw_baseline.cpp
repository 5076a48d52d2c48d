// Without the CUDA toolkit there is no raw baseline; the sweep says so instead of inventing one.
#include "backend/raw_baseline.h"

#ifndef DEVICESCOPE_HAVE_CUDA
namespace ds {

RawBaseline raw_cuda_copy(RawRoute, bool, size_t, int, int, int, int) {
  return {false, 0, "built without the CUDA toolkit"};
}
double raw_cuda_pin_ns(size_t) { return -1; }

}  // namespace ds
#endif

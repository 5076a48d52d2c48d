// Helpers for module tests: catch a ds::Error and return its kind and message, count transfers by owner.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/errors.h"
#include "module/builders.h"
#include "module/module.h"
#include "runtime/runtime.h"
#include "tensor/tensor_test_util.h"

namespace ds::testing {

// "KeyError: attribute 'x' already exists" style text of the error `f` raises, or "<no error>".
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    const char* kinds[] = {"RuntimeError", "TypeError",      "ValueError",          "KeyError",        "IndexError",
                           "AttributeError", "AssertionError", "NotImplementedError", "OutOfMemoryError"};
    return std::string(kinds[int(e.kind())]) + ": " + e.what();
  }
  return "<no error>";
}

inline TensorPtr cpu_zeros(Runtime& rt, const Shape& sizes, DType dtype = DType::Float32) {
  return zeros(rt, sizes, dtype, Device(DeviceType::CPU));
}

inline TensorPtr cpu_param(Runtime& rt, const Shape& sizes) { return make_parameter(cpu_zeros(rt, sizes)); }

inline int transfers_with_owner(const Runtime& rt, const std::string& owner) {
  int n = 0;
  for (const auto& t : rt.log().transfers()) n += t.owner == owner;
  return n;
}

}  // namespace ds::testing

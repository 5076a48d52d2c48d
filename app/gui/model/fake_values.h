// Objects of the preview runner: tensors over real engine storages, modules with PyTorch's
// registries (parameters, buffers, children, plain attributes), lists and scalars.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.h"
#include "tensor/storage.h"

namespace ds::gui::fake {

struct TensorObj {
  StoragePtr storage;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  bool parameter = false;
  Role made_as = Role::Tensor;  // Activation for op results, PinnedStaging for pin_memory()
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};
using TensorPtr = std::shared_ptr<TensorObj>;

struct Value;
using ValuePtr = std::shared_ptr<Value>;

struct ModuleObj {
  std::string type;                  // "Linear"
  std::vector<int64_t> cfg;          // constructor figures: Linear (in, out), Conv2d (cin, cout, k), ...
  std::string extra;                 // repr arguments: "in_features=4, out_features=2, bias=True"
  std::vector<std::pair<std::string, TensorPtr>> params;   // nullptr: registered as None (bias=False)
  std::vector<std::pair<std::string, TensorPtr>> buffers;
  std::vector<std::pair<std::string, std::shared_ptr<ModuleObj>>> children;
  std::vector<std::pair<std::string, ValuePtr>> attrs;     // plain attributes (__dict__)
};
using ModulePtr = std::shared_ptr<ModuleObj>;

struct Value {
  enum class Kind { None, Bool, Int, Float, Str, Tensor, Module, List, Tuple, Namespace, Device, DType, Size, Method };
  Kind kind = Kind::None;
  double num = 0;               // Bool/Int/Float
  std::string str;              // Str; Namespace: "torch.nn"; Device: "cuda:0"; Method: method name
  DType dtype = DType::Float32;
  TensorPtr tensor;
  ModulePtr module;
  std::vector<ValuePtr> items;  // List/Tuple; Size: Int items
  ValuePtr self;                // Method: the object it is bound to

  static ValuePtr none() { return std::make_shared<Value>(); }
  static ValuePtr boolean(bool b) { auto v = std::make_shared<Value>(); v->kind = Kind::Bool; v->num = b; return v; }
  static ValuePtr integer(int64_t i) { auto v = std::make_shared<Value>(); v->kind = Kind::Int; v->num = double(i); return v; }
  static ValuePtr real(double d) { auto v = std::make_shared<Value>(); v->kind = Kind::Float; v->num = d; return v; }
  static ValuePtr string(std::string s) { auto v = std::make_shared<Value>(); v->kind = Kind::Str; v->str = std::move(s); return v; }
  static ValuePtr of(TensorPtr t) { auto v = std::make_shared<Value>(); v->kind = Kind::Tensor; v->tensor = std::move(t); return v; }
  static ValuePtr of(ModulePtr m) { auto v = std::make_shared<Value>(); v->kind = Kind::Module; v->module = std::move(m); return v; }
  static ValuePtr ns(std::string path) { auto v = std::make_shared<Value>(); v->kind = Kind::Namespace; v->str = std::move(path); return v; }
  static ValuePtr device(std::string d) { auto v = std::make_shared<Value>(); v->kind = Kind::Device; v->str = std::move(d); return v; }
  static ValuePtr of_dtype(DType d) { auto v = std::make_shared<Value>(); v->kind = Kind::DType; v->dtype = d; return v; }
  static ValuePtr method(ValuePtr self, std::string name) {
    auto v = std::make_shared<Value>(); v->kind = Kind::Method; v->self = std::move(self); v->str = std::move(name); return v;
  }
  // Python identity (`is`, id()): tensors and modules by object, everything else by Value.
  const void* identity() const {
    if (kind == Kind::Tensor) return tensor.get();
    if (kind == Kind::Module) return module.get();
    return this;
  }
};

}  // namespace ds::gui::fake

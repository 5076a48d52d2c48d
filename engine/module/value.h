// Value: what a Python attribute assignment can carry into a Module (None, a Tensor/Parameter, a Module, or
// any other Python object known only by its type name), plus torch.typename() for PyTorch's error messages.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "tensor/tensor.h"

namespace ds {

class Module;
using ModulePtr = std::shared_ptr<Module>;

class Value {
 public:
  enum class Kind : int8_t { None, Tensor, Module, Other };

  Value() = default;  // None
  Value(std::nullptr_t) {}
  Value(TensorPtr t) : kind_(t ? Kind::Tensor : Kind::None), tensor_(std::move(t)) {}  // null -> None
  Value(ModulePtr m) : kind_(m ? Kind::Module : Kind::None), module_(std::move(m)) {}  // null -> None
  // Any other Python object, by its type as torch.typename prints it: "int", "list", "collections.OrderedDict".
  static Value other(std::string python_type_name) {
    Value v;
    v.kind_ = Kind::Other;
    v.other_type_ = std::move(python_type_name);
    return v;
  }

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::None; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }  // Parameters included
  bool is_parameter() const { return kind_ == Kind::Tensor && tensor_->is_parameter; }
  bool is_module() const { return kind_ == Kind::Module; }
  bool is_other() const { return kind_ == Kind::Other; }
  const TensorPtr& tensor() const { return tensor_; }
  const ModulePtr& module() const { return module_; }
  const std::string& other_type() const { return other_type_; }

 private:
  Kind kind_ = Kind::None;
  TensorPtr tensor_;
  ModulePtr module_;
  std::string other_type_;
};

// torch.typename(t) for a tensor: Tensor.type(), e.g. "torch.FloatTensor", "torch.cuda.HalfTensor".
std::string tensor_typename(const TensorImpl& t);
// torch.typename(v): tensors as above, modules "torch.nn.modules.linear.Linear", None "NoneType", others as given.
std::string python_typename(const Value& v);

}  // namespace ds

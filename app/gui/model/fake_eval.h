// The preview runner's evaluator: runs one parsed statement against the FakeSession's namespace and
// runtime with PyTorch's placement rules (Tensor.to, Module._apply, registration, device checks).
#pragma once

#include <string>

#include "gui/model/fake_parser.h"
#include "gui/model/fake_session.h"

namespace ds::gui {

struct FakeSession::Eval {
  FakeSession& s;

  void exec(const fake::Stmt& st);

  // Expressions.
  fake::ValuePtr eval(const fake::Expr& e);
  fake::ValuePtr lookup(const std::string& name);
  fake::ValuePtr attribute(const fake::ValuePtr& obj, const std::string& name);
  fake::ValuePtr call(const fake::ValuePtr& fn, std::vector<fake::ValuePtr> args,
                      std::vector<std::pair<std::string, fake::ValuePtr>> kwargs);
  fake::ValuePtr subscript(const fake::ValuePtr& obj, const fake::ValuePtr& index);
  fake::ValuePtr binop(const std::string& op, const fake::ValuePtr& l, const fake::ValuePtr& r);
  void assign(const fake::Expr& target, const fake::ValuePtr& value);
  void del(const fake::Expr& target);

  // Library.
  fake::ValuePtr call_torch(const std::string& path, std::vector<fake::ValuePtr>& args,
                            std::vector<std::pair<std::string, fake::ValuePtr>>& kwargs);
  fake::ValuePtr call_tensor_method(const fake::ValuePtr& self, const std::string& name, std::vector<fake::ValuePtr>& args,
                                    std::vector<std::pair<std::string, fake::ValuePtr>>& kwargs);
  fake::ValuePtr call_module_method(const fake::ValuePtr& self, const std::string& name, std::vector<fake::ValuePtr>& args,
                                    std::vector<std::pair<std::string, fake::ValuePtr>>& kwargs);
  fake::ValuePtr forward(const fake::ModulePtr& m, const fake::ValuePtr& x);
  void set_module_attr(const fake::ModulePtr& m, const std::string& name, const fake::ValuePtr& value);

  // Tensors.
  fake::TensorPtr make_tensor(Place place, DType dtype, std::vector<int64_t> shape, Role made_as);
  fake::TensorPtr convert(const fake::TensorPtr& t, Place place, DType dtype, bool non_blocking, bool record_move);
  Place resolve_place(const fake::ValuePtr& device, Place current, bool non_blocking);
  void module_apply(const fake::ModulePtr& m, const std::string& path, const fake::ValuePtr& device, bool has_dtype,
                    DType dtype, bool non_blocking);

  // Printing.
  std::string str(const fake::ValuePtr& v);
  std::string repr(const fake::ValuePtr& v);
  std::string type_name(const fake::ValuePtr& v);
  std::string device_str(const fake::TensorPtr& t);
  std::string qualified_owner(const fake::TensorPtr& t);
};

}  // namespace ds::gui

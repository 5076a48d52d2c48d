// Module construction, the attribute protocol (__setattr__/__getattr__/__delattr__) and registration
// (register_buffer/register_parameter/add_module), following torch/nn/modules/module.py check by check.
#include "module/module.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "core/errors.h"
#include "trace/snapshot.h"

namespace ds {
namespace {

// dir(nn.Module): methods and class attributes every module has, so hasattr() (and therefore the
// "attribute 'x' already exists" check of register_*) sees them. PyTorch 1.13's list plus 2.x additions.
constexpr std::string_view kModuleClassAttributes[] = {
    "T_destination", "__annotations__", "__call__", "__class__", "__delattr__", "__dict__", "__dir__",
    "__doc__", "__eq__", "__format__", "__ge__", "__getattr__", "__getattribute__", "__getstate__", "__gt__",
    "__hash__", "__init__", "__init_subclass__", "__le__", "__lt__", "__module__", "__ne__", "__new__",
    "__reduce__", "__reduce_ex__", "__repr__", "__setattr__", "__setstate__", "__sizeof__", "__str__",
    "__subclasshook__", "__weakref__", "_apply", "_call_impl", "_get_backward_hooks", "_get_name",
    "_load_from_state_dict", "_maybe_warn_non_full_backward_hook", "_named_members",
    "_register_load_state_dict_pre_hook", "_register_state_dict_hook", "_replicate_for_data_parallel",
    "_save_to_state_dict", "_slow_forward", "_version", "add_module", "apply", "bfloat16", "buffers",
    "children", "cpu", "cuda", "double", "dump_patches", "eval", "extra_repr", "float", "forward", "get_buffer",
    "get_extra_state", "get_parameter", "get_submodule", "half", "ipu", "load_state_dict", "modules",
    "named_buffers", "named_children", "named_modules", "named_parameters", "parameters",
    "register_backward_hook", "register_buffer", "register_forward_hook", "register_forward_pre_hook",
    "register_full_backward_hook", "register_load_state_dict_post_hook", "register_module",
    "register_parameter", "requires_grad_", "set_extra_state", "share_memory", "state_dict", "to", "to_empty",
    "train", "type", "xpu", "zero_grad",
    // PyTorch 2.x
    "_wrapped_call_impl", "_compiled_call_impl", "call_super_init", "compile", "mtia", "set_submodule",
    "register_full_backward_pre_hook", "register_state_dict_pre_hook", "register_state_dict_post_hook",
    "register_load_state_dict_pre_hook", "_get_backward_pre_hooks"};

// Instance attributes Module.__init__ puts in __dict__ (besides `training`, handled on its own).
constexpr std::string_view kInitInternals[] = {
    "_parameters", "_buffers", "_non_persistent_buffers_set", "_backward_pre_hooks", "_backward_hooks",
    "_is_full_backward_hook", "_forward_hooks", "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
    "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_state_dict_hooks", "_state_dict_pre_hooks",
    "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks", "_modules"};

bool is_init_internal(const std::string& name) {
  return std::find(std::begin(kInitInternals), std::end(kInitInternals), name) != std::end(kInitInternals);
}

// Storages get a role annotation when first registered (views colour them); never overrides a known role.
void note_role(const TensorPtr& t, Role role) {
  if (t && t->storage() && t->storage()->role() == Role::Tensor) t->storage()->set_role(role);
}

}  // namespace

std::string tensor_typename(const TensorImpl& t) {
  const Device d = t.device();
  std::string out = "torch.";
  if (!d.is_cpu()) out += device_type_name(d.type()) + ".";
  return out + legacy_type_name(t.dtype());
}

std::string python_typename(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::None: return "NoneType";
    case Value::Kind::Tensor: return tensor_typename(*v.tensor());
    case Value::Kind::Module: return v.module()->python_type();
    case Value::Kind::Other: return v.other_type();
  }
  return "object";
}

TensorPtr make_parameter(const TensorPtr& data, bool requires_grad) {
  check(data != nullptr, "Parameter data must be a tensor", ErrorKind::TypeError);
  TensorPtr p = data->alias(data->sizes(), data->strides(), data->offset());
  p->is_parameter = true;
  p->requires_grad = requires_grad;
  return p;
}

// ---- construction ----

Module::Module(std::string type_name, std::string type_module, bool initialized)
    : type_name_(std::move(type_name)), type_module_(std::move(type_module)) {
  if (initialized) init();
}

ModulePtr Module::create(std::string type_name, std::string type_module) {
  return std::make_shared<Module>(std::move(type_name), std::move(type_module), true);
}

ModulePtr Module::create_uninitialized(std::string type_name, std::string type_module) {
  return std::make_shared<Module>(std::move(type_name), std::move(type_module), false);
}

void Module::init() {
  // Module.__init__ assigns fresh registries with super().__setattr__, so calling it again empties them.
  initialized_ = true;
  training_ = true;
  training_deleted_ = false;
  parameters_.clear();
  buffers_.clear();
  non_persistent_.clear();
  modules_.clear();
}

std::string Module::python_type() const {
  // torch.typename(obj): "<obj.__module__>.<class name>", builtins without a module.
  if (type_module_.empty() || type_module_ == "builtins") return type_name_;
  return type_module_ + "." + type_name_;
}

void Module::add_class_attributes(std::vector<std::string> names) {
  for (auto& n : names) class_attributes_.push_back(std::move(n));
}

bool Module::is_class_attribute(const std::string& name) const {
  if (std::find(std::begin(kModuleClassAttributes), std::end(kModuleClassAttributes), name) !=
      std::end(kModuleClassAttributes))
    return true;
  return std::find(class_attributes_.begin(), class_attributes_.end(), name) != class_attributes_.end();
}

void Module::require_init(const char* internal_name) const {
  // Touching self._parameters before Module.__init__ falls through to __getattr__, which cannot find it.
  if (!initialized_) raise_no_attribute(internal_name);
}

void Module::raise_no_attribute(const std::string& name) const {
  raise(ErrorKind::AttributeError, "'" + type_name_ + "' object has no attribute '" + name + "'");
}

// ---- attribute protocol ----

void Module::set_attr(const std::string& name, const Value& value) {
  // 1. A Parameter: dropped from __dict__, buffers and children, then registered as a parameter.
  if (value.is_parameter()) {
    if (!initialized_) raise(ErrorKind::AttributeError, "cannot assign parameters before Module.__init__() call");
    attributes_.erase(name);
    if (name == "training") training_deleted_ = true;
    buffers_.erase(name);
    modules_.erase(name);
    non_persistent_.erase(name);
    register_parameter(name, value);
    return;
  }
  // 2. An existing parameter name only takes a Parameter or None.
  if (initialized_ && parameters_.contains(name)) {
    if (!value.is_none())
      raise(ErrorKind::TypeError, "cannot assign '" + python_typename(value) + "' as parameter '" + name +
                                      "' (torch.nn.Parameter or None expected)");
    register_parameter(name, value);
    return;
  }
  // 3. A Module: dropped from __dict__, parameters and buffers, stored as a child (no name checks here).
  if (value.is_module()) {
    if (!initialized_) raise(ErrorKind::AttributeError, "cannot assign module before Module.__init__() call");
    attributes_.erase(name);
    if (name == "training") training_deleted_ = true;
    parameters_.erase(name);
    buffers_.erase(name);
    non_persistent_.erase(name);
    modules_.set(name, value.module());
    return;
  }
  if (initialized_ && modules_.contains(name)) {
    if (!value.is_none())
      raise(ErrorKind::TypeError, "cannot assign '" + python_typename(value) + "' as child module '" + name +
                                      "' (torch.nn.Module or None expected)");
    modules_.set(name, nullptr);
    return;
  }
  // 4. An existing buffer name takes a Tensor or None; persistence is kept.
  if (initialized_ && buffers_.contains(name)) {
    if (!value.is_none() && !value.is_tensor())
      raise(ErrorKind::TypeError, "cannot assign '" + python_typename(value) + "' as buffer '" + name +
                                      "' (torch.Tensor or None expected)");
    buffers_.set(name, value.tensor());
    note_role(value.tensor(), Role::Buffer);
    return;
  }
  // 5. A plain Python attribute, brand-new tensors included: nothing will move it.
  if (name == "training") {
    training_deleted_ = false;  // the flag's value stays what train()/eval() set
    return;
  }
  attributes_.set(name, value);
  if (value.is_tensor()) note_role(value.tensor(), Role::PlainAttribute);
}

bool Module::has_attr(const std::string& name) const {
  if (attributes_.contains(name) || is_class_attribute(name)) return true;
  if (!initialized_) return false;
  if (name == "training") return !training_deleted_;
  return is_init_internal(name) || parameters_.contains(name) || buffers_.contains(name) ||
         modules_.contains(name);
}

Value Module::get_attr(const std::string& name) const {
  // Instance __dict__ and class attributes come first; __getattr__ (the registries) only when they miss.
  if (const Value* v = attributes_.find(name)) return *v;
  if (initialized_ && name == "training" && !training_deleted_) return Value::other("bool");
  if (initialized_ && is_init_internal(name)) {
    if (name == "_is_full_backward_hook") return Value();
    return Value::other(name == "_non_persistent_buffers_set" ? "set" : "collections.OrderedDict");
  }
  if (is_class_attribute(name)) return Value::other("method");
  if (initialized_) {
    if (const TensorPtr* p = parameters_.find(name)) return Value(*p);
    if (const TensorPtr* b = buffers_.find(name)) return Value(*b);
    if (const ModulePtr* m = modules_.find(name)) return Value(*m);
  }
  raise_no_attribute(name);
}

void Module::del_attr(const std::string& name) {
  require_init("_parameters");
  if (parameters_.erase(name)) return;
  if (buffers_.erase(name)) {
    non_persistent_.erase(name);
    return;
  }
  if (modules_.erase(name)) return;
  if (attributes_.erase(name)) return;
  if (name == "training" && !training_deleted_) {
    training_deleted_ = true;
    return;
  }
  raise_no_attribute(name);
}

TensorPtr Module::param(const std::string& name) const {
  const TensorPtr* p = parameters_.find(name);
  return p ? *p : nullptr;
}

TensorPtr Module::buffer(const std::string& name) const {
  const TensorPtr* b = buffers_.find(name);
  return b ? *b : nullptr;
}

ModulePtr Module::child(const std::string& name) const {
  const ModulePtr* m = modules_.find(name);
  return m ? *m : nullptr;
}

// ---- registration ----

void Module::register_buffer(const std::string& name, const Value& tensor, bool persistent) {
  if (!initialized_) raise(ErrorKind::AttributeError, "cannot assign buffer before Module.__init__() call");
  if (name.find('.') != std::string::npos) raise(ErrorKind::KeyError, "buffer name can't contain \".\"");
  if (name.empty()) raise(ErrorKind::KeyError, "buffer name can't be empty string \"\"");
  if (has_attr(name) && !buffers_.contains(name))
    raise(ErrorKind::KeyError, "attribute '" + name + "' already exists");
  if (!tensor.is_none() && !tensor.is_tensor())
    raise(ErrorKind::TypeError, "cannot assign '" + python_typename(tensor) + "' object to buffer '" + name +
                                    "' (torch Tensor or None required)");
  buffers_.set(name, tensor.tensor());
  if (persistent)
    non_persistent_.erase(name);
  else
    non_persistent_.insert(name);
  note_role(tensor.tensor(), Role::Buffer);
}

void Module::register_buffer(const NonStringName& name, const Value&, bool) {
  if (!initialized_) raise(ErrorKind::AttributeError, "cannot assign buffer before Module.__init__() call");
  raise(ErrorKind::TypeError, "buffer name should be a string. Got " + name.python_type);
}

void Module::register_parameter(const std::string& name, const Value& param) {
  if (!initialized_) raise(ErrorKind::AttributeError, "cannot assign parameter before Module.__init__() call");
  if (name.find('.') != std::string::npos) raise(ErrorKind::KeyError, "parameter name can't contain \".\"");
  if (name.empty()) raise(ErrorKind::KeyError, "parameter name can't be empty string \"\"");
  if (has_attr(name) && !parameters_.contains(name))
    raise(ErrorKind::KeyError, "attribute '" + name + "' already exists");
  if (param.is_none()) {
    parameters_.set(name, nullptr);
    return;
  }
  if (!param.is_parameter())
    raise(ErrorKind::TypeError, "cannot assign '" + python_typename(param) + "' object to parameter '" + name +
                                    "' (torch.nn.Parameter or None required)");
  // PyTorch also rejects a Parameter with a grad_fn (ValueError "Cannot assign non-leaf Tensor to
  // parameter ..."); the C++ engine has no autograd graph, so every Parameter here is a leaf.
  parameters_.set(name, param.tensor());
  note_role(param.tensor(), Role::Parameter);
}

void Module::register_parameter(const NonStringName& name, const Value&) {
  if (!initialized_) raise(ErrorKind::AttributeError, "cannot assign parameter before Module.__init__() call");
  raise(ErrorKind::TypeError, "parameter name should be a string. Got " + name.python_type);
}

void Module::add_module(const std::string& name, const Value& module) {
  if (!module.is_module() && !module.is_none())
    raise(ErrorKind::TypeError, python_typename(module) + " is not a Module subclass");
  if (has_attr(name)) {
    require_init("_modules");  // `name not in self._modules` before __init__
    if (!modules_.contains(name)) raise(ErrorKind::KeyError, "attribute '" + name + "' already exists");
  }
  if (name.find('.') != std::string::npos)
    raise(ErrorKind::KeyError, "module name can't contain \".\", got: " + name);
  if (name.empty()) raise(ErrorKind::KeyError, "module name can't be empty string \"\"");
  require_init("_modules");
  modules_.set(name, module.module());
}

void Module::add_module(const NonStringName& name, const Value& module) {
  if (!module.is_module() && !module.is_none())
    raise(ErrorKind::TypeError, python_typename(module) + " is not a Module subclass");
  raise(ErrorKind::TypeError, "module name should be a string. Got " + name.python_type);
}

}  // namespace ds

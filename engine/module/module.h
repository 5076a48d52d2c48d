// Module: torch.nn.Module's registries and conversion rules in C++ (SEMANTICS §3, §4): __setattr__ order and
// errors, register_buffer/register_parameter/add_module, _apply (params keep identity, buffers are rebound),
// to/cuda/cpu/half/..., named_* iteration and state_dict keys. Used by C++ users, benchmarks and synthetic data.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/device.h"
#include "core/dtype.h"
#include "module/ordered_dict.h"
#include "module/value.h"
#include "tensor/tensor.h"

namespace ds {

class Runtime;

// A name argument that is not a Python str (`m.register_buffer(1, t)`), known by its type name ("int").
struct NonStringName {
  std::string python_type;
};

using TensorFn = std::function<TensorPtr(const TensorPtr&)>;
using NamedTensor = std::pair<std::string, TensorPtr>;
using NamedModule = std::pair<std::string, ModulePtr>;

// Module.to(device=None, dtype=None, non_blocking=False).
struct ModuleToOptions {
  std::optional<Device> device;
  std::optional<DType> dtype;
  bool non_blocking = false;
};

// How _apply reports itself: the root's name for qualified owner names ("model" -> "model.0.weight"), the
// target shown in the module-move events ("cuda:0", "float16"), and whether to recurse into children.
struct ApplyOptions {
  std::string root_name;
  std::string target;
  bool recurse = true;
};

// torch.nn.Parameter(data, requires_grad): a new TensorImpl sharing data's storage, flagged as a parameter.
TensorPtr make_parameter(const TensorPtr& data, bool requires_grad = true);

class Module : public std::enable_shared_from_this<Module> {
 public:
  // A module whose __init__ ran. type_name is the class name ("Linear"); type_module the Python module that
  // defines the class ("torch.nn.modules.linear"), for torch.typename in error messages.
  static ModulePtr create(std::string type_name = "Module", std::string type_module = "torch.nn.modules.module");
  // A subclass instance whose __init__ has not called super().__init__() (yet): registries do not exist.
  static ModulePtr create_uninitialized(std::string type_name, std::string type_module = "__main__");
  Module(std::string type_name, std::string type_module, bool initialized);  // use create(): to() needs a shared_ptr
  virtual ~Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // Module.__init__(): (re)creates empty registries and sets training=True; plain attributes stay.
  void init();
  bool initialized() const { return initialized_; }
  const std::string& type_name() const { return type_name_; }  // _get_name()
  std::string python_type() const;                              // "torch.nn.modules.linear.Linear"
  // Class attributes beyond nn.Module's (methods such as "reset_parameters"): hasattr() sees them.
  void add_class_attributes(std::vector<std::string> names);
  bool training() const { return training_; }

  // ---- Attribute protocol (module.py __setattr__ / __getattr__ / __delattr__) ----
  void set_attr(const std::string& name, const Value& value);
  Value get_attr(const std::string& name) const;  // AttributeError "'Linear' object has no attribute 'foo'"
  bool has_attr(const std::string& name) const;   // Python's hasattr(module, name)
  void del_attr(const std::string& name);

  // ---- Registration, with module.py's checks in its order and wording ----
  void register_buffer(const std::string& name, const Value& tensor, bool persistent = true);
  void register_buffer(const NonStringName& name, const Value& tensor, bool persistent = true);
  void register_parameter(const std::string& name, const Value& param);
  void register_parameter(const NonStringName& name, const Value& param);
  void add_module(const std::string& name, const Value& module);
  void add_module(const NonStringName& name, const Value& module);
  void register_module(const std::string& name, const Value& module) { add_module(name, module); }

  // The registries themselves (_parameters, _buffers, _non_persistent_buffers_set, _modules) and the plain
  // attributes (__dict__ entries that are not Module internals). Null entries are registered as None.
  const OrderedDict<TensorPtr>& parameters_dict() const { return parameters_; }
  const OrderedDict<TensorPtr>& buffers_dict() const { return buffers_; }
  const std::unordered_set<std::string>& non_persistent_buffers() const { return non_persistent_; }
  const OrderedDict<ModulePtr>& modules_dict() const { return modules_; }
  const OrderedDict<Value>& attributes() const { return attributes_; }
  // Shortcuts: the registered object or null (absent or None).
  TensorPtr param(const std::string& name) const;
  TensorPtr buffer(const std::string& name) const;
  ModulePtr child(const std::string& name) const;

  // ---- Iteration (named_parameters, named_modules, ...) with PyTorch's de-duplication ----
  std::vector<NamedTensor> named_parameters(const std::string& prefix = "", bool recurse = true,
                                            bool remove_duplicate = true) const;
  std::vector<TensorPtr> parameters(bool recurse = true) const;
  std::vector<NamedTensor> named_buffers(const std::string& prefix = "", bool recurse = true,
                                         bool remove_duplicate = true) const;
  std::vector<TensorPtr> buffers(bool recurse = true) const;
  std::vector<NamedModule> named_children() const;
  std::vector<ModulePtr> children() const;
  std::vector<NamedModule> named_modules(const std::string& prefix = "", bool remove_duplicate = true) const;
  std::vector<ModulePtr> modules() const;
  // state_dict(): own parameters, own persistent buffers, then each child's, registration order; None skipped.
  std::vector<std::string> state_dict_keys(const std::string& prefix = "") const;
  std::vector<NamedTensor> state_dict(const std::string& prefix = "", bool keep_vars = false) const;

  ModulePtr apply(const std::function<void(Module&)>& fn);  // children first, then self
  ModulePtr train(bool mode = true);
  ModulePtr eval() { return train(false); }
  ModulePtr requires_grad_(bool requires_grad = true);
  void zero_grad();  // set_to_none=True (PyTorch 2.x default)
  ModulePtr get_submodule(const std::string& target) const;
  TensorPtr get_parameter(const std::string& target) const;
  TensorPtr get_buffer(const std::string& target) const;

  // repr(module): "Linear(in_features=2, out_features=3, bias=True)", children indented.
  std::string repr() const;
  void set_extra_repr(std::string text) { extra_repr_ = std::move(text); }
  const std::string& extra_repr() const { return extra_repr_; }

  // ---- Conversion: everything goes through _apply and returns self ----
  // Children first, then each parameter (`param.data = fn(param)`: identity kept), its .grad the same way,
  // then buffers (`_buffers[k] = fn(buf)`: rebound). Exceptions propagate; what was converted stays converted.
  ModulePtr _apply(Runtime& rt, const TensorFn& fn, const ApplyOptions& options = {});
  ModulePtr to(Runtime& rt, const ModuleToOptions& options, const std::string& root_name = "");
  ModulePtr to(Runtime& rt, const Device& device, const std::string& root_name = "");
  ModulePtr to(Runtime& rt, std::string_view device, const std::string& root_name = "");  // "cuda:1"
  ModulePtr to(Runtime& rt, DType dtype, const std::string& root_name = "");
  ModulePtr to(Runtime& rt, const TensorPtr& like, bool non_blocking = false, const std::string& root_name = "");
  ModulePtr cuda(Runtime& rt, std::optional<int> device = std::nullopt, const std::string& root_name = "");
  ModulePtr cpu(Runtime& rt, const std::string& root_name = "");
  ModulePtr type(Runtime& rt, DType dtype, const std::string& root_name = "");  // every tensor, ints too
  ModulePtr float_(Runtime& rt, const std::string& root_name = "");  // floating-point tensors only
  ModulePtr double_(Runtime& rt, const std::string& root_name = "");
  ModulePtr half(Runtime& rt, const std::string& root_name = "");
  ModulePtr bfloat16(Runtime& rt, const std::string& root_name = "");
  // torch.empty_like(t, device=device) for every tensor: new uninitialised storage, nothing copied.
  ModulePtr to_empty(Runtime& rt, const Device& device, bool recurse = true, const std::string& root_name = "");

 private:
  ModulePtr self() const { return std::const_pointer_cast<Module>(shared_from_this()); }
  // AttributeError "'M' object has no attribute '_parameters'" when Module.__init__ has not run.
  void require_init(const char* internal_name) const;
  [[noreturn]] void raise_no_attribute(const std::string& name) const;
  bool is_class_attribute(const std::string& name) const;
  void check_param_assignable(const std::string& name, const Value& param) const;
  void apply_recursive(Runtime& rt, const TensorFn& fn, const std::string& prefix, bool recurse);
  void named_modules_into(std::vector<NamedModule>& out, std::unordered_set<const Module*>& memo,
                          const std::string& prefix, bool remove_duplicate) const;
  std::vector<NamedTensor> named_members(bool buffers, const std::string& prefix, bool recurse,
                                         bool remove_duplicate) const;
  void state_dict_into(std::vector<NamedTensor>* out, std::vector<std::string>* keys, const std::string& prefix,
                       bool keep_vars) const;

  std::string type_name_;
  std::string type_module_;
  bool initialized_ = false;
  bool training_ = true;
  bool training_deleted_ = false;  // `del m.training`
  OrderedDict<TensorPtr> parameters_;
  OrderedDict<TensorPtr> buffers_;
  std::unordered_set<std::string> non_persistent_;
  OrderedDict<ModulePtr> modules_;
  OrderedDict<Value> attributes_;
  std::vector<std::string> class_attributes_;  // subclass-specific, beyond nn.Module's own
  std::string extra_repr_;
};

}  // namespace ds

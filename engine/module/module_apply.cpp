// Module._apply and everything built on it (to, cuda, cpu, type, float/double/half/bfloat16, to_empty),
// following module.py: children first, parameters keep identity (`param.data = ...`), buffers are rebound.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/errors.h"
#include "module/module.h"
#include "runtime/runtime.h"
#include "tensor/tensor_ops.h"
#include "trace/snapshot.h"

namespace ds {
namespace {

std::string join_name(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

// torch._has_compatible_shallow_copy_type: dense CPU and CUDA tensors can swap storages through
// `param.data = new`; other layouts/devices (meta) get a new Parameter object instead.
bool shallow_copy_compatible(const TensorImpl& a, const TensorImpl& b) {
  auto dense = [](DeviceType t) { return t == DeviceType::CPU || t == DeviceType::CUDA; };
  const DeviceType ta = a.device().type(), tb = b.device().type();
  return ta == tb || (dense(ta) && dense(tb));
}

// Names and roles for views and transfer records: the converted tensor's new storage belongs to `owner`.
void annotate(const TensorPtr& converted, const std::string& owner, Role role, const StoragePtr& old_storage) {
  const StoragePtr& s = converted->storage();
  if (!s || s == old_storage) return;
  s->set_owner(owner);
  s->set_role(role);
  if (old_storage) s->set_moved_from(old_storage->id());
}

// Brackets a module conversion in the event log (ModuleMoveBegin/End) and restores the owner hint, also
// when a conversion throws halfway (the module is then left partly converted, as in PyTorch).
class MoveScope {
 public:
  MoveScope(Runtime& rt, std::string module, std::string target)
      : rt_(rt), module_(std::move(module)), target_(std::move(target)), saved_hint_(rt.owner_hint()) {
    rt_.note_module_move(true, module_, target_);
  }
  ~MoveScope() {
    try {
      rt_.set_owner_hint(saved_hint_);
      rt_.note_module_move(false, module_, target_);
    } catch (...) {
      // Never let bookkeeping replace the exception that is unwinding (or abort in a destructor).
    }
  }
  MoveScope(const MoveScope&) = delete;
  MoveScope& operator=(const MoveScope&) = delete;

 private:
  Runtime& rt_;
  std::string module_;
  std::string target_;
  std::string saved_hint_;
};

bool floating_or_complex(DType t) { return is_floating_point(t) || is_complex(t); }

}  // namespace

void Module::apply_recursive(Runtime& rt, const TensorFn& fn, const std::string& prefix, bool recurse) {
  require_init("_modules");
  if (recurse) {
    // self.children(): each distinct child once, under the first name it is registered with. A child
    // registered twice is rare, so look for one cheaply (sorted pointers) before paying for a set.
    std::vector<const Module*> sorted;
    sorted.reserve(modules_.size());
    for (const auto& entry : modules_)
      if (entry.second) sorted.push_back(entry.second.get());
    std::sort(sorted.begin(), sorted.end());
    const bool has_duplicates = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
    std::unordered_set<const Module*> seen;
    for (auto& [name, child] : modules_) {
      if (!child || (has_duplicates && !seen.insert(child.get()).second)) continue;
      child->apply_recursive(rt, fn, join_name(prefix, name), true);
    }
  }

  // No memo across modules: a Parameter registered twice is converted by its first module; when the second
  // one gets to it, fn returns it unchanged (already on the target), exactly as in PyTorch.
  for (auto& entry : parameters_) {
    if (!entry.second) continue;
    const TensorPtr param = entry.second;
    const std::string owner = join_name(prefix, entry.first);
    rt.set_owner_hint(owner);
    const TensorPtr applied = fn(param);
    TensorPtr out_param = param;
    if (applied != param) {
      annotate(applied, owner, Role::Parameter, param->storage());
      if (shallow_copy_compatible(*param, *applied)) {
        param->set_data(*applied);  // Note [set_data keeps identity]
      } else {
        out_param = make_parameter(applied, param->requires_grad);
        entry.second = out_param;
      }
    }
    if (const TensorPtr grad = param->grad) {
      const std::string grad_owner = owner + ".grad";
      rt.set_owner_hint(grad_owner);
      const TensorPtr grad_applied = fn(grad);
      if (grad_applied != grad) annotate(grad_applied, grad_owner, Role::Gradient, grad->storage());
      if (shallow_copy_compatible(*grad, *grad_applied)) {
        check(out_param->grad != nullptr, "", ErrorKind::AssertionError);  // module.py asserts the same
        if (grad_applied != out_param->grad) out_param->grad->set_data(*grad_applied);
      } else {
        grad_applied->requires_grad = grad->requires_grad;
        out_param->grad = grad_applied;
      }
    }
  }

  for (auto& entry : buffers_) {
    if (!entry.second) continue;
    const std::string owner = join_name(prefix, entry.first);
    rt.set_owner_hint(owner);
    TensorPtr converted = fn(entry.second);
    if (converted != entry.second) annotate(converted, owner, Role::Buffer, entry.second->storage());
    entry.second = std::move(converted);  // rebound: references taken before keep the old tensor
  }
}

ModulePtr Module::_apply(Runtime& rt, const TensorFn& fn, const ApplyOptions& options) {
  MoveScope scope(rt, options.root_name.empty() ? type_name_ : options.root_name, options.target);
  apply_recursive(rt, fn, options.root_name, options.recurse);
  return self();
}

ModulePtr Module::to(Runtime& rt, const ModuleToOptions& options, const std::string& root_name) {
  if (options.dtype && !floating_or_complex(*options.dtype))
    raise(ErrorKind::TypeError, "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch." +
                                    dtype_name(*options.dtype));
  ApplyOptions apply_options;
  apply_options.root_name = root_name;
  if (options.device) apply_options.target = options.device->str();
  if (options.dtype) apply_options.target += (apply_options.target.empty() ? "" : " ") + dtype_name(*options.dtype);
  // Integer and bool tensors move to the device but keep their dtype.
  return _apply(
      rt,
      [&rt, &options](const TensorPtr& t) {
        ToOptions to_options;
        to_options.device = options.device;
        if (options.dtype && floating_or_complex(t->dtype())) to_options.dtype = options.dtype;
        to_options.non_blocking = options.non_blocking;
        return ::ds::to(rt, t, to_options);
      },
      apply_options);
}

ModulePtr Module::to(Runtime& rt, const Device& device, const std::string& root_name) {
  ModuleToOptions options;
  options.device = device;
  return to(rt, options, root_name);
}

ModulePtr Module::to(Runtime& rt, std::string_view device, const std::string& root_name) {
  return to(rt, Device::parse(device), root_name);
}

ModulePtr Module::to(Runtime& rt, DType dtype, const std::string& root_name) {
  ModuleToOptions options;
  options.dtype = dtype;
  return to(rt, options, root_name);
}

ModulePtr Module::to(Runtime& rt, const TensorPtr& like, bool non_blocking, const std::string& root_name) {
  check(like != nullptr, "to() received an invalid combination of arguments", ErrorKind::TypeError);
  ModuleToOptions options;
  options.device = like->device();
  options.dtype = like->dtype();
  options.non_blocking = non_blocking;
  return to(rt, options, root_name);
}

ModulePtr Module::cuda(Runtime& rt, std::optional<int> device, const std::string& root_name) {
  ApplyOptions options;
  options.root_name = root_name;
  options.target = device ? "cuda:" + std::to_string(*device) : "cuda";
  return _apply(rt, [&rt, device](const TensorPtr& t) { return ::ds::cuda(rt, t, device); }, options);
}

ModulePtr Module::cpu(Runtime& rt, const std::string& root_name) {
  ApplyOptions options;
  options.root_name = root_name;
  options.target = "cpu";
  return _apply(rt, [&rt](const TensorPtr& t) { return ::ds::cpu(rt, t); }, options);
}

ModulePtr Module::type(Runtime& rt, DType dtype, const std::string& root_name) {
  ApplyOptions options;
  options.root_name = root_name;
  options.target = dtype_name(dtype);
  return _apply(
      rt,
      [&rt, dtype](const TensorPtr& t) {
        ToOptions to_options;
        to_options.dtype = dtype;
        return ::ds::to(rt, t, to_options);
      },
      options);
}

namespace {
// float()/double()/half()/bfloat16(): `t.<dtype>() if t.is_floating_point() else t`.
TensorFn floating_cast(Runtime& rt, DType dtype) {
  return [&rt, dtype](const TensorPtr& t) -> TensorPtr {
    if (!is_floating_point(t->dtype())) return t;
    ToOptions to_options;
    to_options.dtype = dtype;
    return ::ds::to(rt, t, to_options);
  };
}
}  // namespace

ModulePtr Module::float_(Runtime& rt, const std::string& root_name) {
  return _apply(rt, floating_cast(rt, DType::Float32), {root_name, "float32", true});
}
ModulePtr Module::double_(Runtime& rt, const std::string& root_name) {
  return _apply(rt, floating_cast(rt, DType::Float64), {root_name, "float64", true});
}
ModulePtr Module::half(Runtime& rt, const std::string& root_name) {
  return _apply(rt, floating_cast(rt, DType::Float16), {root_name, "float16", true});
}
ModulePtr Module::bfloat16(Runtime& rt, const std::string& root_name) {
  return _apply(rt, floating_cast(rt, DType::BFloat16), {root_name, "bfloat16", true});
}

ModulePtr Module::to_empty(Runtime& rt, const Device& device, bool recurse, const std::string& root_name) {
  // torch.empty_like(t, device=device): same shape and dtype, fresh storage, nothing copied. Unlike to(), it
  // allocates even when t is already there (a Parameter shared by two modules is re-allocated twice).
  return _apply(
      rt,
      [&rt, device](const TensorPtr& t) {
        return ::ds::empty(rt, t->sizes(), t->dtype(), device, /*pin_memory=*/false, t->is_virtual());
      },
      {root_name, "empty " + device.str(), recurse});
}

}  // namespace ds

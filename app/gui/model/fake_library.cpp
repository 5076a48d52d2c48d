// The torch / torch.nn surface of the preview runner: factories, Tensor.to and friends, nn layers,
// Module._apply (parameters keep identity, buffers are rebound, plain attributes stay), forward passes.
#include <cmath>
#include <functional>

#include "core/device.h"
#include "core/errors.h"
#include "gui/model/builder_lines.h"
#include "gui/model/fake_eval.h"

namespace ds::gui {

using fake::ModuleObj;
using fake::ModulePtr;
using fake::PyError;
using fake::TensorObj;
using fake::TensorPtr;
using fake::Value;
using fake::ValuePtr;
using Kind = Value::Kind;
using Kwargs = std::vector<std::pair<std::string, ValuePtr>>;

namespace {

[[noreturn]] void py_raise(const std::string& type, const std::string& message) { throw PyError(type, message); }

ValuePtr kwarg(const Kwargs& kw, const char* name) {
  for (const auto& [k, v] : kw)
    if (k == name) return v;
  return nullptr;
}

bool truthy(const ValuePtr& v) {
  if (!v) return false;
  if (v->kind == Kind::None) return false;
  if (v->kind == Kind::Bool || v->kind == Kind::Int || v->kind == Kind::Float) return v->num != 0;
  return true;
}

int64_t as_int(const ValuePtr& v, const char* what) {
  if (v->kind != Kind::Int && v->kind != Kind::Bool) py_raise("TypeError", std::string(what) + " must be int");
  return int64_t(v->num);
}

// Sizes given as f(2, 3), f((2, 3)), f([2, 3]) or f(torch.Size).
std::vector<int64_t> shape_from(const std::vector<ValuePtr>& args, size_t first, size_t last) {
  std::vector<int64_t> shape;
  if (last - first == 1 && (args[first]->kind == Kind::Tuple || args[first]->kind == Kind::List || args[first]->kind == Kind::Size)) {
    for (const ValuePtr& v : args[first]->items) shape.push_back(as_int(v, "size"));
  } else {
    for (size_t i = first; i < last; ++i) shape.push_back(as_int(args[i], "size"));
  }
  for (int64_t d : shape)
    if (d < 0) py_raise("RuntimeError", "Trying to create tensor with negative dimension " + std::to_string(d) + ": " + [&] {
                          std::string s = "[";
                          for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
                          return s + "]";
                        }());
  return shape;
}

// Nested list literal -> shape.
void list_shape(const ValuePtr& v, std::vector<int64_t>& shape, size_t depth) {
  if (v->kind != Kind::List && v->kind != Kind::Tuple) return;
  if (shape.size() <= depth) shape.push_back(int64_t(v->items.size()));
  if (!v->items.empty()) list_shape(v->items[0], shape, depth + 1);
}

bool all_ints(const ValuePtr& v) {
  if (v->kind == Kind::List || v->kind == Kind::Tuple) {
    for (const ValuePtr& i : v->items)
      if (!all_ints(i)) return false;
    return true;
  }
  return v->kind == Kind::Int || v->kind == Kind::Bool;
}

ModulePtr new_module(std::string type, std::vector<int64_t> cfg, std::string extra) {
  auto m = std::make_shared<ModuleObj>();
  m->type = std::move(type);
  m->cfg = std::move(cfg);
  m->extra = std::move(extra);
  return m;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

}  // namespace

TensorPtr FakeSession::Eval::make_tensor(Place place, DType dtype, std::vector<int64_t> shape, Role made_as) {
  auto t = std::make_shared<TensorObj>();
  t->dtype = dtype;
  t->shape = std::move(shape);
  t->made_as = made_as;
  const size_t bytes = size_t(t->numel()) * itemsize(dtype);
  // Nothing reads a preview tensor's values, so big ones are virtual: accounted and timed, no host RAM.
  const bool virtual_bytes = bytes > (256ull << 20) && place.kind != MemoryKind::Pinned;
  t->storage = s.runtime_->allocate(place, bytes, virtual_bytes);
  t->storage->set_view_info(dtype_name(dtype), t->shape);
  t->storage->set_role(made_as);
  return t;
}

Place FakeSession::Eval::resolve_place(const ValuePtr& device, Place current, bool non_blocking) {
  Device d;
  if (device->kind == Kind::Str || device->kind == Kind::Device) d = Device::parse(device->str);
  else if (device->kind == Kind::Int) d = Device::from_type_and_index("cuda", int64_t(device->num));
  else py_raise("TypeError", "to() received an invalid combination of arguments - got (" + type_name(device) + ")");
  d = s.runtime_->resolve(d);
  if (d.is_cpu()) {
    if (current.is_host()) return current;  // pinned stays pinned: it is already on `cpu`
    // Note [Pinned staging]: a non_blocking D2H copy lands in pinned host memory.
    return non_blocking ? Place::pinned() : Place::pageable();
  }
  if (!d.is_cuda()) py_raise("RuntimeError", "the preview runner models only cpu and cuda devices, got " + d.str());
  return Place::cuda(d.index());
}

TensorPtr FakeSession::Eval::convert(const TensorPtr& t, Place place, DType dtype, bool non_blocking, bool record_move) {
  // resolve_place() keeps a host tensor's own place for `cpu`, so only pin_memory() asks host -> pinned.
  const bool same_device = place == t->storage->place();
  if (same_device && dtype == t->dtype) return t;  // Tensor.to returns self when nothing changes
  auto out = std::make_shared<TensorObj>();
  out->dtype = dtype;
  out->shape = t->shape;
  // Pinned staging is about where bytes sit: a copy out of pinned memory is a plain tensor again.
  const auto moved_role = [&](Role r) {
    return place.kind == MemoryKind::Pinned ? Role::PinnedStaging : r == Role::PinnedStaging ? Role::Tensor : r;
  };
  out->made_as = moved_role(t->made_as);
  const size_t bytes = size_t(out->numel()) * itemsize(dtype);
  const Place target = same_device ? t->storage->place() : place;
  out->storage = s.runtime_->allocate(target, bytes, t->storage->is_virtual() && target.kind != MemoryKind::Pinned);
  out->storage->set_view_info(dtype_name(dtype), out->shape);
  out->storage->set_role(moved_role(t->storage->role()));
  out->storage->set_owner(s.pending_target_.empty() ? t->storage->owner() : s.pending_target_);
  if (s.runtime_->owner_hint().empty()) s.runtime_->set_owner_hint(t->storage->owner());
  s.runtime_->copy_bytes(*out->storage, 0, *t->storage, 0, std::min(bytes, size_t(t->storage->nbytes())), non_blocking);
  if (record_move && !same_device) out->storage->set_moved_from(t->storage->id());
  return out;
}

void FakeSession::Eval::module_apply(const ModulePtr& m, const std::string& path, const ValuePtr& device, bool has_dtype,
                                     DType dtype, bool non_blocking) {
  // Module._apply: children first, then own parameters (identity kept: param.data = fn(param)), then buffers
  // (rebound to new tensors). Plain tensor attributes are not touched.
  for (auto& [name, child] : m->children) module_apply(child, path + "." + name, device, has_dtype, dtype, non_blocking);
  auto fn = [&](const TensorPtr& t, const std::string& name) {
    const Place place = device ? resolve_place(device, t->storage->place(), non_blocking) : t->storage->place();
    const DType dt = has_dtype && is_floating_point(t->dtype) ? dtype : t->dtype;
    s.runtime_->set_owner_hint(path + "." + name);
    TensorPtr r = convert(t, place, dt, non_blocking, true);
    if (r != t) r->storage->set_owner(path + "." + name);
    s.runtime_->set_owner_hint("");
    return r;
  };
  for (auto& [name, p] : m->params)
    if (p) {
      TensorPtr moved = fn(p, name);
      p->storage = moved->storage;
      p->dtype = moved->dtype;
    }
  for (auto& [name, b] : m->buffers)
    if (b) {
      TensorPtr moved = fn(b, name);
      if (moved != b) {
        auto nb = std::make_shared<TensorObj>(*moved);
        b = nb;
      }
    }
}

ValuePtr FakeSession::Eval::attribute(const ValuePtr& obj, const std::string& name) {
  switch (obj->kind) {
    case Kind::Namespace: {
      static const std::pair<const char*, DType> dtypes[] = {
          {"float32", DType::Float32}, {"float", DType::Float32}, {"float16", DType::Float16}, {"half", DType::Float16},
          {"bfloat16", DType::BFloat16}, {"float64", DType::Float64}, {"double", DType::Float64}, {"int64", DType::Int64},
          {"long", DType::Int64}, {"int32", DType::Int32}, {"int", DType::Int32}, {"int8", DType::Int8},
          {"uint8", DType::UInt8}, {"bool", DType::Bool}, {"int16", DType::Int16}};
      if (obj->str == "torch")
        for (const auto& [n, d] : dtypes)
          if (name == n) return Value::of_dtype(d);
      return Value::ns(obj->str + "." + name);
    }
    case Kind::Tensor: {
      const TensorPtr& t = obj->tensor;
      if (name == "device") return Value::device(device_str(t));
      if (name == "dtype") return Value::of_dtype(t->dtype);
      if (name == "shape") {
        auto v = std::make_shared<Value>();
        v->kind = Kind::Size;
        for (int64_t d : t->shape) v->items.push_back(Value::integer(d));
        return v;
      }
      if (name == "is_cuda") return Value::boolean(t->storage->place().kind == MemoryKind::Device);
      if (name == "ndim") return Value::integer(int64_t(t->shape.size()));
      if (name == "grad") return Value::none();
      if (name == "requires_grad" || name == "is_leaf") return Value::boolean(t->parameter || name == "is_leaf");
      if (name == "data") {
        auto d = std::make_shared<TensorObj>(*t);  // a new tensor sharing the storage
        d->parameter = false;
        d->made_as = Role::Tensor;
        return Value::of(d);
      }
      static const char* methods[] = {"to", "cuda", "cpu", "half", "float", "double", "bfloat16", "long", "int",
                                      "pin_memory", "is_pinned", "detach", "clone", "contiguous", "size", "numel",
                                      "dim", "view", "reshape", "t", "sum", "mean", "relu", "item", "copy_", "zero_",
                                      "fill_", "normal_", "uniform_", "requires_grad_", "element_size", "data_ptr",
                                      "get_device", "flatten"};
      for (const char* m : methods)
        if (name == m) return Value::method(obj, name);
      py_raise("AttributeError", "'" + type_name(obj) + "' object has no attribute '" + name + "'");
    }
    case Kind::Module: {
      const ModuleObj& m = *obj->module;
      for (const auto& [k, v] : m.attrs)
        if (k == name) return v;
      for (const auto& [k, p] : m.params)
        if (k == name) return p ? Value::of(p) : Value::none();
      for (const auto& [k, b] : m.buffers)
        if (k == name) return b ? Value::of(b) : Value::none();
      for (const auto& [k, c] : m.children)
        if (k == name) return Value::of(c);
      static const char* methods[] = {"to", "cuda", "cpu", "half", "float", "double", "bfloat16", "register_buffer",
                                      "register_parameter", "parameters", "named_parameters", "buffers", "children",
                                      "eval", "train", "zero_grad", "add_module", "append", "state_dict", "forward"};
      for (const char* mm : methods)
        if (name == mm) return Value::method(obj, name);
      py_raise("AttributeError", "'" + m.type + "' object has no attribute '" + name + "'");
    }
    case Kind::Device:
      if (name == "type") return Value::string(obj->str.substr(0, obj->str.find(':')));
      if (name == "index") {
        const size_t c = obj->str.find(':');
        return c == std::string::npos ? Value::none() : Value::integer(std::stoll(obj->str.substr(c + 1)));
      }
      break;
    case Kind::DType:
      if (name == "is_floating_point") return Value::boolean(is_floating_point(obj->dtype));
      if (name == "itemsize") return Value::integer(int64_t(itemsize(obj->dtype)));
      break;
    case Kind::List:
      if (name == "append") return Value::method(obj, name);
      break;
    default:
      break;
  }
  py_raise("AttributeError", "'" + type_name(obj) + "' object has no attribute '" + name + "'");
}

ValuePtr FakeSession::Eval::call_torch(const std::string& path, std::vector<ValuePtr>& args, Kwargs& kw) {
  Runtime& rt = *s.runtime_;
  std::string fn = path;
  if (fn.rfind("torch.", 0) == 0) fn = fn.substr(6);
  else py_raise("AttributeError", "module has no attribute '" + path.substr(path.rfind('.') + 1) + "'");

  auto factory_place = [&](const ValuePtr& device, bool pin) {
    Place p = device && device->kind != Kind::None ? resolve_place(device, Place::pageable(), false) : Place::pageable();
    if (pin) {
      if (p.kind == MemoryKind::Device) py_raise("RuntimeError", "Only dense CPU tensors can be pinned");
      p = Place::pinned();
    }
    return p;
  };
  auto factory_dtype = [&](DType fallback) {
    ValuePtr d = kwarg(kw, "dtype");
    if (!d || d->kind == Kind::None) return fallback;
    if (d->kind != Kind::DType) py_raise("TypeError", "dtype must be torch.dtype, not " + type_name(d));
    return d->dtype;
  };
  auto make = [&](std::vector<int64_t> shape, DType fallback) {
    const bool pin = truthy(kwarg(kw, "pin_memory"));
    const Place place = factory_place(kwarg(kw, "device"), pin);
    TensorPtr t = make_tensor(place, factory_dtype(fallback), std::move(shape), pin ? Role::PinnedStaging : Role::Tensor);
    t->storage->set_owner(s.pending_target_);
    return Value::of(t);
  };

  if (fn == "randn" || fn == "rand" || fn == "zeros" || fn == "ones" || fn == "empty")
    return make(shape_from(args, 0, args.size()), DType::Float32);
  if (fn == "full") {
    if (args.size() != 2) py_raise("TypeError", "full() missing required argument 'fill_value'");
    return make(shape_from(args, 0, 1), args[1]->kind == Kind::Int ? DType::Int64 : DType::Float32);
  }
  if (fn == "arange") {
    if (args.empty()) py_raise("TypeError", "arange() missing required argument 'end'");
    const bool floaty = args.back()->kind == Kind::Float;
    const int64_t n = args.size() == 1 ? int64_t(args[0]->num) : int64_t(args[1]->num - args[0]->num);
    return make({std::max<int64_t>(n, 0)}, floaty ? DType::Float32 : DType::Int64);
  }
  if (fn == "tensor") {
    if (args.size() != 1) py_raise("TypeError", "tensor() takes 1 positional argument but " + std::to_string(args.size()) + " were given");
    std::vector<int64_t> shape;
    list_shape(args[0], shape, 0);
    return make(shape, all_ints(args[0]) ? DType::Int64 : DType::Float32);
  }
  if (fn == "zeros_like" || fn == "ones_like" || fn == "randn_like" || fn == "empty_like" || fn == "rand_like") {
    if (args.size() != 1 || args[0]->kind != Kind::Tensor) py_raise("TypeError", fn + "() argument 'input' must be Tensor");
    const TensorPtr& t = args[0]->tensor;
    Place place = t->storage->place();
    if (ValuePtr d = kwarg(kw, "device"); d && d->kind != Kind::None) place = resolve_place(d, place, false);
    if (place.kind == MemoryKind::Pinned) place = Place::pageable();  // *_like does not keep pinning
    return Value::of(make_tensor(place, factory_dtype(t->dtype), t->shape, Role::Tensor));
  }
  if (fn == "device") {
    if (args.size() == 1 && args[0]->kind == Kind::Str) return Value::device(Device::parse(args[0]->str).str());
    if (args.size() == 2 && args[0]->kind == Kind::Str && args[1]->kind == Kind::Int)
      return Value::device(Device::from_type_and_index(args[0]->str, int64_t(args[1]->num)).str());
    py_raise("TypeError", "device() received an invalid combination of arguments");
  }
  if (fn == "manual_seed" || fn == "set_grad_enabled") return Value::none();
  if (fn == "is_tensor") return Value::boolean(args.size() == 1 && args[0]->kind == Kind::Tensor);

  // torch.cuda
  if (fn == "cuda.is_available") return Value::boolean(rt.device_count() > 0);
  if (fn == "cuda.device_count") return Value::integer(rt.device_count());
  if (fn == "cuda.current_device") return Value::integer(rt.current_device());
  if (fn == "cuda.set_device") {
    if (args.size() != 1) py_raise("TypeError", "set_device() takes 1 argument");
    rt.set_current_device(args[0]->kind == Kind::Int ? int(args[0]->num) : Device::parse(args[0]->str).index());
    return Value::none();
  }
  if (fn == "cuda.synchronize") {
    rt.synchronize();
    return Value::none();
  }
  auto device_arg = [&]() {
    if (args.empty() || args[0]->kind == Kind::None) return rt.current_device();
    if (args[0]->kind == Kind::Int) return int(args[0]->num);
    return rt.resolve(Device::parse(args[0]->str)).index();
  };
  if (fn == "cuda.empty_cache") {
    for (int d = 0; d < rt.device_count(); ++d) rt.device_allocator(d).empty_cache();
    return Value::none();
  }
  if (fn == "cuda.memory_allocated" || fn == "cuda.max_memory_allocated") {
    const auto st = rt.device_allocator(device_arg()).stats();
    return Value::integer(int64_t(fn == "cuda.memory_allocated" ? st.allocated : st.max_allocated));
  }
  if (fn == "cuda.memory_reserved") return Value::integer(int64_t(rt.device_allocator(device_arg()).stats().reserved));

  // torch.nn
  auto bias_flag = [&]() { ValuePtr b = kwarg(kw, "bias"); return !b || truthy(b); };
  auto want = [&](size_t n, const char* name) {
    if (args.size() < n) py_raise("TypeError", std::string(name) + "() missing required positional arguments");
    for (size_t i = 0; i < n; ++i) as_int(args[i], "argument");
  };
  // Layers are created on the CPU (or device=...) like PyTorch's constructors.
  auto param = [&](const ModulePtr& m, const char* name, std::vector<int64_t> shape, DType dt = DType::Float32) {
    ValuePtr dev = kwarg(kw, "device");
    TensorPtr t = make_tensor(factory_place(dev, false), dt, std::move(shape), Role::Parameter);
    t->parameter = true;
    m->params.emplace_back(name, t);
  };
  auto buffer = [&](const ModulePtr& m, const char* name, std::vector<int64_t> shape, DType dt = DType::Float32) {
    TensorPtr t = make_tensor(factory_place(kwarg(kw, "device"), false), dt, std::move(shape), Role::Buffer);
    m->buffers.emplace_back(name, t);
  };
  if (fn == "nn.Linear") {
    want(2, "Linear");
    const int64_t in = as_int(args[0], "in_features"), out = as_int(args[1], "out_features");
    const bool bias = bias_flag();
    ModulePtr m = new_module("Linear", {in, out}, "in_features=" + std::to_string(in) + ", out_features=" + std::to_string(out) +
                                                       ", bias=" + (bias ? "True" : "False"));
    param(m, "weight", {out, in});
    if (bias) param(m, "bias", {out});
    else m->params.emplace_back("bias", nullptr);
    return Value::of(m);
  }
  if (fn == "nn.Conv2d") {
    want(3, "Conv2d");
    const int64_t cin = as_int(args[0], "in_channels"), cout = as_int(args[1], "out_channels"), k = as_int(args[2], "kernel_size");
    const ValuePtr pad = kwarg(kw, "padding");
    const int64_t p = pad && pad->kind == Kind::Int ? int64_t(pad->num) : 0;
    const bool bias = bias_flag();
    ModulePtr m = new_module("Conv2d", {cin, cout, k, p}, std::to_string(cin) + ", " + std::to_string(cout) + ", kernel_size=(" +
                                                               std::to_string(k) + ", " + std::to_string(k) + "), stride=(1, 1)" +
                                                               (p ? ", padding=(" + std::to_string(p) + ", " + std::to_string(p) + ")" : "") +
                                                               (bias ? "" : ", bias=False"));
    param(m, "weight", {cout, cin, k, k});
    if (bias) param(m, "bias", {cout});
    else m->params.emplace_back("bias", nullptr);
    return Value::of(m);
  }
  if (fn == "nn.BatchNorm1d" || fn == "nn.BatchNorm2d") {
    want(1, "BatchNorm");
    const int64_t n = as_int(args[0], "num_features");
    ModulePtr m = new_module(fn.substr(3), {n}, std::to_string(n) + ", eps=1e-05, momentum=0.1, affine=True, track_running_stats=True");
    param(m, "weight", {n});
    param(m, "bias", {n});
    buffer(m, "running_mean", {n});
    buffer(m, "running_var", {n});
    buffer(m, "num_batches_tracked", {}, DType::Int64);
    return Value::of(m);
  }
  if (fn == "nn.LayerNorm") {
    want(1, "LayerNorm");
    const int64_t n = as_int(args[0], "normalized_shape");
    ModulePtr m = new_module("LayerNorm", {n}, "(" + std::to_string(n) + ",), eps=1e-05, elementwise_affine=True");
    param(m, "weight", {n});
    param(m, "bias", {n});
    return Value::of(m);
  }
  if (fn == "nn.Embedding") {
    want(2, "Embedding");
    const int64_t n = as_int(args[0], "num_embeddings"), d = as_int(args[1], "embedding_dim");
    ModulePtr m = new_module("Embedding", {n, d}, std::to_string(n) + ", " + std::to_string(d));
    param(m, "weight", {n, d});
    return Value::of(m);
  }
  if (fn == "nn.ReLU" || fn == "nn.GELU" || fn == "nn.Tanh" || fn == "nn.Sigmoid" || fn == "nn.Identity" || fn == "nn.Flatten")
    return Value::of(new_module(fn.substr(3), {}, fn == "nn.GELU" ? "approximate='none'" : fn == "nn.Flatten" ? "start_dim=1, end_dim=-1" : ""));
  if (fn == "nn.Dropout") return Value::of(new_module("Dropout", {}, "p=0.5, inplace=False"));
  if (fn == "nn.Module") return Value::of(new_module("Module", {}, ""));
  if (fn == "nn.Sequential" || fn == "nn.ModuleList") {
    ModulePtr m = new_module(fn.substr(3), {}, "");
    std::vector<ValuePtr> items = args;
    if (fn == "nn.ModuleList") {
      items.clear();
      if (!args.empty()) {
        if (args[0]->kind != Kind::List && args[0]->kind != Kind::Tuple) py_raise("TypeError", "ModuleList expects a list of modules");
        items = args[0]->items;
      }
    }
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i]->kind != Kind::Module) py_raise("TypeError", type_name(items[i]) + " is not a Module subclass");
      m->children.emplace_back(std::to_string(i), items[i]->module);
    }
    return Value::of(m);
  }
  if (fn == "nn.Parameter" || fn == "nn.parameter.Parameter") {
    if (args.empty() || args[0]->kind != Kind::Tensor) py_raise("TypeError", "Parameter() expects a Tensor");
    auto p = std::make_shared<TensorObj>(*args[0]->tensor);  // shares the data's storage
    p->parameter = true;
    p->storage->set_role(Role::Parameter);
    return Value::of(p);
  }
  if (fn.rfind("nn.", 0) == 0 || fn.rfind("optim.", 0) == 0)
    py_raise("NotImplementedError", "the preview runner does not model torch." + fn + " yet (the embedded Python interpreter is not built in)");
  py_raise("AttributeError", "module 'torch' has no attribute '" + fn.substr(fn.rfind('.') + 1) + "'");
}

ValuePtr FakeSession::Eval::call_tensor_method(const ValuePtr& self, const std::string& name, std::vector<ValuePtr>& args, Kwargs& kw) {
  const TensorPtr& t = self->tensor;
  const Place here = t->storage->place();
  const bool nb = truthy(kwarg(kw, "non_blocking"));
  auto wrap = [&](const TensorPtr& r) { return r == t ? self : Value::of(r); };
  if (name == "to") {
    ValuePtr device = kwarg(kw, "device");
    DType dtype = t->dtype;
    for (const ValuePtr& a : args) {
      if (a->kind == Kind::DType) dtype = a->dtype;
      else if (a->kind == Kind::Tensor) {
        device = Value::device(device_str(a->tensor));
        dtype = a->tensor->dtype;
      } else if (a->kind == Kind::Str || a->kind == Kind::Device || a->kind == Kind::Int) device = a;
      else if (a->kind != Kind::None) py_raise("TypeError", "to() received an invalid combination of arguments - got (" + type_name(a) + ")");
    }
    if (ValuePtr d = kwarg(kw, "dtype"); d && d->kind == Kind::DType) dtype = d->dtype;
    const Place place = device && device->kind != Kind::None ? resolve_place(device, here, nb) : here;
    return wrap(convert(t, place, dtype, nb, true));
  }
  if (name == "cuda") {
    ValuePtr device = args.empty() ? kwarg(kw, "device") : args[0];
    if (!device || device->kind == Kind::None) device = Value::string("cuda");
    else if (device->kind == Kind::Int) device = Value::string("cuda:" + std::to_string(int64_t(device->num)));
    return wrap(convert(t, resolve_place(device, here, nb), t->dtype, nb, true));
  }
  if (name == "cpu") return wrap(convert(t, resolve_place(Value::string("cpu"), here, false), t->dtype, false, true));
  if (name == "half" || name == "float" || name == "double" || name == "bfloat16" || name == "long" || name == "int") {
    const DType d = name == "half" ? DType::Float16 : name == "float" ? DType::Float32 : name == "double" ? DType::Float64
                  : name == "bfloat16" ? DType::BFloat16 : name == "long" ? DType::Int64 : DType::Int32;
    return wrap(convert(t, here, d, false, false));
  }
  if (name == "pin_memory") {
    if (here.kind == MemoryKind::Pinned) return self;
    if (here.kind == MemoryKind::Device)
      py_raise("RuntimeError", "cannot pin '" + std::string("torch.cuda.") + legacy_type_name(t->dtype) + "' only dense CPU tensors can be pinned");
    TensorPtr r = convert(t, Place::pinned(), t->dtype, false, false);
    r->made_as = Role::PinnedStaging;
    r->storage->set_role(Role::PinnedStaging);
    return Value::of(r);
  }
  if (name == "is_pinned") return Value::boolean(here.kind == MemoryKind::Pinned);
  if (name == "detach" || name == "contiguous" || name == "requires_grad_" || name == "zero_" || name == "fill_" ||
      name == "normal_" || name == "uniform_") {
    if (name == "detach") {
      auto d = std::make_shared<TensorObj>(*t);  // shares the storage; a plain tensor, not a Parameter
      d->parameter = false;
      d->made_as = Role::Tensor;
      return Value::of(d);
    }
    return self;
  }
  if (name == "copy_") {
    if (args.empty() || args[0]->kind != Kind::Tensor) py_raise("TypeError", "copy_() expects a Tensor");
    const TensorPtr& src = args[0]->tensor;
    s.runtime_->copy_bytes(*t->storage, 0, *src->storage, 0, std::min(t->storage->nbytes(), src->storage->nbytes()), nb);
    return self;
  }
  if (name == "clone") return Value::of(make_tensor(here, t->dtype, t->shape, Role::Activation));
  if (name == "size") {
    if (!args.empty()) {
      int64_t d = as_int(args[0], "dim");
      if (d < 0) d += int64_t(t->shape.size());
      if (d < 0 || d >= int64_t(t->shape.size())) py_raise("IndexError", "Dimension out of range");
      return Value::integer(t->shape[size_t(d)]);
    }
    return attribute(self, "shape");
  }
  if (name == "numel") return Value::integer(t->numel());
  if (name == "dim") return Value::integer(int64_t(t->shape.size()));
  if (name == "element_size") return Value::integer(int64_t(itemsize(t->dtype)));
  if (name == "get_device") return Value::integer(here.kind == MemoryKind::Device ? here.device : -1);
  if (name == "data_ptr") return Value::integer(int64_t(reinterpret_cast<uintptr_t>(t->storage->data())));
  if (name == "item") return Value::real(0.0);
  if (name == "view" || name == "reshape" || name == "flatten" || name == "t") {
    auto v = std::make_shared<TensorObj>(*t);  // a view onto the same storage
    v->parameter = false;
    if (name == "t" && v->shape.size() == 2) std::swap(v->shape[0], v->shape[1]);
    else if (name == "flatten") v->shape = {t->numel()};
    else if (name != "t") {
      std::vector<int64_t> shape = shape_from(args, 0, args.size());
      int64_t known = 1, infer = -1;
      for (size_t i = 0; i < shape.size(); ++i)
        if (shape[i] == -1) infer = int64_t(i);
        else known *= shape[i];
      if (infer >= 0 && known > 0) shape[size_t(infer)] = t->numel() / known;
      int64_t n = 1;
      for (int64_t d : shape) n *= d;
      if (n != t->numel()) py_raise("RuntimeError", "shape '[" + shape_text(shape) + "]' is invalid for input of size " + std::to_string(t->numel()));
      v->shape = shape;
    }
    return Value::of(v);
  }
  if (name == "sum" || name == "mean" || name == "relu")
    return Value::of(make_tensor(here.kind == MemoryKind::Pinned ? Place::pageable() : here, t->dtype,
                                 name == "relu" ? t->shape : std::vector<int64_t>{}, Role::Activation));
  py_raise("AttributeError", "'Tensor' object has no attribute '" + name + "'");
}

ValuePtr FakeSession::Eval::call_module_method(const ValuePtr& self, const std::string& name, std::vector<ValuePtr>& args, Kwargs& kw) {
  const ModulePtr& m = self->module;
  const bool nb = truthy(kwarg(kw, "non_blocking"));
  // Owner names come from the expression the method was called on ("model", "net[0]"); for a module
  // made and moved in one expression (`m = nn.Linear(4, 2).cuda()`) the name it is bound to.
  std::string path = is_reference(s.pending_module_path_) ? s.pending_module_path_ : s.pending_target_;
  if (path.empty()) path = "module";
  auto apply = [&](const ValuePtr& device, bool has_dtype, DType dtype, const std::string& target) {
    s.runtime_->note_module_move(true, path, target);
    try {
      module_apply(m, path, device, has_dtype, dtype, nb);
    } catch (...) {
      s.runtime_->note_module_move(false, path, target);  // partly moved, shown honestly
      throw;
    }
    s.runtime_->note_module_move(false, path, target);
    return self;  // Module.to returns self
  };
  if (name == "to") {
    ValuePtr device = kwarg(kw, "device");
    bool has_dtype = false;
    DType dtype = DType::Float32;
    for (const ValuePtr& a : args) {
      if (a->kind == Kind::DType) {
        has_dtype = true;
        dtype = a->dtype;
      } else if (a->kind == Kind::Tensor) {
        device = Value::device(device_str(a->tensor));
      } else {
        device = a;
      }
    }
    if (ValuePtr d = kwarg(kw, "dtype"); d && d->kind == Kind::DType) {
      has_dtype = true;
      dtype = d->dtype;
    }
    if (has_dtype && !is_floating_point(dtype))
      py_raise("TypeError", "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch." + dtype_name(dtype));
    if (device && device->kind == Kind::Int) device = Value::string("cuda:" + std::to_string(int64_t(device->num)));
    if (device) resolve_place(device, Place::pageable(), nb);  // validate before anything moves
    return apply(device, has_dtype, dtype, device ? str(device) : "torch." + dtype_name(dtype));
  }
  if (name == "cuda") {
    ValuePtr device = args.empty() ? Value::string("cuda") : args[0];
    if (device->kind == Kind::Int) device = Value::string("cuda:" + std::to_string(int64_t(device->num)));
    resolve_place(device, Place::pageable(), nb);
    return apply(device, false, DType::Float32, str(device));
  }
  if (name == "cpu") return apply(Value::string("cpu"), false, DType::Float32, "cpu");
  if (name == "half") return apply(nullptr, true, DType::Float16, "torch.float16");
  if (name == "float") return apply(nullptr, true, DType::Float32, "torch.float32");
  if (name == "double") return apply(nullptr, true, DType::Float64, "torch.float64");
  if (name == "bfloat16") return apply(nullptr, true, DType::BFloat16, "torch.bfloat16");
  if (name == "eval" || name == "train" || name == "zero_grad") return name == "zero_grad" ? Value::none() : self;
  if (name == "register_buffer" || name == "register_parameter") {
    const char* what = name == "register_buffer" ? "buffer" : "parameter";
    if (args.size() < 2) py_raise("TypeError", name + "() missing required positional argument");
    if (args[0]->kind != Kind::Str) py_raise("TypeError", std::string(what) + " name should be a string. Got " + type_name(args[0]));
    const std::string& n = args[0]->str;
    if (n.find('.') != std::string::npos) py_raise("KeyError", std::string("\"") + what + " name can't contain \".\"\"");
    if (n.empty()) py_raise("KeyError", std::string("\"") + what + " name can't be empty string \"\"\"");
    if (args[1]->kind != Kind::Tensor && args[1]->kind != Kind::None)
      py_raise("TypeError", "cannot assign '" + type_name(args[1]) + "' object to " + what + " '" + n + "' (torch " +
                                (name == "register_buffer" ? "Tensor" : "nn.Parameter") + " or None required)");
    auto& list = name == "register_buffer" ? m->buffers : m->params;
    auto& other = name == "register_buffer" ? m->params : m->buffers;
    for (const auto& [k, v] : other)
      if (k == n) py_raise("KeyError", "\"attribute '" + n + "' already exists\"");
    for (const auto& [k, v] : m->children)
      if (k == n) py_raise("KeyError", "\"attribute '" + n + "' already exists\"");
    TensorPtr t = args[1]->kind == Kind::Tensor ? args[1]->tensor : nullptr;
    if (t && name == "register_parameter" && !t->parameter)
      py_raise("TypeError", "cannot assign 'torch." + legacy_type_name(t->dtype) + "' object to parameter '" + n + "' (torch.nn.Parameter or None required)");
    for (auto& [k, v] : list)
      if (k == n) {
        v = t;
        return Value::none();
      }
    list.emplace_back(n, t);
    return Value::none();
  }
  if (name == "parameters" || name == "buffers" || name == "children" || name == "named_parameters" || name == "state_dict") {
    auto v = std::make_shared<Value>();
    v->kind = Kind::List;
    std::function<void(const ModulePtr&, const std::string&)> walk = [&](const ModulePtr& mm, const std::string& prefix) {
      if (name == "children") {
        for (auto& [k, c] : mm->children) v->items.push_back(Value::of(c));
        return;
      }
      if (name != "buffers")
        for (auto& [k, p] : mm->params)
          if (p) {
            if (name == "parameters") v->items.push_back(Value::of(p));
            else {
              auto pair = std::make_shared<Value>();
              pair->kind = Kind::Tuple;
              pair->items = {Value::string(prefix + k), Value::of(p)};
              v->items.push_back(pair);
            }
          }
      if (name == "buffers" || name == "state_dict")
        for (auto& [k, b] : mm->buffers)
          if (b) {
            if (name == "buffers") v->items.push_back(Value::of(b));
            else {
              auto pair = std::make_shared<Value>();
              pair->kind = Kind::Tuple;
              pair->items = {Value::string(prefix + k), Value::of(b)};
              v->items.push_back(pair);
            }
          }
      for (auto& [k, c] : mm->children) walk(c, prefix + k + ".");
    };
    walk(m, "");
    return v;
  }
  if (name == "append" && m->type == "ModuleList" && args.size() == 1 && args[0]->kind == Kind::Module) {
    m->children.emplace_back(std::to_string(m->children.size()), args[0]->module);
    return self;
  }
  if (name == "add_module" && args.size() == 2 && args[0]->kind == Kind::Str) {
    set_module_attr(m, args[0]->str, args[1]);
    return Value::none();
  }
  if (name == "forward" && args.size() == 1) return forward(m, args[0]);
  py_raise("AttributeError", "'" + m->type + "' object has no attribute '" + name + "'");
}

void FakeSession::Eval::set_module_attr(const ModulePtr& m, const std::string& name, const ValuePtr& value) {
  // Module.__setattr__'s order (SEMANTICS §4).
  auto remove = [&](auto& list) {
    for (auto it = list.begin(); it != list.end(); ++it)
      if (it->first == name) {
        list.erase(it);
        return;
      }
  };
  auto find_in = [&](auto& list) {
    for (auto& kv : list)
      if (kv.first == name) return &kv;
    return static_cast<decltype(&list.front())>(nullptr);
  };
  if (value->kind == Kind::Tensor && value->tensor->parameter) {
    remove(m->attrs);
    remove(m->buffers);
    remove(m->children);
    if (auto* p = find_in(m->params)) p->second = value->tensor;
    else m->params.emplace_back(name, value->tensor);
    return;
  }
  if (auto* p = find_in(m->params); p && value->kind != Kind::None) {
    py_raise("TypeError", "cannot assign '" + type_name(value) + "' as parameter '" + name + "' (torch.nn.Parameter or None expected)");
  }
  if (value->kind == Kind::Module) {
    remove(m->attrs);
    remove(m->params);
    remove(m->buffers);
    if (auto* c = find_in(m->children)) c->second = value->module;
    else m->children.emplace_back(name, value->module);
    return;
  }
  if (find_in(m->children) && value->kind != Kind::None)
    py_raise("TypeError", "cannot assign '" + type_name(value) + "' as child module '" + name + "' (torch.nn.Module or None expected)");
  if (auto* b = find_in(m->buffers)) {
    if (value->kind != Kind::Tensor && value->kind != Kind::None)
      py_raise("TypeError", "cannot assign '" + type_name(value) + "' as buffer '" + name + "' (torch.Tensor or None expected)");
    b->second = value->kind == Kind::Tensor ? value->tensor : nullptr;
    return;
  }
  // A plain attribute - a brand-new tensor here is the "does not move with .to()" trap.
  if (auto* a = find_in(m->attrs)) a->second = value;
  else m->attrs.emplace_back(name, value);
}

ValuePtr FakeSession::Eval::forward(const ModulePtr& m, const ValuePtr& xv) {
  if (m->type == "Sequential") {
    ValuePtr x = xv;
    for (auto& [k, c] : m->children) x = forward(c, x);
    return x;
  }
  if (xv->kind != Kind::Tensor)
    py_raise("TypeError", m->type + ".forward() expects a Tensor, got " + type_name(xv));
  const TensorPtr& x = xv->tensor;
  const std::string xd = device_str(x);
  auto check_param = [&](const TensorPtr& w, const char* arg_for_input, const char* method) {
    if (!w) return;
    const std::string wd = device_str(w);
    if (wd == xd) return;
    const bool cuda_kernel = wd != "cpu" || xd != "cpu";
    const std::string kernel = std::string("wrapper_") + (cuda_kernel ? "CUDA_" : "CPU_") + method;
    if (xd == "cpu")
      py_raise("RuntimeError", "Expected all tensors to be on the same device, but got " + std::string(arg_for_input) + " is on cpu, different from other tensors on " + wd + " (when checking argument in method " + kernel + ")");
    py_raise("RuntimeError", "Expected all tensors to be on the same device, but got " + std::string(arg_for_input) + " is on " + xd + ", different from other tensors on " + wd + " (when checking argument in method " + kernel + ")");
  };
  auto param = [&](const char* n) -> TensorPtr {
    for (auto& [k, p] : m->params)
      if (k == n) return p;
    return nullptr;
  };
  const Place out_place = x->storage->place().kind == MemoryKind::Pinned ? Place::pageable() : x->storage->place();
  std::vector<int64_t> shape = x->shape;
  if (m->type == "Linear") {
    check_param(param("weight"), "mat1", "addmm");
    check_param(param("bias"), "mat1", "addmm");
    if (shape.empty() || shape.back() != m->cfg[0])
      py_raise("RuntimeError", "mat1 and mat2 shapes cannot be multiplied (" + std::to_string(shape.size() > 1 ? x->numel() / std::max<int64_t>(shape.back(), 1) : 1) +
                                   "x" + std::to_string(shape.empty() ? 0 : shape.back()) + " and " + std::to_string(m->cfg[0]) + "x" + std::to_string(m->cfg[1]) + ")");
    shape.back() = m->cfg[1];
  } else if (m->type == "Conv2d") {
    check_param(param("weight"), "input", "convolution");
    if (shape.size() != 4 || shape[1] != m->cfg[0])
      py_raise("RuntimeError", "Given groups=1, weight of size [" + std::to_string(m->cfg[1]) + ", " + std::to_string(m->cfg[0]) + ", " +
                                   std::to_string(m->cfg[2]) + ", " + std::to_string(m->cfg[2]) + "], expected input[" + shape_text(shape) +
                                   "] to have " + std::to_string(m->cfg[0]) + " channels");
    shape[1] = m->cfg[1];
    shape[2] = shape[2] - m->cfg[2] + 1 + 2 * m->cfg[3];
    shape[3] = shape[3] - m->cfg[2] + 1 + 2 * m->cfg[3];
  } else if (m->type == "Embedding") {
    check_param(param("weight"), "index", "_index_select");
    shape.push_back(m->cfg[1]);
  } else if (m->type == "LayerNorm" || m->type == "BatchNorm1d" || m->type == "BatchNorm2d") {
    check_param(param("weight"), "input", m->type == "LayerNorm" ? "_native_layer_norm" : "_native_batch_norm_legit");
  } else if (m->type == "Flatten") {
    if (shape.size() > 1) shape = {shape[0], x->numel() / std::max<int64_t>(shape[0], 1)};
  } else if (m->type == "ModuleList" || m->type == "Module") {
    py_raise("NotImplementedError", "Module [" + m->type + "] is missing the required \"forward\" function");
  }
  const DType dt = m->type == "Embedding" ? (param("weight") ? param("weight")->dtype : DType::Float32) : x->dtype;
  return Value::of(make_tensor(out_place, dt, shape, Role::Activation));
}

}  // namespace ds::gui

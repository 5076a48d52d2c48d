// TensorImpl bindings and the tensor operations that move bytes: factories, to (with PyTorch's argument
// forms and errors), cuda, cpu, pin_memory, copy_, contiguous, clone, views. Kept lean: Tensor.to's fast
// path is parse -> ds::to -> return (the Python side wraps), see the per-parameter benchmark.
#include <pybind11/stl.h>

#include <iterator>

#include "bindings_common.h"
#include "core/errors.h"
#include "tensor/tensor_ops.h"
#include "to_arguments.h"
#include "copy_origin.h"
#include "fast_entry.h"

namespace ds::python {
namespace {

// Interned attribute names (built once; the interpreter keeps them alive).
PyObject* attr_name(const char* s) {
  PyObject* o = PyUnicode_InternFromString(s);
  return o;
}

Shape shape_from_py(py::handle obj) {
  Shape out;
  for (py::handle h : obj) out.push_back(h.cast<int64_t>());
  return out;
}

std::string list_str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// A view must stay inside its storage (numpy reads it in place): PyTorch's setStorage / as_strided checks.
void check_view_bounds(const TensorImpl& self, const Shape& sizes, const Shape& strides, int64_t offset) {
  check(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  for (int64_t st : strides)
    check(st >= 0, "as_strided: Negative strides are not supported at the moment, got strides: " + list_str(strides));
  check(offset >= 0, "Tensor: invalid storage offset " + std::to_string(offset));
  __int128 last = offset;
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    check(sizes[i] >= 0, "Trying to create tensor with negative dimension " + std::to_string(sizes[i]) + ": " +
                             list_str(sizes));
    if (sizes[i] == 0) empty = true;
    else last += __int128(sizes[i] - 1) * strides[i];
  }
  if (empty) return;
  const __int128 item = __int128(itemsize(self.dtype()));
  const __int128 need = (last + 1) * item;
  const __int128 have = __int128(self.storage()->nbytes());
  if (need > have)
    raise(ErrorKind::RuntimeError, "setStorage: sizes " + list_str(sizes) + ", strides " + list_str(strides) +
                                       ", storage offset " + std::to_string(offset) + ", and itemsize " +
                                       std::to_string(itemsize(self.dtype())) + " requiring a storage size of " +
                                       std::to_string(int64_t(need)) + " are out of bounds for storage of size " +
                                       std::to_string(self.storage()->nbytes()));
}

}  // namespace

bool dtype_from_py(py::handle obj, DType& out) {
  const PyTypes& t = py_types();
  if (!t.ready || Py_TYPE(obj.ptr()) != reinterpret_cast<PyTypeObject*>(t.dtype_cls.ptr())) return false;
  static PyObject* code_name = attr_name("_code");
  PyObject* code = PyObject_GetAttr(obj.ptr(), code_name);
  if (!code) throw py::error_already_set();
  const long c = PyLong_AsLong(code);
  Py_DECREF(code);
  // torch.complex64 & co. exist as dtype objects, but the engine stores no complex numbers.
  if (c < 0 || c >= long(std::size(kAllDTypes)))
    raise(ErrorKind::NotImplementedError, "DeviceScope does not model complex tensors");
  out = DType(c);
  return true;
}

py::object dtype_to_py(DType t) {
  const PyTypes& types = py_types();
  return types.dtypes.at(size_t(t));
}

bool device_from_py(py::handle obj, Device& out) {
  PyObject* p = obj.ptr();
  if (PyUnicode_Check(p)) {
    out = Device::parse(py::reinterpret_borrow<py::str>(obj).cast<std::string>());
    return true;
  }
  if (PyLong_Check(p) && !PyBool_Check(p)) {
    const long long index = PyLong_AsLongLong(p);
    check(index >= 0, "Device index must not be negative");
    out = Device(DeviceType::CUDA, int(index));
    return true;
  }
  const PyTypes& t = py_types();
  if (t.ready && Py_TYPE(p) == reinterpret_cast<PyTypeObject*>(t.device_cls.ptr())) {
    static PyObject* key_name = attr_name("_key");
    PyObject* key = PyObject_GetAttr(p, key_name);
    if (!key) throw py::error_already_set();
    const long k = PyLong_AsLong(key);
    Py_DECREF(key);
    if (k == -1) out = Device(DeviceType::CPU);
    else if (k == -2) out = Device(DeviceType::CUDA);
    else if (k == -3) out = Device(DeviceType::Meta);
    else out = Device(DeviceType::CUDA, int(k));
    return true;
  }
  return false;
}

bool is_tensor(py::handle obj) {
  const PyTypes& t = py_types();
  if (!t.ready) return false;
  const int r = PyObject_IsInstance(obj.ptr(), t.tensor_cls.ptr());
  if (r < 0) throw py::error_already_set();
  return r == 1;
}

TensorPtr impl_of(py::handle obj) {
  if (!is_tensor(obj)) return nullptr;
  static PyObject* impl_name = attr_name("_impl");
  PyObject* impl = PyObject_GetAttr(obj.ptr(), impl_name);
  if (!impl) throw py::error_already_set();
  py::object holder = py::reinterpret_steal<py::object>(impl);
  return holder.cast<TensorPtr>();
}

std::string arg_type_name(py::handle obj) {
  if (is_tensor(obj)) return "Tensor";
  const PyTypes& t = py_types();
  if (t.ready && Py_TYPE(obj.ptr()) == reinterpret_cast<PyTypeObject*>(t.dtype_cls.ptr())) return "torch.dtype";
  if (t.ready && Py_TYPE(obj.ptr()) == reinterpret_cast<PyTypeObject*>(t.device_cls.ptr())) return "torch.device";
  if (obj.is_none()) return "NoneType";
  py::handle type = py::handle(reinterpret_cast<PyObject*>(Py_TYPE(obj.ptr())));
  const std::string module = py::str(type.attr("__module__"));
  const std::string name = py::str(type.attr("__qualname__"));
  if (module == "builtins" || module.empty()) return name;
  return module + "." + name;
}

void bind_tensor(py::module_& m) {
  py::class_<TensorImpl, TensorPtr> impl(m, "TensorImpl");
  // sizes, strides, offset, dtype_code, device_key, numel, dim, nbytes, is_contiguous, is_pinned, is_virtual and
  // version are CPython getset descriptors (tensor_getters.cpp, installed below): the torch package reads them
  // for nearly every op, and a pybind11 property costs several times the read.
  impl.def_property_readonly("id", &TensorImpl::id)
      // A virtual tensor's address is where the allocator placed its block (a placeholder address, never read):
      // unique, and adjacent blocks are adjacent, as on the real device (nn.RNN's flat-weights check uses it).
      .def_property_readonly("data_ptr", [](const TensorImpl& t) {
        if (t.is_virtual() && t.storage()->block_address())
          return uintptr_t(t.storage()->block_address() + uint64_t(t.offset()) * itemsize(t.dtype()));
        return reinterpret_cast<uintptr_t>(t.data_ptr());
      })
      .def_property_readonly("storage_id", [](const TensorImpl& t) { return t.storage()->id(); })
      .def_property_readonly("storage_nbytes", [](const TensorImpl& t) { return t.storage()->nbytes(); })
      // How many tensors share the storage (c10's storage().use_count(): autograd adds a gradient in place only
      // into one that is alone in its storage, input_buffer.cpp can_accumulate_inplace)
      .def_property_readonly("storage_use_count", [](const TensorImpl& t) { return t.storage().use_count(); })
      .def_property_readonly("storage_place", [](const TensorImpl& t) { return t.storage()->place().str(); })
      .def_property_readonly("storage_owner", [](const TensorImpl& t) { return t.storage()->owner(); })
      .def_property_readonly("storage_role", [](const TensorImpl& t) { return std::string(role_name(t.storage()->role())); })
      .def("bump_version", &TensorImpl::bump_version)
      .def_readwrite("requires_grad", &TensorImpl::requires_grad)
      .def_readwrite("is_parameter", &TensorImpl::is_parameter)
      .def_readwrite("grad", &TensorImpl::grad)
      .def("set_data", [](TensorImpl& self, const TensorPtr& other) { self.set_data(*other); })
      .def("alias", [](const TensorImpl& self, py::handle sizes, py::handle strides, int64_t offset) {
        const Shape sz = shape_from_py(sizes), st = shape_from_py(strides);
        check_view_bounds(self, sz, st, offset);
        return self.alias(sz, st, offset);
      })
      .def("same_storage", [](const TensorImpl& a, const TensorImpl& b) { return a.storage() == b.storage(); })
      // Note [Growing a storage]: resize_ past the storage's end grows the storage every view shares
      .def("grow_storage", [](const TensorImpl& t, size_t nbytes) { rt().grow_storage(t.storage(), nbytes); });
  install_tensor_getters(impl);

  // devicescope.virtual_mode() (its depth > 0): device allocations are virtual (tensor_ops.h).
  m.def("set_virtual_device_allocations", [](bool on) { ds::set_virtual_device_allocations(on); });
  // Factories. device: a torch.device / str / int; resolved (index-less cuda -> current device) here.
  m.def("empty", [](py::handle sizes, int dtype, py::handle device, bool pin_memory, bool virtual_bytes) {
    Device d(DeviceType::CPU);
    if (!device.is_none() && !device_from_py(device, d)) raise(ErrorKind::TypeError, "expected a device");
    return ds::empty(rt(), shape_from_py(sizes), DType(dtype), d, pin_memory, virtual_bytes, current_storage_role());
  });
  m.def("zeros", [](py::handle sizes, int dtype, py::handle device) {
    Device d(DeviceType::CPU);
    if (!device.is_none() && !device_from_py(device, d)) raise(ErrorKind::TypeError, "expected a device");
    return ds::zeros(rt(), shape_from_py(sizes), DType(dtype), d, current_storage_role());
  });

  // Tensor.to(*args, **kwargs): the new TensorImpl, or None when `to` returns self.
  m.def("to", [](const TensorPtr& self, py::tuple args, py::dict kwargs) -> py::object {
    ToOptions o = parse_to_arguments(args, kwargs).options;
    o.origin = current_copy_origin();
    TensorPtr out = ds::to(rt(), self, o);
    if (out == self) return py::none();
    return py::cast(std::move(out));
  });
  // The parsed arguments, for torch._C._nn._parse_to and Tensor.to's memory_format path:
  // (device or None, dtype or None, non_blocking, copy or None, memory_format or None).
  m.def("parse_to", [](py::tuple args, py::dict kwargs) {
    const ToArguments a = parse_to_arguments(args, kwargs);
    const PyTypes& t = py_types();
    py::object device = a.options.device ? t.device_cls(a.options.device->str()) : py::none();
    py::object dtype = a.options.dtype ? dtype_to_py(*a.options.dtype) : py::none();
    py::object copy = a.copy_given ? py::object(py::bool_(a.options.copy)) : py::none();
    return py::make_tuple(device, dtype, a.options.non_blocking, copy, a.memory_format);
  });
  m.def("_register_memory_format", [](py::object cls) { register_memory_format_type(cls); });
  // Direct form for internal callers (autograd, Module helpers): device/dtype may be None.
  m.def("to_device_dtype", [](const TensorPtr& self, py::handle device, py::handle dtype, bool non_blocking,
                              bool copy) -> py::object {
    ToOptions o;
    Device d;
    if (!device.is_none()) {
      if (!device_from_py(device, d)) raise(ErrorKind::TypeError, "expected a device");
      o.device = d;
    }
    DType t;
    if (!dtype.is_none()) {
      if (!dtype_from_py(dtype, t)) raise(ErrorKind::TypeError, "expected a dtype");
      o.dtype = t;
    }
    o.non_blocking = non_blocking;
    o.copy = copy;
    o.origin = current_copy_origin();
    TensorPtr out = ds::to(rt(), self, o);
    if (out == self) return py::none();
    return py::cast(std::move(out));
  });
  // Module._apply's parameter half for a device move (Module.to(device), cuda(), cpu()): for each parameter of
  // one module and its .grad, `param.data = param.to(device)` on the engine's impls, in the dict's order.
  // Each copy gets its owner ("model.0.weight", "model.0.weight.grad") in the CopyOrigin it is passed, so
  // per tensor nothing goes through the context variable and no Python Tensor is made (bench_python_to);
  // the role is this thread's, read once. The owner variable is left naming the last tensor, as the
  // per-tensor Python loop left it. Returns the parameters that are not DeviceScope tensors (for the
  // general path), or None.
  m.def("move_module_params", [](py::handle params, const std::string& prefix, py::handle device,
                                 bool non_blocking) -> py::object {
    static PyObject* impl_name = attr_name("_impl");
    static PyObject* grad_name = attr_name("_grad");
    static PyObject* items_name = attr_name("items");  // interned once: no str made per module
    ToOptions o;
    Device d;
    if (!device_from_py(device, d)) raise(ErrorKind::TypeError, "expected a device");
    o.device = d;
    o.non_blocking = non_blocking;
    o.origin = current_copy_origin();
    const auto move = [&](const TensorPtr& impl) {
      TensorPtr out = ds::to(rt(), impl, o);
      if (out != impl) impl->set_data(*out);
    };
    const auto impl_of_attr = [](PyObject* obj) {
      PyObject* impl = PyObject_GetAttr(obj, impl_name);
      if (!impl) throw py::error_already_set();
      return py::reinterpret_steal<py::object>(impl).cast<TensorPtr>();
    };
    py::object rest = py::none();
    bool moved_any = false;
    PyObject* items = PyObject_CallMethodNoArgs(params.ptr(), items_name);  // the dict's own order (OrderedDict too)
    if (!items) throw py::error_already_set();
    for (py::handle item : py::reinterpret_steal<py::object>(items)) {
      py::handle key = PyTuple_GET_ITEM(item.ptr(), 0), param = PyTuple_GET_ITEM(item.ptr(), 1);
      if (param.is_none()) continue;
      PyObject* impl = PyObject_GetAttr(param.ptr(), impl_name);
      if (!impl) {  // not a DeviceScope tensor: the caller converts it through fn
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw py::error_already_set();
        PyErr_Clear();
        if (rest.is_none()) rest = py::dict();
        rest[key] = param;
        continue;
      }
      const TensorPtr pimpl = py::reinterpret_steal<py::object>(impl).cast<TensorPtr>();
      o.origin.owner = prefix + key.cast<std::string>();
      moved_any = true;
      move(pimpl);
      PyObject* grad = PyObject_GetAttr(param.ptr(), grad_name);
      if (!grad) throw py::error_already_set();
      py::object grad_obj = py::reinterpret_steal<py::object>(grad);
      if (!grad_obj.is_none()) {
        o.origin.owner += ".grad";
        move(impl_of_attr(grad));
      }
    }
    if (moved_any) set_current_copy_owner(o.origin.owner);
    return rest;
  });
  m.def("cuda", [](const TensorPtr& self, py::handle device, bool non_blocking) -> py::object {
    std::optional<int> index;
    if (!device.is_none()) {
      Device d;
      if (!device_from_py(device, d))
        raise(ErrorKind::TypeError, "cuda(): argument 'device' must be torch.device, not " + arg_type_name(device));
      check(d.is_cuda(), "Invalid device, must be cuda device");
      if (d.has_index()) index = d.index();
    }
    TensorPtr out = ds::cuda(rt(), self, index, non_blocking, current_copy_origin());
    if (out == self) return py::none();
    return py::cast(std::move(out));
  });
  m.def("cpu", [](const TensorPtr& self) -> py::object {
    TensorPtr out = ds::cpu(rt(), self, current_copy_origin());
    if (out == self) return py::none();
    return py::cast(std::move(out));
  });
  m.def("pin_memory", [](const TensorPtr& self) -> py::object {
    TensorPtr out = ds::pin_memory(rt(), self, current_copy_origin());
    if (out == self) return py::none();
    return py::cast(std::move(out));
  });
  m.def("copy_", [](const TensorPtr& dst, const TensorPtr& src, bool non_blocking) {
    ds::copy_(rt(), dst, src, non_blocking, current_copy_origin());
  });
  m.def("contiguous", [](const TensorPtr& self) -> py::object {
    TensorPtr out = ds::contiguous(rt(), self, current_copy_origin());
    if (out == self) return py::none();
    return py::cast(std::move(out));
  });
  m.def("clone", [](const TensorPtr& self) { return ds::clone(rt(), self, current_copy_origin()); });
  m.def("as_strided", [](const TensorPtr& self, py::handle sizes, py::handle strides, int64_t offset) {
    const Shape sz = shape_from_py(sizes), st = shape_from_py(strides);
    check_view_bounds(*self, sz, st, offset);
    return ds::as_strided(self, sz, st, offset);
  });
  m.def("detach", [](const TensorPtr& self) { return ds::detach(self); });
  // Tensor.view(dtype): the same storage read as another dtype (layout computed by the caller, in elements of
  // the new dtype). Made as an alias, then re-pointed, so it shares the version counter like any view.
  m.def("view_dtype", [](const TensorPtr& self, int dtype, py::handle sizes, py::handle strides, int64_t offset) {
    const Shape sz = shape_from_py(sizes), st = shape_from_py(strides);
    TensorImpl as_new(self->storage(), sz, st, offset, DType(dtype));
    check_view_bounds(as_new, sz, st, offset);
    TensorPtr view = self->alias(self->sizes(), self->strides(), self->offset());
    view->set_data(as_new);
    return view;
  });
  m.def("set_view_info", [](const TensorPtr& self) {
    self->storage()->set_view_info(dtype_name(self->dtype()), self->sizes());
  });
}

}  // namespace ds::python

// Tensor values as numpy arrays, for printing and for the numpy-backed ops of the torch package.
// Host and simulated-device memory is viewed in place; real CUDA memory is copied to the host and back
// through the backend directly (compute traffic is not a user transfer, so it is not recorded).
#include <pybind11/numpy.h>

#include <cstring>
#include <vector>

#include "bindings_common.h"
#include "core/errors.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

// numpy dtype for the stored bytes; bfloat16 has no numpy type and is exposed as raw uint16.
py::dtype numpy_dtype(DType t) {
  switch (t) {
    case DType::Float32: return py::dtype::of<float>();
    case DType::Float64: return py::dtype::of<double>();
    case DType::Float16: return py::dtype("float16");
    case DType::BFloat16: return py::dtype::of<uint16_t>();
    case DType::Int64: return py::dtype::of<int64_t>();
    case DType::Int32: return py::dtype::of<int32_t>();
    case DType::Int16: return py::dtype::of<int16_t>();
    case DType::Int8: return py::dtype::of<int8_t>();
    case DType::UInt8: return py::dtype::of<uint8_t>();
    case DType::Bool: return py::dtype("bool");
  }
  return py::dtype::of<float>();
}

// Elements from element 0 to the last element of the view (non-negative strides).
int64_t span_elements(const TensorImpl& t) {
  if (t.numel() == 0) return 0;
  int64_t span = 1;
  for (int i = 0; i < t.dim(); ++i) span += (t.sizes()[size_t(i)] - 1) * t.strides()[size_t(i)];
  return span;
}

std::vector<py::ssize_t> byte_strides(const TensorImpl& t) {
  std::vector<py::ssize_t> s;
  for (int64_t st : t.strides()) s.push_back(py::ssize_t(st * int64_t(itemsize(t.dtype()))));
  return s;
}

std::vector<py::ssize_t> shape_of(const TensorImpl& t) {
  return std::vector<py::ssize_t>(t.sizes().begin(), t.sizes().end());
}

// ds::DType for a numpy dtype; false when PyTorch has no matching type.
bool dtype_from_numpy(const py::dtype& dt, DType& out) {
  const char kind = dt.kind();
  const size_t size = size_t(dt.itemsize());
  if (kind == 'f' && size == 4) out = DType::Float32;
  else if (kind == 'f' && size == 8) out = DType::Float64;
  else if (kind == 'f' && size == 2) out = DType::Float16;
  else if (kind == 'i' && size == 8) out = DType::Int64;
  else if (kind == 'i' && size == 4) out = DType::Int32;
  else if (kind == 'i' && size == 2) out = DType::Int16;
  else if (kind == 'i' && size == 1) out = DType::Int8;
  else if (kind == 'u' && size == 1) out = DType::UInt8;
  else if (kind == 'b' && size == 1) out = DType::Bool;
  else return false;
  return true;
}

}  // namespace

// Blocking, unrecorded copy between host memory and real device memory.
void raw_device_copy(void* dst, Place dst_place, const void* src, Place src_place, size_t bytes, int device) {
  if (bytes == 0) return;
  Runtime& r = rt();
  CopyRequest req;
  req.dst = dst;
  req.dst_place = dst_place;
  req.src = src;
  req.src_place = src_place;
  req.bytes = bytes;
  req.stream_device = device;
  req.stream = r.current_stream(device);
  req.non_blocking = false;
  r.backend().copy(req);
  r.backend().synchronize_stream(device, req.stream);
  // The backend reports this copy as completed too; it has no transfer record, so completion is a no-op.
  r.poll();
}

void bind_tensor_values(py::module_& m) {
  // torch.from_numpy: a CPU tensor over the array's own buffer (shared both ways, kept alive by the tensor).
  m.def("from_numpy", [](py::array arr) {
    DType dt;
    if (!dtype_from_numpy(arr.dtype(), dt))
      raise(ErrorKind::TypeError, "can't convert np.ndarray of type numpy." +
                                      py::str(arr.dtype().attr("name")).cast<std::string>() +
                                      ". The only supported types are: float64, float32, float16, int64, int32, "
                                      "int16, int8, uint8, and bool.");
    const int64_t item = int64_t(itemsize(dt));
    Shape sizes, strides;
    int64_t span = arr.size() > 0 ? 1 : 0;
    for (py::ssize_t i = 0; i < arr.ndim(); ++i) {
      const int64_t st = int64_t(arr.strides(i));
      check(st >= 0, "At least one stride in the given numpy array is negative, and tensors with negative strides "
                     "are not currently supported. (You can probably work around this by making a copy of your "
                     "array with array.copy().) ", ErrorKind::ValueError);
      check(st % item == 0, "given numpy array strides not a multiple of the element byte size. Copy the numpy "
                            "array to reallocate the memory.", ErrorKind::ValueError);
      sizes.push_back(int64_t(arr.shape(i)));
      strides.push_back(st / item);
      if (arr.size() > 0) span += (sizes.back() - 1) * strides.back();
    }
    if (!arr.writeable())
      PyErr_WarnEx(PyExc_UserWarning,
                   "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
                   "means writing to this tensor will result in undefined behavior. You may want to copy the array "
                   "to protect its data or make it writable before converting it to a tensor. This type of warning "
                   "will be suppressed for the rest of this program.", 1);
    auto* keep = new py::object(arr);
    StoragePtr storage = rt().adopt_host_memory(
        const_cast<void*>(arr.data()), size_t(span * item), [keep] {
          py::gil_scoped_acquire gil;  // storages may die from any engine call; the array is a Python object
          delete keep;
        });
    storage->set_view_info(dtype_name(dt), sizes);
    return std::make_shared<TensorImpl>(std::move(storage), sizes, strides, 0, dt);
  });
  m.def("data_alias", [](const TensorPtr& self) { return self->alias_unversioned(); });
  // A numpy array over the tensor's values: a writable view for host/simulated memory (kept alive by the
  // array), or a host copy for real CUDA memory (write it back with upload()). Returns (array, is_copy).
  m.def("numpy_view", [](const TensorPtr& self) {
    const py::dtype dt = numpy_dtype(self->dtype());
    if (self->numel() == 0) return py::make_tuple(py::array(dt, shape_of(*self)), false);
    const void* p = host_readable(rt(), self);  // raises for virtual tensors
    if (p) {
      auto* keep = new TensorPtr(self);
      py::capsule base(keep, [](void* v) { delete static_cast<TensorPtr*>(v); });
      py::array a(dt, shape_of(*self), byte_strides(*self), const_cast<void*>(p), base);
      return py::make_tuple(std::move(a), false);
    }
    // Real device memory: bring the span to the host, then view it with the tensor's strides.
    const size_t bytes = size_t(span_elements(*self)) * itemsize(self->dtype());
    py::array_t<uint8_t> raw{static_cast<py::ssize_t>(bytes)};
    const Place place = self->storage()->place();
    raw_device_copy(raw.mutable_data(), Place::pageable(), self->data_ptr(), place, bytes, place.device);
    py::array a(dt, shape_of(*self), byte_strides(*self), raw.mutable_data(), raw);
    return py::make_tuple(std::move(a), true);
  });
  // Writes back a host copy obtained from numpy_view (real CUDA memory only); bumps nothing.
  m.def("upload", [](const TensorPtr& self, py::array host) {
    const Place place = self->storage()->place();
    if (place.kind != MemoryKind::Device || self->numel() == 0) return;
    py::handle base = host.base();
    py::array raw = base ? py::reinterpret_borrow<py::array>(base) : host;
    const size_t bytes = size_t(span_elements(*self)) * itemsize(self->dtype());
    check(size_t(raw.nbytes()) >= bytes, "upload: host buffer too small");
    raw_device_copy(self->data_ptr(), place, raw.data(), Place::pageable(), bytes, place.device);
  });
  // Raw byte copy from a C-contiguous numpy array whose dtype already matches (fast path of factories).
  m.def("write_contiguous", [](const TensorPtr& self, py::array src) {
    check(self->is_contiguous(), "write_contiguous: destination must be contiguous");
    const size_t bytes = self->nbytes();
    check(size_t(src.nbytes()) == bytes, "write_contiguous: size mismatch");
    if (bytes == 0) return;
    void* d = host_writable(rt(), self);
    if (d) {
      std::memcpy(d, src.data(), bytes);
    } else {
      const Place place = self->storage()->place();
      raw_device_copy(self->data_ptr(), place, src.data(), Place::pageable(), bytes, place.device);
    }
  });
}

}  // namespace ds::python

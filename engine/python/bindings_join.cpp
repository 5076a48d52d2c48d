// The C++ fast path of torch.cat / torch.stack (issue 23): when every tensor is an engine tensor of one dtype
// (not a 16-bit float: the Python path rounds those through float32) on one device with bytes the host can
// read, the result is allocated as the Python path allocates it (torch/_ops/join.py: one ds::empty after the
// inputs are read, through _core.make) and the inputs are copied into their slices. While autograd records,
// join.py's own code attaches the node (the hook `_fast_join_node`: CatBackward0 / StackBackward0 with the
// same saved dim and backward). Anything else (out=, other keywords, mixed dtypes or devices, 1-D empty
// tensors, virtual tensors, real CUDA memory, any shape error) goes to join.py, which stays the reference
// for semantics and PyTorch's messages. DEVICESCOPE_NO_FAST_OPS=1 installs neither entry (torch/_fast_ops.py).
#include <Python.h>

#include <cstring>
#include <vector>

#include "copy_origin.h"
#include "fast_entry.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

PyObject* g_node_hook = nullptr;  // torch._ops.join._fast_join_node(code, result, tensors, dim)
PyObject* g_s_dim = nullptr;

struct JoinSpec : FastSpecHead {
  bool stack = false;
};

// Dtypes the Python path copies exactly (numpy concatenates them without a cast).
bool exact_dtype(DType t) { return t != DType::Float16 && t != DType::BFloat16; }

// Copies src (its own strides) into dst laid out with dst_strides, both host addresses of element 0.
void copy_block(char* dst, const Shape& dst_strides, const char* src, const TensorImpl& s, size_t item) {
  const Shape& sizes = s.sizes();
  if (s.numel() == 0) return;
  if (s.is_contiguous()) {
    // rows: the leading dims where dst's layout differs, each row one contiguous run in both
    size_t lead = sizes.size();
    int64_t run = 1;
    while (lead > 0 && (sizes[lead - 1] == 1 || dst_strides[lead - 1] == run)) {
      run *= sizes[lead - 1];
      --lead;
    }
    const Shape outer(sizes.begin(), sizes.begin() + lead);
    const int64_t rows = shape_numel(outer);
    std::vector<int64_t> index(lead, 0);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t off = 0;
      for (size_t i = 0; i < lead; ++i) off += index[i] * dst_strides[i];
      std::memcpy(dst + off * int64_t(item), src + r * run * int64_t(item), size_t(run) * item);
      for (size_t i = lead; i-- > 0;) {
        if (++index[i] < outer[i]) break;
        index[i] = 0;
      }
    }
    return;
  }
  convert_strided(dst, s.dtype(), sizes, dst_strides, src, s.dtype(), s.strides());
}

// The joined tensor, or nullptr with no Python error set when join.py must take the call.
PyObject* try_join(const FastSpecHead& head, PyObject* const* args, Py_ssize_t n, PyObject* kwnames) {
  const bool stack = static_cast<const JoinSpec&>(head).stack;
  PyObject* dim_obj = nullptr;
  if (kwnames) {
    if (n != 1 || PyTuple_GET_SIZE(kwnames) != 1) return nullptr;
    const int same = PyUnicode_Compare(PyTuple_GET_ITEM(kwnames, 0), g_s_dim);
    if (same != 0) {
      PyErr_Clear();
      return nullptr;
    }
    dim_obj = args[1];
  } else if (n == 2) {
    dim_obj = args[1];
  } else if (n != 1) {
    return nullptr;
  }
  int64_t dim = 0;
  if (dim_obj && !fast_plain_int(dim_obj, dim)) return nullptr;
  PyObject* seq = args[0];
  if (!PyList_Check(seq) && !PyTuple_Check(seq)) return nullptr;
  const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  if (k < 1) return nullptr;
  std::vector<TensorImpl*> ins(size_t(k), nullptr);
  for (Py_ssize_t i = 0; i < k; ++i)
    if (!(ins[size_t(i)] = fast_impl_of(items[i]))) return nullptr;
  const TensorImpl& first = *ins[0];
  const DType dtype = first.dtype();
  const Device device = first.device();
  if (!exact_dtype(dtype) || device.type() == DeviceType::Meta) return nullptr;
  const int64_t nd = first.dim();
  for (const TensorImpl* t : ins) {
    if (t->dtype() != dtype || !(t->device() == device) || t->is_virtual()) return nullptr;
    if (t->dim() == 1 && t->numel() == 0) return nullptr;  // cat's legacy rule: join.py skips them
  }
  int64_t d = 0;
  Shape out_sizes = first.sizes();
  if (stack) {
    if (!fast_wrap_dim(dim, nd + 1, d)) return nullptr;
    for (const TensorImpl* t : ins)
      if (t->sizes() != first.sizes()) return nullptr;
    out_sizes.insert(out_sizes.begin() + d, int64_t(k));
  } else {
    if (nd == 0 || !fast_wrap_dim(dim, nd, d)) return nullptr;
    int64_t total = 0;
    for (const TensorImpl* t : ins) {
      if (t->dim() != nd) return nullptr;
      for (int64_t i = 0; i < nd; ++i)
        if (i != d && t->sizes()[size_t(i)] != first.sizes()[size_t(i)]) return nullptr;
      total += t->sizes()[size_t(d)];
    }
    out_sizes[size_t(d)] = total;
  }
  // The inputs are read before the result is allocated, as join.py reads them into numpy first.
  Runtime& r = rt();
  std::vector<const char*> data(size_t(k), nullptr);
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i]->numel() == 0) continue;  // (numpy_view reads nothing of an empty tensor)
    data[i] = static_cast<const char*>(host_readable(r, TensorPtr(TensorPtr{}, ins[i])));  // non-owning
    if (!data[i]) return nullptr;  // real device memory
  }
  TensorPtr out = ds::empty(r, out_sizes, dtype, device, false, false, current_storage_role());
  if (out->numel() > 0 && !out->is_virtual()) {  // (_core.make writes nothing into a virtual result)
    char* dst = static_cast<char*>(host_writable(r, out));
    const size_t item = itemsize(dtype);
    const Shape& ost = out->strides();
    int64_t at = 0;  // the slice's start along d
    for (size_t i = 0; i < ins.size(); ++i) {
      Shape dst_strides = ost;
      if (stack) dst_strides.erase(dst_strides.begin() + d);
      copy_block(dst + at * ost[size_t(d)] * int64_t(item), dst_strides, data[i], *ins[i], item);
      at += stack ? 1 : ins[i]->sizes()[size_t(d)];
    }
  }
  py::object result = py::reinterpret_steal<py::object>(fast_wrap(std::move(out)));
  if (!result) return nullptr;
  // join.py: cat records for a floating result, stack whenever an input needs grad
  if (stack || is_floating_point(dtype)) {
    bool grad = false;
    for (Py_ssize_t i = 0; i < k && !grad; ++i) {
      const int g = fast_needs_grad(items[i]);
      if (g < 0) return nullptr;
      grad = g > 0;
    }
    if (grad) {
      PyObject* code = PyLong_FromLong(stack ? 1 : 0);
      if (!code) return nullptr;
      // (the dim argument as given, 0 by default: the node saves it)
      py::object dim_value = dim_obj ? py::reinterpret_borrow<py::object>(dim_obj) : py::int_(0);
      PyObject* rr = PyObject_CallFunctionObjArgs(g_node_hook, code, result.ptr(), seq, dim_value.ptr(), nullptr);
      Py_DECREF(code);
      if (!rr) return nullptr;
      Py_DECREF(rr);
    }
  }
  return result.release().ptr();
}

}  // namespace

void bind_join(py::module_& m) {
  m.def("_fast_join_setup", [](py::object node_hook) {
    g_node_hook = node_hook.release().ptr();
    g_s_dim = PyUnicode_InternFromString("dim");
  });
  // kind: "cat" | "stack"; fallback: the Python function (torch.cat's registry entry, torch.stack)
  m.def("fast_join", [](const std::string& kind, py::object fallback) {
    if (kind != "cat" && kind != "stack") raise(ErrorKind::ValueError, "fast_join: unknown op " + kind);
    auto* s = new JoinSpec;  // lives as long as the interpreter
    s->attempt = try_join;
    s->stack = kind == "stack";
    s->fallback = fallback.release().ptr();
    return fast_make_entry(s, false);
  }, py::arg("kind"), py::arg("fallback"));
}

}  // namespace ds::python

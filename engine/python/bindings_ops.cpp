// The C++ dispatch fast path of the elementwise ops (issue 12): `a + b`, `a.add_(b, alpha=...)`, `-x`,
// `torch.relu(x)` ... run here without any Python code per op when the operands are plain dense tensors of
// float32/float64/int64/int32/bool and no error is possible. While autograd records, the out-of-place
// arithmetic and relu/neg compute here too and torch/_ops/fast_grad.py attaches the Python path's node (one
// Python call); so do tanh/sigmoid/exp of float32 tensors and in-place add_/sub_ of a float tensor that is not a
// view. Anything else (other in-place ops under autograd, out=, other dtypes, mixed dtypes needing a cast,
// non-contiguous or overlapping operands, virtual tensors, real CUDA memory, any argument error) goes to the op's Python implementation (the
// `fallback` each entry point wraps), which stays the reference for PyTorch's semantics and messages.
//
// Entry points are raw CPython vectorcall functions (METH_FASTCALL) bound as methods through
// PyInstanceMethod, so `a + b` costs one C call: a pybind11 dispatch would cost as much as the kernel.
// Allocation goes through ds::empty (the event log and the memory panes see the same allocation as the
// Python path made), values through host_readable/host_writable (a simulated device synchronises first).
#include <Python.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "bindings_common.h"
#include "copy_origin.h"
#include "fast_entry.h"
#include "fast_op_kernels.h"
#include "core/errors.h"
#include "tensor/blas_gemm.h"
#include "tensor/elementwise_kernels.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

// Set once by _fast_ops_setup (torch/_fast_ops.py); the interpreter keeps these objects alive.
struct FastState {
  PyTypeObject* tensor_type = nullptr;
  PyObject* grad_enabled = nullptr;   // torch.autograd.grad_mode._enabled: a one-element list
  PyObject* default_state = nullptr;  // torch._default._state: {"dtype": torch.dtype, ...}
  PyObject* empty_tuple = nullptr;
  PyObject* s_impl = nullptr;
  PyObject* s_grad_fn = nullptr;
  PyObject* s_requires_grad = nullptr;
  PyObject* s_base = nullptr;
  PyObject* s_alpha = nullptr;
  PyObject* s_dtype = nullptr;
  PyObject* s_code = nullptr;
  PyObject* blas_hook = nullptr;  // torch._blas_workspace.gemm_at(device, m, n, k): a cuBLAS call's workspace
  // torch._ops.fast_grad.record(kind, a, b, result, alpha): the node of a result computed here while autograd
  // records (the Python path's own attach functions make it)
  PyObject* grad_hook = nullptr;
};
FastState g;

// The (device, stream) whose cuBLAS workspace this thread last saw made, so the fast matmul asks the Python hook
// only for a new pair. The epoch changes whenever the answer may have changed (torch._blas_workspace: a clear, a
// session reset, the autograd engine's device-thread identity set or dropped).
std::atomic<uint64_t> g_blas_epoch{1};
struct BlasSeen {
  int device = -1;
  StreamId stream = -1;
  uint64_t epoch = 0;
};
thread_local BlasSeen t_blas_seen;

// What one entry point computes; `fallback` is the Python implementation it stands in front of.
struct Spec {
  bool matmul = false;  // 2-D @ 2-D through the system BLAS
  bool sum = false;     // x.sum() / torch.sum(x) of a whole float tensor
  bool pow = false;     // x ** 2, x.pow(3), torch.pow(x, 2.0): a float tensor to a small integral power
  bool unary = false;
  BinaryKind binary_kind = BinaryKind::Add;
  UnaryKind unary_kind = UnaryKind::Relu;
  bool reflected = false;  // __radd__ & co.: the computation is other op self
  bool inplace = false;    // add_, __iadd__, relu_: written into self, which is returned
  bool function = false;   // torch.add & co. (not a method): `input` must be a tensor (Python reports it)
  PyObject* fallback = nullptr;
};

// One operand: a tensor, or a Python bool/int/float.
struct Operand {
  PyObject* obj = nullptr;
  TensorImpl* tensor = nullptr;
  enum Kind { Tensor, Bool, Int, Float } kind = Tensor;
  int64_t ivalue = 0;
  double fvalue = 0;
};

enum class Outcome { Done, Fallback, Error };

// fast_grad.record's op codes: BinaryKind's value for add/sub/mul/div, this base + UnaryKind for unary ops,
// kSumCode for a whole-tensor sum.
constexpr int kUnaryCodeBase = 16;
constexpr int kSumCode = 32;
constexpr int kPowCode = 33;  // fast_grad.POW: x ** 2 / x ** 3 (PowBackward0)
// In-place add_/sub_ under autograd: this base + BinaryKind (fast_grad.ADD_ / SUB_; the node rebases self's history).
constexpr int kRebaseCodeBase = 48;

int category(DType t) { return t == DType::Bool ? 0 : is_floating_point(t) ? 2 : 1; }

// c10::promoteTypes restricted to the fast path's dtypes (float32, float64, int64, int32, bool).
DType promote(DType a, DType b) {
  if (a == b) return a;
  const int ca = category(a), cb = category(b);
  if (ca != cb) return ca > cb ? a : b;
  return ca == 2 ? DType::Float64 : DType::Int64;
}

// torch/_ops/_core.py _combine: a higher-priority class (dimensioned tensors > 0-dim tensors > scalars)
// keeps its dtype unless the lower one is of a higher category.
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_floating_point(*higher)) return higher;
  if (*higher == DType::Bool || is_floating_point(*lower)) return promote(*higher, *lower);
  return higher;
}

bool default_float_dtype(DType& out) {
  PyObject* dt = PyDict_GetItem(g.default_state, g.s_dtype);  // borrowed
  if (!dt) return false;
  PyObject* code = PyObject_GetAttr(dt, g.s_code);
  if (!code) {
    PyErr_Clear();
    return false;
  }
  const long c = PyLong_AsLong(code);
  Py_DECREF(code);
  if (c < 0 || c >= long(std::size(kAllDTypes))) {
    PyErr_Clear();
    return false;
  }
  out = DType(c);
  return elementwise_kernel_dtype(out);
}

// torch.result_type over the operands; false when it is outside the fast path's dtypes.
bool result_type(const Operand* ops, int n, DType& out) {
  std::optional<DType> dim_t, zero_t, scalar_t;
  for (int i = 0; i < n; ++i) {
    const Operand& o = ops[i];
    std::optional<DType>* slot = &scalar_t;
    DType d = DType::Float32;
    if (o.kind == Operand::Tensor) {
      d = o.tensor->dtype();
      slot = o.tensor->dim() > 0 ? &dim_t : &zero_t;
    } else if (o.kind == Operand::Bool) {
      d = DType::Bool;
    } else if (o.kind == Operand::Int) {
      d = DType::Int64;
    } else if (!default_float_dtype(d)) {
      return false;
    }
    *slot = *slot ? promote(**slot, d) : d;
  }
  const std::optional<DType> r = combine(dim_t, combine(zero_t, scalar_t));
  if (!r) return false;
  out = *r;
  return true;
}

// A Python number or a tensor the fast path can read; false for anything else (numpy scalars, lists...).
bool classify(PyObject* obj, Operand& o) {
  o.obj = obj;
  if (PyObject_TypeCheck(obj, g.tensor_type)) {
    PyObject* impl = PyObject_GetAttr(obj, g.s_impl);
    if (!impl) {
      PyErr_Clear();
      return false;
    }
    o.tensor = tensor_impl_from_holder(impl);  // the Tensor object keeps the impl alive
    if (!o.tensor) {
      try {
        o.tensor = py::handle(impl).cast<TensorImpl*>();
      } catch (const py::cast_error&) {
        o.tensor = nullptr;  // not an engine tensor: Python reports whatever is wrong
      }
    }
    Py_DECREF(impl);
    o.kind = Operand::Tensor;
    return o.tensor != nullptr;
  }
  if (PyBool_Check(obj)) {
    o.kind = Operand::Bool;
    o.ivalue = obj == Py_True;
    o.fvalue = double(o.ivalue);
    return true;
  }
  if (PyLong_CheckExact(obj)) {
    int overflow = 0;
    o.ivalue = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || (o.ivalue == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;
    }
    o.kind = Operand::Int;
    o.fvalue = double(o.ivalue);
    return true;
  }
  if (PyFloat_CheckExact(obj)) {
    o.kind = Operand::Float;
    o.fvalue = PyFloat_AS_DOUBLE(obj);
    return true;
  }
  return false;
}

// True when autograd must see this op: grad mode on and some tensor operand requires grad.
bool needs_autograd(const Operand* ops, int n) {
  const int enabled = PyObject_IsTrue(PyList_GET_ITEM(g.grad_enabled, 0));
  if (enabled < 0) PyErr_Clear();  // an unreadable flag: let Python take the op
  if (enabled <= 0) return enabled < 0;
  // Any error reading these attributes: answer "needs autograd" so Python takes the op and reports it.
  for (int i = 0; i < n; ++i) {
    if (ops[i].kind != Operand::Tensor) continue;
    PyObject* fn = PyObject_GetAttr(ops[i].obj, g.s_grad_fn);
    if (!fn) {
      PyErr_Clear();
      return true;
    }
    const bool has_fn = fn != Py_None;
    Py_DECREF(fn);
    if (has_fn) return true;
    PyObject* rg = PyObject_GetAttr(ops[i].obj, g.s_requires_grad);
    if (!rg) {
      PyErr_Clear();
      return true;
    }
    const int r = PyObject_IsTrue(rg);
    Py_DECREF(rg);
    if (r != 0) {
      PyErr_Clear();
      return true;
    }
  }
  return false;
}

// A tensor operand the kernels can read in place: a dense layout (no layout decision to make for the
// result), bytes that exist and are host-addressable. Empty tensors go to Python (nothing to gain).
bool plain_tensor(const TensorImpl& t) {
  return elementwise_kernel_dtype(t.dtype()) && t.numel() > 0 && !t.is_virtual() && t.is_contiguous() &&
         t.device().type() != DeviceType::Meta;
}

// plain_tensor without the contiguity: an operand the kernels read through its strides (the in-place forms' other).
bool readable_strided(const TensorImpl& t) {
  return elementwise_kernel_dtype(t.dtype()) && t.numel() > 0 && !t.is_virtual() && t.device().type() != DeviceType::Meta;
}

// Row-major strides, size-1 dims included (layout.contiguous_strides): make_pointwise gives such operands a plain
// contiguous result; a contiguous tensor with other strides on a size-1 dim (a (4, 1) column's t(): (1, 1)) is laid
// out by Python (TensorIterator keeps (1, 1) there for `col * 2`), so an out-of-place binary result takes the fast
// path only from these. (A unary op's result is (4, 1) there, as the fast path makes it.)
bool row_major_strides(const TensorImpl& t) {
  int64_t expected = 1;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    if (t.strides()[size_t(d)] != expected) return false;
    expected *= std::max<int64_t>(t.sizes()[size_t(d)], 1);
  }
  return true;
}

// A lone tensor operand (the other is a number) laid out as a permutation of a contiguous layout other than row-major
// (a transposed mask compared with a number): TensorIterator gives the result the same strides (its dims ordered by
// stride; without size-1 dims there is no tie to break), so the op runs over memory order flat, into a block of
// numel elements viewed with those strides - what make_pointwise / make_strided allocate.
bool permuted_dense(const TensorImpl& t) {
  if (!elementwise_kernel_dtype(t.dtype()) || t.numel() == 0 || t.is_virtual() || t.is_contiguous() ||
      t.device().type() == DeviceType::Meta)
    return false;
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size)
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[size_t(d)] == 1) return false;
    dims.emplace_back(t.strides()[size_t(d)], t.sizes()[size_t(d)]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t expected = 1;
  for (const auto& [stride, size] : dims) {
    if (stride != expected) return false;
    expected *= size;
  }
  return true;
}

// A comparison between a bool tensor's 0 or 1 and an integer (the int64 comparison the Python path makes after
// promoting the tensor).
bool compare_int(BinaryKind k, int64_t a, int64_t b) {
  switch (k) {
    case BinaryKind::Eq: return a == b;
    case BinaryKind::Ne: return a != b;
    case BinaryKind::Lt: return a < b;
    case BinaryKind::Le: return a <= b;
    case BinaryKind::Gt: return a > b;
    default: return a >= b;
  }
}

// Broadcast shape of the tensor operands (false on a mismatch: Python raises PyTorch's error).
bool broadcast_shape(const Operand* ops, int n, Shape& out) {
  size_t nd = 0;
  for (int i = 0; i < n; ++i)
    if (ops[i].tensor) nd = std::max(nd, size_t(ops[i].tensor->dim()));
  out.assign(nd, 1);
  for (int i = 0; i < n; ++i) {
    if (!ops[i].tensor) continue;
    const Shape& s = ops[i].tensor->sizes();
    const size_t lead = nd - s.size();
    for (size_t k = 0; k < s.size(); ++k) {
      int64_t& o = out[lead + k];
      if (o == 1) o = s[k];
      else if (s[k] != 1 && s[k] != o) return false;
    }
  }
  return true;
}

// The operand's strides over the output shape (0 on broadcast dims), or its scalar value.
KernelInput kernel_input(const Operand& o, const Shape& out_sizes, const void* data) {
  KernelInput in;
  in.fscalar = o.fvalue;
  in.iscalar = o.ivalue;
  if (!o.tensor) return in;
  in.data = data;
  in.strides.assign(out_sizes.size(), 0);
  const Shape& s = o.tensor->sizes();
  const size_t lead = out_sizes.size() - s.size();
  for (size_t k = 0; k < s.size(); ++k)
    if (s[k] == out_sizes[lead + k]) in.strides[lead + k] = o.tensor->strides()[k];
  return in;
}

// A scalar the compute dtype represents as numpy's conversion did (ints within range; ints beyond 2**53
// would round twice on the way to a float).
bool scalar_fits(const Operand& o, DType compute) {
  if (o.kind == Operand::Tensor || o.kind == Operand::Bool) return true;
  if (o.kind == Operand::Float) return is_floating_point(compute);
  if (is_floating_point(compute)) return std::llabs(o.ivalue) <= (int64_t(1) << 53);
  if (compute == DType::Int32) return o.ivalue >= INT32_MIN && o.ivalue <= INT32_MAX;
  return compute == DType::Int64;
}

// A new torch.Tensor (the exact class, as the Python path makes) around impl.
PyObject* wrap_tensor(TensorPtr impl) {
  PyObject* obj = PyBaseObject_Type.tp_new(g.tensor_type, g.empty_tuple, nullptr);
  if (!obj) return nullptr;
  py::object holder = py::cast(std::move(impl));
  if (PyObject_SetAttr(obj, g.s_impl, holder.ptr()) < 0) {
    Py_DECREF(obj);
    return nullptr;
  }
  return obj;
}

// alpha= of add/sub: Python int (any result dtype but bool, where only 1 is allowed) or float (floating
// results only); anything else is Python's to check and report.
bool parse_alpha(PyObject* kwnames, PyObject* const* kwvalues, const Spec& spec, Operand& alpha) {
  alpha.kind = Operand::Int;
  alpha.ivalue = 1;
  alpha.fvalue = 1;
  if (!kwnames) return true;
  if (spec.unary || PyTuple_GET_SIZE(kwnames) != 1) return false;
  if (spec.binary_kind != BinaryKind::Add && spec.binary_kind != BinaryKind::Sub) return false;
  PyObject* name = PyTuple_GET_ITEM(kwnames, 0);
  if (PyUnicode_Compare(name, g.s_alpha) != 0) {
    PyErr_Clear();
    return false;
  }
  return classify(kwvalues[0], alpha) && alpha.kind != Operand::Tensor && alpha.kind != Operand::Bool;
}

// ATen's kernel takes alpha.to<scalar_t>(), which refuses an alpha beyond the dtype's range: such an alpha (and
// any large one for the narrow dtypes) is Python's to check exactly and report (torch/_ops/scalar_check.py).
bool alpha_fits(const Operand& alpha, DType compute) {
  const double a = alpha.kind == Operand::Float ? alpha.fvalue : double(alpha.ivalue);
  if (!std::isfinite(a)) return true;  // inf and NaN pass the check (an integral result refused them above)
  switch (compute) {
    case DType::Float64:
    case DType::Int64: return true;
    case DType::Float32: return std::fabs(a) <= 3.4028234663852886e38;
    default: return std::fabs(a) <= 127;
  }
}

bool alpha_allowed(const Operand& alpha, DType compute) {
  if (alpha.kind == Operand::Float) return is_floating_point(compute) && alpha_fits(alpha, compute);
  if (compute == DType::Bool) return alpha.ivalue == 1;
  return alpha_fits(alpha, compute);
}

// An in-place add_/sub_ under autograd whose node elementwise.attach_rebased makes (fast_grad.record): self is not a
// view (a view's in-place op rebases its base's history: Python's) nor a leaf that requires grad (PyTorch's error:
// Python reports it). Any error reading the attributes: false, Python takes the op.
bool rebase_ok(PyObject* self) {
  PyObject* base = PyObject_GetAttr(self, g.s_base);
  if (!base) {
    PyErr_Clear();
    return false;
  }
  const bool view = base != Py_None;
  Py_DECREF(base);
  if (view) return false;
  PyObject* fn = PyObject_GetAttr(self, g.s_grad_fn);
  if (!fn) {
    PyErr_Clear();
    return false;
  }
  const bool has_fn = fn != Py_None;
  Py_DECREF(fn);
  if (has_fn) return true;
  PyObject* rg = PyObject_GetAttr(self, g.s_requires_grad);
  if (!rg) {
    PyErr_Clear();
    return false;
  }
  const int r = PyObject_IsTrue(rg);
  Py_DECREF(rg);
  if (r < 0) PyErr_Clear();
  return r == 0;
}

// fast_grad.record(kind, a, b, result, alpha): gives `result` its autograd node. On failure `result` is
// released (and nulled) with the Python error set.
bool record_node(int kind, PyObject* a, PyObject* b, PyObject*& result, PyObject* alpha) {
  PyObject* args[5];
  args[0] = PyLong_FromLong(kind);
  if (!args[0]) {
    Py_CLEAR(result);
    return false;
  }
  args[1] = a;
  args[2] = b ? b : Py_None;
  args[3] = result;
  args[4] = alpha;
  PyObject* done = PyObject_Vectorcall(g.grad_hook, args, 5, nullptr);
  Py_DECREF(args[0]);
  if (!done) {
    Py_CLEAR(result);
    return false;
  }
  Py_DECREF(done);
  return true;
}

Outcome binary(const Spec& spec, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject*& result) {
  if (nargs != 2) return Outcome::Fallback;
  Operand ops[2];
  if (!classify(args[0], ops[0]) || !classify(args[1], ops[1])) return Outcome::Fallback;
  if (spec.function && !ops[0].tensor) return Outcome::Fallback;  // torch.mul(3, t): PyTorch's argument error
  if (spec.reflected) std::swap(ops[0], ops[1]);
  Operand alpha;
  if (!parse_alpha(kwnames, args + nargs, spec, alpha)) return Outcome::Fallback;
  const TensorImpl* first = ops[0].tensor ? ops[0].tensor : ops[1].tensor;
  if (!first) return Outcome::Fallback;
  // In place, the operand read (not self) may have any strides (a transposed or sliced gradient that backward adds
  // into a buffer, InputBuffer::accumulate's add_): the result's layout is self's, so there is no layout decision,
  // and the kernel reads the operand through its strides (each element's sum is the same in any order).
  const TensorImpl* strided_ok = spec.inplace ? ops[spec.reflected ? 0 : 1].tensor : nullptr;
  const bool lone = !ops[0].tensor || !ops[1].tensor;  // one tensor and a number
  const bool permuted = lone && !spec.inplace && permuted_dense(*first);  // (see permuted_dense)
  for (const Operand& o : ops) {
    if (o.tensor && o.tensor == strided_ok && readable_strided(*o.tensor) && o.tensor->device() == first->device())
      continue;
    if (o.tensor && (!(plain_tensor(*o.tensor) || permuted) || !(o.tensor->device() == first->device())))
      return Outcome::Fallback;
    if (o.tensor && !spec.inplace && !permuted && !row_major_strides(*o.tensor)) return Outcome::Fallback;
  }
  DType compute;
  if (!result_type(ops, 2, compute)) return Outcome::Fallback;
  // A bool tensor compared with an int (mask == 0): the Python path promotes the tensor to int64; 0 and 1 compare
  // with the number as they are, so each element's result is one of two values.
  const bool bool_vs_int = lone && !spec.inplace && is_comparison(spec.binary_kind) &&
                           first->dtype() == DType::Bool && (ops[0].tensor ? ops[1] : ops[0]).kind == Operand::Int;
  for (const Operand& o : ops) {
    if (o.tensor && o.tensor->dtype() != compute && !bool_vs_int) return Outcome::Fallback;  // would need a cast
    if (!scalar_fits(o, compute)) return Outcome::Fallback;
    if (spec.binary_kind == BinaryKind::Sub && (o.tensor ? o.tensor->dtype() == DType::Bool : o.kind == Operand::Bool))
      return Outcome::Fallback;  // PyTorch refuses bool subtraction: Python raises its message
  }
  if (spec.binary_kind == BinaryKind::Div && !is_floating_point(compute)) return Outcome::Fallback;
  const bool comparison = is_comparison(spec.binary_kind);
  const DType out_dtype = comparison ? DType::Bool : compute;
  if (!alpha_allowed(alpha, compute)) return Outcome::Fallback;
  Shape sizes;
  if (!broadcast_shape(ops, 2, sizes)) return Outcome::Fallback;
  // Comparisons are never differentiable. Under autograd the result is computed here all the same and
  // fast_grad.record gives it the Python path's node: for out-of-place arithmetic with a floating result
  // (reflected only for add and mul: Tensor.__rsub__ makes RsubBackward1); of the in-place forms add_/sub_ of a
  // tensor that is not a view (fast_grad.record rebases its history), the others in Python.
  bool record = false;
  if (!comparison && needs_autograd(ops, 2)) {
    const bool reflect_ok = spec.binary_kind == BinaryKind::Add || spec.binary_kind == BinaryKind::Mul;
    const bool add_sub = spec.binary_kind == BinaryKind::Add || spec.binary_kind == BinaryKind::Sub;
    if (spec.inplace && !(add_sub && !spec.reflected && rebase_ok(ops[0].obj))) return Outcome::Fallback;
    if (!g.grad_hook || !is_floating_point(compute) || (spec.reflected && !reflect_ok)) return Outcome::Fallback;
    record = true;
  }

  Runtime& r = rt();
  TensorImpl* self = spec.inplace ? ops[spec.reflected ? 1 : 0].tensor : nullptr;
  if (spec.inplace) {
    if (!self || sizes != self->sizes() || self->dtype() != out_dtype) return Outcome::Fallback;
    const Operand& other = ops[spec.reflected ? 0 : 1];
    // Writing self while reading memory that overlaps it differently is PyTorch's overlap error.
    if (other.tensor && other.tensor->storage() == self->storage() &&
        (other.tensor->offset() != self->offset() || other.tensor->sizes() != self->sizes() ||
         other.tensor->strides() != self->strides()))
      return Outcome::Fallback;
  }
  // Readable addresses (a simulated device finishes its queued work first); null: real device memory.
  const void* data[2] = {nullptr, nullptr};
  for (int i = 0; i < 2; ++i) {
    if (!ops[i].tensor) continue;
    TensorPtr keep(TensorPtr{}, ops[i].tensor);  // non-owning: the Python operand owns it
    data[i] = host_readable(r, keep);
    if (!data[i]) return Outcome::Fallback;
  }
  TensorPtr out;
  void* out_data = nullptr;
  if (spec.inplace) {
    out_data = host_writable(r, TensorPtr(TensorPtr{}, self));
  } else if (permuted) {
    TensorPtr flat = ds::empty(r, {first->numel()}, out_dtype, first->device(), false, false, current_storage_role());
    out = ds::as_strided(flat, sizes, first->strides(), 0);
    out_data = host_writable(r, out);
  } else {
    out = ds::empty(r, sizes, out_dtype, first->device(), false, false, current_storage_role());
    out_data = host_writable(r, out);
  }
  if (bool_vs_int) {  // (a lone tensor: contiguous or permuted, read and written in memory order)
    const bool tensor_first = ops[0].tensor != nullptr;
    const int64_t number = (tensor_first ? ops[1] : ops[0]).ivalue;
    const bool r0 = tensor_first ? compare_int(spec.binary_kind, 0, number) : compare_int(spec.binary_kind, number, 0);
    const bool r1 = tensor_first ? compare_int(spec.binary_kind, 1, number) : compare_int(spec.binary_kind, number, 1);
    const auto* in = static_cast<const uint8_t*>(data[tensor_first ? 0 : 1]);
    auto* o = static_cast<uint8_t*>(out_data);
    for (int64_t i = 0, n = first->numel(); i < n; ++i) o[i] = in[i] ? r1 : r0;
  } else if (permuted) {  // memory order, flat: the result has the operand's strides
    KernelInput in[2];
    for (int i = 0; i < 2; ++i) {
      in[i].fscalar = ops[i].fvalue;
      in[i].iscalar = ops[i].ivalue;
      if (ops[i].tensor) {
        in[i].data = data[i];
        in[i].strides = {1};
      }
    }
    binary_kernel(spec.binary_kind, compute, Shape{first->numel()}, out_data, in[0], in[1], alpha.fvalue,
                  alpha.ivalue);
  } else {
    binary_kernel(spec.binary_kind, compute, sizes, out_data, kernel_input(ops[0], sizes, data[0]),
                  kernel_input(ops[1], sizes, data[1]), alpha.fvalue, alpha.ivalue);
  }
  if (spec.inplace) {
    self->bump_version();
    result = Py_NewRef(args[0]);
  } else {
    result = wrap_tensor(std::move(out));
  }
  if (!result) return Outcome::Error;
  const int code = int(spec.binary_kind) + (spec.inplace ? kRebaseCodeBase : 0);
  if (record && !record_node(code, ops[0].obj, ops[1].obj, result, kwnames ? args[nargs] : Py_None))
    return Outcome::Error;
  return Outcome::Done;
}

Outcome unary(const Spec& spec, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject*& result) {
  if (nargs != 1 || kwnames) return Outcome::Fallback;
  Operand x;
  if (!classify(args[0], x) || !x.tensor || !plain_tensor(*x.tensor)) return Outcome::Fallback;
  if (x.tensor->dtype() == DType::Bool) return Outcome::Fallback;  // relu/neg of bool raise in PyTorch
  // abs and sqrt: floating tensors only (abs of integers and sqrt's integer-to-float result stay Python's)
  const bool exact = spec.unary_kind == UnaryKind::Abs || spec.unary_kind == UnaryKind::Sqrt;
  if (exact && !is_floating_point(x.tensor->dtype())) return Outcome::Fallback;
  const bool transcendental = !exact && spec.unary_kind != UnaryKind::Relu && spec.unary_kind != UnaryKind::Neg;
  if (transcendental && x.tensor->dtype() != DType::Float32) return Outcome::Fallback;  // see UnaryKind
  // libm's double tanh/exp cost 5-15 ns an element where numpy's vectorized loops cost about 1: past a few
  // thousand elements the Python path (numpy, the same values) is faster than this loop despite its overhead.
  // (measured: tanh breaks even near 2048 elements, exp near 4096, sigmoid - three numpy passes - past 8192)
  // Past that, tanh / exp / sigmoid run numpy's own float64 loops here (fast_op_kernels.h numpy_unary_f32: the Python
  // path's values to the bit) when numpy_loops.h found them.
  const int64_t limit = spec.unary_kind == UnaryKind::Tanh ? 2048 : spec.unary_kind == UnaryKind::Exp ? 4096 : 16384;
  const bool wide = (transcendental || exact) && x.tensor->numel() > limit;
  if (wide && !(transcendental && numpy_loops::available())) return Outcome::Fallback;
  // Under autograd: out of place and floating only (in-place forms rebase history in Python); the node is
  // fast_grad.record's, as for binary ops.
  // (abs's and sqrt's nodes are the Python path's: fast_grad.record does not make them)
  const bool record = needs_autograd(&x, 1);
  if (record && (!g.grad_hook || spec.inplace || exact || !is_floating_point(x.tensor->dtype())))
    return Outcome::Fallback;
  Runtime& r = rt();
  const TensorPtr self(TensorPtr{}, x.tensor);
  const void* in = host_readable(r, self);
  if (!in) return Outcome::Fallback;
  const auto kernel = [&](void* dst) {
    if (wide) numpy_unary_f32(spec.unary_kind, x.tensor->numel(), static_cast<float*>(dst), static_cast<const float*>(in));
    else unary_kernel(spec.unary_kind, x.tensor->dtype(), x.tensor->numel(), dst, in);
  };
  if (spec.inplace) {
    kernel(host_writable(r, self));
    x.tensor->bump_version();
    result = Py_NewRef(args[0]);
    return Outcome::Done;
  }
  TensorPtr out =
      ds::empty(r, x.tensor->sizes(), x.tensor->dtype(), x.tensor->device(), false, false, current_storage_role());
  kernel(host_writable(r, out));
  result = wrap_tensor(std::move(out));
  if (!result) return Outcome::Error;
  if (record && !record_node(kUnaryCodeBase + int(spec.unary_kind), args[0], nullptr, result, Py_None))
    return Outcome::Error;
  return Outcome::Done;
}

// a @ b for two 2-D float32/float64 tensors of one dtype on one device: the product numpy's matmul made
// (same BLAS call, alpha 1, beta 0) without the Python path's copies.
Outcome matmul(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject*& result) {
  if (nargs != 2 || kwnames || !blas_available()) return Outcome::Fallback;
  Operand ops[2];
  if (!classify(args[0], ops[0]) || !classify(args[1], ops[1]) || !ops[0].tensor || !ops[1].tensor)
    return Outcome::Fallback;
  const TensorImpl& a = *ops[0].tensor;
  const TensorImpl& b = *ops[1].tensor;
  const DType dt = a.dtype();
  if (a.dim() != 2 || b.dim() != 2 || b.dtype() != dt || (dt != DType::Float32 && dt != DType::Float64))
    return Outcome::Fallback;
  if (a.sizes()[1] != b.sizes()[0] || a.numel() == 0 || b.numel() == 0) return Outcome::Fallback;
  if (a.is_virtual() || b.is_virtual() || !(a.device() == b.device()) || a.device().type() == DeviceType::Meta)
    return Outcome::Fallback;
  GemmOperand ga, gb;
  if (!gemm_layout(a, ga) || !gemm_layout(b, gb)) return Outcome::Fallback;
  if (needs_autograd(ops, 2)) return Outcome::Fallback;
  Runtime& r = rt();
  ga.data = host_readable(r, TensorPtr(TensorPtr{}, ops[0].tensor));
  gb.data = host_readable(r, TensorPtr(TensorPtr{}, ops[1].tensor));
  if (!ga.data || !gb.data) return Outcome::Fallback;
  const int64_t m = a.sizes()[0], k = a.sizes()[1], n = b.sizes()[1];
  TensorPtr out = ds::empty(r, {m, n}, dt, a.device(), false, false, current_storage_role());
  if (!gemm(dt, m, n, k, ga, gb, host_writable(r, out))) return Outcome::Fallback;
  if (a.device().type() == DeviceType::CUDA && g.blas_hook) {  // on a GPU this is a cuBLAS call
    const int d = a.device().index();
    const StreamId s = r.current_stream(d);
    const uint64_t epoch = g_blas_epoch.load(std::memory_order_relaxed);
    if (t_blas_seen.device != d || t_blas_seen.stream != s || t_blas_seen.epoch != epoch) {
      PyObject* done = PyObject_CallFunction(g.blas_hook, "iLLL", d, (long long)m, (long long)n, (long long)k);
      if (!done) return Outcome::Error;
      Py_DECREF(done);
      t_blas_seen = {d, s, epoch};
    }
  }
  result = wrap_tensor(std::move(out));
  return result ? Outcome::Done : Outcome::Error;
}

// x.sum() with no other argument, for a dense float32/float64 tensor (with or without autograd): the 0-dim result the
// Python path makes (one allocation), with np.sum's value.
Outcome sum_all(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject*& result) {
  if (nargs != 1 || kwnames) return Outcome::Fallback;
  Operand x;
  if (!classify(args[0], x) || !x.tensor || !plain_tensor(*x.tensor)) return Outcome::Fallback;
  const DType dt = x.tensor->dtype();
  if (dt != DType::Float32 && dt != DType::Float64) return Outcome::Fallback;
  const bool record = needs_autograd(&x, 1);  // SumBackward0 from fast_grad.record, as for the elementwise ops
  if (record && !g.grad_hook) return Outcome::Fallback;
  Runtime& r = rt();
  const void* in = host_readable(r, TensorPtr(TensorPtr{}, x.tensor));
  if (!in) return Outcome::Fallback;
  const int64_t n = x.tensor->numel();
  TensorPtr out = ds::empty(r, {}, dt, x.tensor->device(), false, false, current_storage_role());
  void* o = host_writable(r, out);
  if (dt == DType::Float32) {
    const float* p = static_cast<const float*>(in);
    *static_cast<float*>(o) = numpy_sum(p, n);
  } else {
    const double* p = static_cast<const double*>(in);
    *static_cast<double*>(o) = numpy_sum(p, n);
  }
  result = wrap_tensor(std::move(out));
  if (!result) return Outcome::Error;
  if (record && !record_node(kSumCode, args[0], nullptr, result, Py_None)) return Outcome::Error;
  return Outcome::Done;
}

// x ** 1, x ** 2 and x ** 3 (pow.Tensor_Scalar with a Python int or float exponent) for a dense float32/float64
// tensor, and x ** e (integral e in 4..64) for float32, with or without autograd: elementwise._pow_float_number's
// case, whose values are x's copy (pow_Tensor_Scalar_out's copy_ for 1), numpy's x * x and x * x * x in the
// tensor's dtype (pow_tensor_scalar_kernel's products) and _pow_scalar_special's double powers rounded once,
// computed here in the same order, into the one contiguous result it allocates (size-1 dims only with row-major
// strides: make_pointwise's plain case). The node (PowBackward0, saving self and the exponent as given) is
// fast_grad.record's, the Python path's own attach.
Outcome pow_scalar(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject*& result) {
  if (nargs != 2 || kwnames) return Outcome::Fallback;
  Operand x;
  if (!classify(args[0], x) || !x.tensor || !plain_tensor(*x.tensor)) return Outcome::Fallback;
  const DType dt = x.tensor->dtype();
  if (dt != DType::Float32 && dt != DType::Float64) return Outcome::Fallback;
  if (!row_major_strides(*x.tensor)) return Outcome::Fallback;  // (make_pointwise lays those out: Python's)
  PyObject* e = args[1];
  double power = 0;
  if (PyLong_CheckExact(e)) {
    const long v = PyLong_AsLong(e);
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return Outcome::Fallback;
    }
    power = double(v);
  } else if (PyFloat_CheckExact(e)) {
    power = PyFloat_AS_DOUBLE(e);
  } else {
    return Outcome::Fallback;
  }
  const bool int_power = dt == DType::Float32 && power >= 4.0 && power <= 64.0 && power == std::floor(power);
  if (power != 1.0 && power != 2.0 && power != 3.0 && !int_power) return Outcome::Fallback;
  const bool record = needs_autograd(&x, 1);
  if (record && !g.grad_hook) return Outcome::Fallback;
  Runtime& r = rt();
  const void* in = host_readable(r, TensorPtr(TensorPtr{}, x.tensor));
  if (!in) return Outcome::Fallback;
  const int64_t n = x.tensor->numel();
  TensorPtr out = ds::empty(r, x.tensor->sizes(), dt, x.tensor->device(), false, false, current_storage_role());
  void* o = host_writable(r, out);
  const bool cube = power == 3.0;
  if (power == 1.0) std::memcpy(o, in, size_t(n) * itemsize(dt));
  else if (int_power) float_int_power(static_cast<float*>(o), static_cast<const float*>(in), n, int(power));
  else if (dt == DType::Float32) square_or_cube(static_cast<float*>(o), static_cast<const float*>(in), n, cube);
  else square_or_cube(static_cast<double*>(o), static_cast<const double*>(in), n, cube);
  result = wrap_tensor(std::move(out));
  if (!result) return Outcome::Error;
  if (record && !record_node(kPowCode, args[0], e, result, Py_None)) return Outcome::Error;
  return Outcome::Done;
}

PyObject* fast_call(PyObject* capsule, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  const Spec& spec = *static_cast<const Spec*>(PyCapsule_GetPointer(capsule, nullptr));
  const Py_ssize_t n = PyVectorcall_NARGS(nargs);
  PyObject* result = nullptr;
  Outcome outcome = Outcome::Fallback;
  if (g.tensor_type) {
    try {
      outcome = spec.sum      ? sum_all(args, n, kwnames, result)
                : spec.pow    ? pow_scalar(args, n, kwnames, result)
                : spec.matmul ? matmul(args, n, kwnames, result)
                : spec.unary ? unary(spec, args, n, kwnames, result)
                             : binary(spec, args, n, kwnames, result);
    } catch (const Error& e) {
      set_python_error(e);  // e.g. torch.cuda.OutOfMemoryError from the allocator
      return nullptr;
    } catch (py::error_already_set& e) {
      e.restore();
      return nullptr;
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
      return nullptr;
    }
  }
  if (outcome == Outcome::Done) return result;
  if (outcome == Outcome::Error) return nullptr;
  return PyObject_Vectorcall(spec.fallback, args, n, kwnames);
}

PyMethodDef g_fast_def = {"fast_op", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fast_call)),
                          METH_FASTCALL | METH_KEYWORDS, "DeviceScope elementwise fast path (falls back to Python)"};

// A callable running `spec` (as a method when as_method: it binds `self` like a Python function does).
py::object make_entry(Spec spec, py::object fallback, bool as_method) {
  spec.function = !as_method;
  spec.fallback = fallback.release().ptr();  // owned by the spec, which lives as long as the interpreter
  PyObject* capsule = PyCapsule_New(new Spec(spec), nullptr, nullptr);
  if (!capsule) throw py::error_already_set();
  PyObject* fn = PyCFunction_NewEx(&g_fast_def, capsule, nullptr);
  Py_DECREF(capsule);
  if (!fn) throw py::error_already_set();
  if (!as_method) return py::reinterpret_steal<py::object>(fn);
  PyObject* method = PyInstanceMethod_New(fn);
  Py_DECREF(fn);
  if (!method) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(method);
}

PyObject* intern(const char* s) { return PyUnicode_InternFromString(s); }

}  // namespace

// The BLAS view of a 2-D operand, for the kernels of bindings_fast_grad.cpp.
bool fast_gemm_layout(const TensorImpl& t, GemmOperand& op) { return gemm_layout(t, op); }
// np.sum's exact order over a contiguous array, for the kernels of bindings_fast_grad.cpp.
float fast_numpy_sum(const float* a, int64_t n) { return numpy_sum(a, n); }
double fast_numpy_sum(const double* a, int64_t n) { return numpy_sum(a, n); }

void bind_fast_grad(py::module_& m);  // bindings_fast_grad.cpp
void bind_views(py::module_& m);      // bindings_views.cpp
void bind_join(py::module_& m);       // bindings_join.cpp
void bind_fast_entries(py::module_& m);  // fast_entry.cpp

void bind_ops(py::module_& m) {
  m.def("_fast_ops_setup", [](py::object tensor_cls, py::list grad_enabled, py::dict default_state) {
    g.tensor_type = reinterpret_cast<PyTypeObject*>(tensor_cls.release().ptr());
    g.grad_enabled = grad_enabled.release().ptr();
    g.default_state = default_state.release().ptr();
    g.empty_tuple = PyTuple_New(0);
    g.s_impl = intern("_impl");
    g.s_grad_fn = intern("_grad_fn");
    g.s_requires_grad = intern("_requires_grad");
    g.s_base = intern("_base");
    g.s_alpha = intern("alpha");
    g.s_dtype = intern("dtype");
    g.s_code = intern("_code");
  });
  m.def("_fast_blas_hook", [](py::object fn) { g.blas_hook = fn.release().ptr(); });
  m.def("_fast_grad_hook", [](py::object fn) { g.grad_hook = fn.release().ptr(); });
  m.def("_fast_blas_epoch_bump", [] { g_blas_epoch.fetch_add(1, std::memory_order_relaxed); });
  // kind: "add" | "sub" | "mul" | "div" | "eq" | "ne" | "lt" | "le" | "gt" | "ge"; fallback: the Python implementation with the same signature.
  m.def("fast_binary", [](const std::string& kind, bool reflected, bool inplace, py::object fallback, bool as_method) {
    Spec s;
    if (kind == "add") s.binary_kind = BinaryKind::Add;
    else if (kind == "sub") s.binary_kind = BinaryKind::Sub;
    else if (kind == "mul") s.binary_kind = BinaryKind::Mul;
    else if (kind == "div") s.binary_kind = BinaryKind::Div;
    else if (kind == "eq") s.binary_kind = BinaryKind::Eq;
    else if (kind == "ne") s.binary_kind = BinaryKind::Ne;
    else if (kind == "lt") s.binary_kind = BinaryKind::Lt;
    else if (kind == "le") s.binary_kind = BinaryKind::Le;
    else if (kind == "gt") s.binary_kind = BinaryKind::Gt;
    else if (kind == "ge") s.binary_kind = BinaryKind::Ge;
    else raise(ErrorKind::ValueError, "fast_binary: unknown op " + kind);
    s.reflected = reflected;
    s.inplace = inplace;
    return make_entry(s, std::move(fallback), as_method);
  }, py::arg("kind"), py::arg("reflected"), py::arg("inplace"), py::arg("fallback"), py::arg("as_method") = true);
  // kind: "relu" | "neg" | "tanh" | "sigmoid" | "exp" (these three for float32 tensors) | "abs" | "sqrt" (float
  // tensors, without autograd)
  m.def("fast_unary", [](const std::string& kind, bool inplace, py::object fallback, bool as_method) {
    Spec s;
    s.unary = true;
    if (kind == "relu") s.unary_kind = UnaryKind::Relu;
    else if (kind == "neg") s.unary_kind = UnaryKind::Neg;
    else if (kind == "tanh") s.unary_kind = UnaryKind::Tanh;
    else if (kind == "sigmoid") s.unary_kind = UnaryKind::Sigmoid;
    else if (kind == "exp") s.unary_kind = UnaryKind::Exp;
    else if (kind == "abs") s.unary_kind = UnaryKind::Abs;
    else if (kind == "sqrt") s.unary_kind = UnaryKind::Sqrt;
    else raise(ErrorKind::ValueError, "fast_unary: unknown op " + kind);
    s.inplace = inplace;
    return make_entry(s, std::move(fallback), as_method);
  }, py::arg("kind"), py::arg("inplace"), py::arg("fallback"), py::arg("as_method") = true);
  // a @ b, a.mm(b), torch.matmul(a, b) for 2-D float operands
  m.def("fast_matmul", [](py::object fallback, bool as_method) {
    Spec s;
    s.matmul = true;
    return make_entry(s, std::move(fallback), as_method);
  }, py::arg("fallback"), py::arg("as_method") = true);
  // x.sum() of a whole float tensor
  m.def("fast_sum", [](py::object fallback, bool as_method) {
    Spec s;
    s.sum = true;
    return make_entry(s, std::move(fallback), as_method);
  }, py::arg("fallback"), py::arg("as_method") = true);
  // x ** 2 / x ** 3 of a float tensor (Tensor.__pow__, Tensor.pow, torch.pow)
  m.def("fast_pow", [](py::object fallback, bool as_method) {
    Spec s;
    s.pow = true;
    return make_entry(s, std::move(fallback), as_method);
  }, py::arg("fallback"), py::arg("as_method") = true);
  bind_fast_grad(m);  // log_softmax kernels (bindings_fast_grad.cpp), registered with the fast path
  bind_fast_entries(m);  // what the view and join fast paths share (fast_entry.cpp)
  bind_views(m);         // the view ops' fast path (bindings_views.cpp)
  bind_join(m);          // cat and stack (bindings_join.cpp)
  // The BLAS the fast matmul calls (a path), "" when none was found.
  m.def("blas_library", [] { return blas_available() ? std::string(blas_library_path()) : std::string(); });
}

}  // namespace ds::python

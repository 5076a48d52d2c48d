// The C++ entry of torch.addmm (issue 23): nn.Linear's forward (F.linear -> addmm(bias, x, weight.t())) and the RNN
// cells' hidden-state product ran ~15 Python calls per addmm (argument checks, the kernel, _blas_workspace.addmm's
// cuBLASLt scratch block and cuBLAS handle, the AddmmBackward0 node with its closure) and as many again in its
// backward. Here, for addmm(input, mat1, mat2) without keywords where bindings_fast_grad.cpp's kernel applies:
//   1. the kernel (the same one torch/_ops/linalg.py's _addmm_py calls first),
//   2. the workspace steps of torch/_blas_workspace.addmm on a CUDA device, in its order: cuBLASLt's gemm_and_bias
//      (a contiguous [n] bias, mat2 at least 2 x 2, DISABLE_ADDMM_CUDA_LT unset) allocates its scratch block from
//      the caching allocator, takes the thread's cuBLAS handle (whose workspace the first call per (handle, stream)
//      makes, through _blas_workspace.gemm_at) and frees the scratch on return; any other addmm takes the handle,
//   3. AddmmBackward0 through graph.attach with the saved values _attach_addmm gives, and as its function a C++
//      callable that runs _addmm_backward_fast's steps (two products, their workspaces, the bias's column sums)
//      and hands every other case (create_graph, a virtual or strided gradient, a 2-D input) to linalg.py's
//      _addmm_backward_ref, the Python path's own code.
// Anything else (keywords, beta/alpha, out=, other dtypes or layouts, virtual tensors, the cached cuBLASLt workspace
// of PyTorch >= 2.9) reaches _addmm_py unchanged, which stays the reference: DEVICESCOPE_PY_LINALG=1 installs none of
// this, and tests/fastpath/linalg_agreement.py holds the two to the same graph, values and allocator trace.
#include <Python.h>

#include <atomic>

#include "fast_entry.h"
#include "tensor/blas_gemm.h"
#include "tensor/tensor_ops.h"

namespace ds::python {

TensorPtr fast_addmm_kernel(const TensorPtr& input, const TensorPtr& mat1, const TensorPtr& mat2);  // bindings_fast_grad
TensorPtr fast_mm_kernel(const TensorPtr& a, const TensorPtr& b, bool ta, bool tb);
TensorPtr fast_sum_rows_kernel(const TensorPtr& g);
bool fast_gemm_layout(const TensorImpl& t, GemmOperand& op);  // bindings_ops.cpp

namespace {

// Set once by _linalg_fast_setup (torch/_ops/linalg.py); the interpreter keeps these objects alive.
struct LinalgState {
  PyObject* graph = nullptr;         // torch.autograd.graph (its `attach`, read per call as Python code does)
  PyObject* backward_ref = nullptr;  // linalg._addmm_backward_ref
  PyObject* gemm_at = nullptr;       // _blas_workspace.gemm_at(device, m, n, k)
  PyObject* lt_config = nullptr;     // _blas_workspace._fast_lt_config() -> (lt disabled, lt cached, device thread)
  PyObject* lt_size = nullptr;       // _blas_workspace.cublaslt_size()
  PyObject* hide_frames = nullptr;   // _devicescope_C.hide_python_frames
  PyObject* shape = nullptr;         // torch._ops.shape, imported at the first transposed gradient
  PyObject* s_attach = nullptr;
  PyObject* s_t = nullptr;
  PyObject* name = nullptr;  // "AddmmBackward0"
  PyObject* keys[8] = {};    // the saved dict's keys, in _attach_addmm's order
  PyObject* one = nullptr;
};
LinalgState g;

// What this thread last learnt from _blas_workspace, valid while the epoch stands (bumped with the fast matmul's:
// a clear, a session reset, the autograd engine's device-thread identity set or dropped): the (device, stream) whose
// cuBLAS workspace its handle has, and the cuBLASLt settings.
std::atomic<uint64_t> g_epoch{1};
struct ThreadMemo {
  uint64_t gemm_epoch = 0;
  int gemm_device = -1;
  StreamId gemm_stream = -1;
  uint64_t config_epoch = 0;
  bool lt_disabled = false, lt_cached = false, device_thread = false;
  uint64_t size_epoch = 0;
  int64_t lt_bytes = 0;
};
thread_local ThreadMemo t_memo;

uint64_t epoch() { return g_epoch.load(std::memory_order_relaxed); }

// _blas_workspace._cublas_handle(d) (gemm() with a non-empty product): asks Python only for a new (device, stream).
bool cublas_handle(int d) {
  const StreamId s = rt().current_stream(d);
  const uint64_t e = epoch();
  ThreadMemo& m = t_memo;
  if (m.gemm_epoch == e && m.gemm_device == d && m.gemm_stream == s) return true;
  PyObject* done = PyObject_CallFunction(g.gemm_at, "iLLL", d, 1LL, 1LL, 1LL);
  if (!done) return false;
  Py_DECREF(done);
  m.gemm_epoch = e;
  m.gemm_device = d;
  m.gemm_stream = s;
  return true;
}

// W.gemm(dev, m, n, k): nothing off a GPU or for an empty product (ATen returns before BLAS).
bool gemm_workspace(int cuda, int64_t m, int64_t n, int64_t k) {
  if (cuda < 0 || m * n == 0 || k == 0) return true;
  return cublas_handle(cuda);
}

bool lt_config() {
  ThreadMemo& m = t_memo;
  const uint64_t e = epoch();
  if (m.config_epoch == e) return true;
  PyObject* c = PyObject_CallNoArgs(g.lt_config);
  if (!c) return false;
  const int a = PyObject_IsTrue(PyTuple_GetItem(c, 0)), b = PyObject_IsTrue(PyTuple_GetItem(c, 1)),
            t = PyObject_IsTrue(PyTuple_GetItem(c, 2));
  Py_DECREF(c);
  if (a < 0 || b < 0 || t < 0) return false;
  m.lt_disabled = a;
  m.lt_cached = b;
  m.device_thread = t;
  m.config_epoch = e;
  return true;
}

bool lt_bytes(int64_t& out) {
  ThreadMemo& m = t_memo;
  const uint64_t e = epoch();
  if (m.size_epoch != e) {
    PyObject* n = PyObject_CallNoArgs(g.lt_size);  // (warns about a bad CUBLASLT_WORKSPACE_SIZE, once per session)
    if (!n) return false;
    const long long v = PyLong_AsLongLong(n);
    Py_DECREF(n);
    if (v == -1 && PyErr_Occurred()) return false;
    m.lt_bytes = v;
    m.size_epoch = e;
  }
  out = m.lt_bytes;
  return true;
}

// _blas_workspace._allocate(d, nbytes, LT_OWNER): a block outside any composite's scratch scope, role workspace,
// owned by "cuBLASLt workspace", without Python frames on the autograd engine's device thread.
TensorPtr allocate_lt_scratch(int d, int64_t nbytes) {
  struct Frames {  // hide_python_frames(True) ... restore, as _allocate brackets the allocation
    py::object previous;
    ~Frames() {
      if (previous) {
        PyObject* r = PyObject_CallOneArg(g.hide_frames, previous.ptr());
        if (r) Py_DECREF(r);
        else PyErr_Clear();
      }
    }
  } frames;
  if (t_memo.device_thread) {
    PyObject* p = PyObject_CallOneArg(g.hide_frames, Py_True);
    if (!p) throw py::error_already_set();
    frames.previous = py::reinterpret_steal<py::object>(p);
  }
  struct Scratch {  // out of every scratch scope, back in afterwards
    int depth = 0;
    ~Scratch() {
      for (int i = 0; i < depth; ++i) Runtime::enter_scratch();
    }
  } scratch;
  while (Runtime::scratch_depth() > 0) {
    Runtime::exit_scratch();
    ++scratch.depth;
  }
  TensorPtr block = ds::empty(rt(), {nbytes}, DType::UInt8, Device(DeviceType::CUDA, d), false, false, Role::Workspace);
  block->storage()->set_owner("cuBLASLt workspace");
  return block;
}

// _blas_workspace.addmm's steps after the kernel (lt: its uses_lt, decided before the kernel ran).
bool addmm_workspace(int cuda, bool lt, int64_t m, int64_t n, int64_t k) {
  if (cuda < 0 || m * n == 0 || k == 0) return true;
  if (!lt) return cublas_handle(cuda);
  int64_t nbytes = 0;
  if (!lt_bytes(nbytes)) return false;
  TensorPtr scratch = allocate_lt_scratch(cuda, nbytes);  // PyTorch 2.6 gemm_and_bias: per call, freed at return
  return cublas_handle(cuda);
}

int cuda_index(const TensorImpl& t) { return t.device().type() == DeviceType::CUDA ? t.device().index() : -1; }

int key_of(const Device& d) { return d.is_cpu() ? -1 : d.type() == DeviceType::Meta ? -3 : d.has_index() ? d.index() : -2; }

bool col_major(const TensorImpl& t) {  // linalg._col_major
  return t.dim() == 2 && t.strides()[0] == 1 && t.strides()[1] == t.sizes()[0];
}

TensorPtr borrowed(TensorImpl* t) { return TensorPtr(TensorPtr{}, t); }  // the Tensor object keeps it alive

// ----------------------------------------------------------------------------- AddmmBackward0's function
struct AddmmGrad {
  PyObject* s1 = nullptr;  // the saved mat1 / mat2 (Tensor or None), owned
  PyObject* s2 = nullptr;
  bool need_a = false, need_b = false, m1_col = false, m2_col = false;
  Shape i_shape, m1_shape, m2_shape;
  int dtype_code = 0, device_key = -1, cuda = -1;
};

constexpr const char* kGradCapsule = "devicescope.AddmmGrad";

void destroy_grad(PyObject* capsule) {
  auto* s = static_cast<AddmmGrad*>(PyCapsule_GetPointer(capsule, kGradCapsule));
  if (!s) return;
  Py_XDECREF(s->s1);
  Py_XDECREF(s->s2);
  delete s;
}

PyObject* transposed_view(PyObject* t) {  // S.t(C.wrap(...)): the view, as shape.t makes it
  if (!g.shape) {
    g.shape = PyImport_ImportModule("torch._ops.shape");
    if (!g.shape) return nullptr;
  }
  PyObject* fn = PyObject_GetAttr(g.shape, g.s_t);
  if (!fn) return nullptr;
  PyObject* out = PyObject_CallOneArg(fn, t);
  Py_DECREF(fn);
  return out;
}

PyObject* wrap_grad(TensorPtr t, bool col) {
  PyObject* w = fast_wrap(std::move(t));
  if (!w || !col) return w;
  PyObject* v = transposed_view(w);
  Py_DECREF(w);
  return v;
}

// _addmm_backward_fast: a new reference to (gi, ga, gb); null without an error where it does not apply (nothing it
// allocated is kept then), null with an error on a failure.
PyObject* backward_fast(const AddmmGrad& s, TensorImpl* grad) {
  if (grad->dim() != 2 || !grad->is_contiguous()) return nullptr;
  TensorImpl* m1 = s.s1 == Py_None ? nullptr : fast_impl_of(s.s1);
  TensorImpl* m2 = s.s2 == Py_None ? nullptr : fast_impl_of(s.s2);
  for (int i = 0; i < 2; ++i) {
    PyObject* obj = i ? s.s2 : s.s1;
    TensorImpl* x = i ? m2 : m1;
    if (obj == Py_None) continue;
    GemmOperand op;
    if (!x || x->is_virtual() || x->dim() != 2 || !fast_gemm_layout(*x, op)) return nullptr;
  }
  const TensorPtr gp = borrowed(grad);
  TensorPtr ga, gb;
  if (s.need_a) {
    ga = s.m1_col ? fast_mm_kernel(borrowed(m2), gp, false, true) : fast_mm_kernel(gp, borrowed(m2), false, true);
    if (!ga) return nullptr;
    if (!gemm_workspace(s.cuda, s.m1_shape[0], s.m1_shape[1], s.m2_shape[1])) return nullptr;
  }
  if (s.need_b) {
    gb = s.m2_col ? fast_mm_kernel(gp, borrowed(m1), true, false) : fast_mm_kernel(borrowed(m1), gp, true, false);
    if (!gb) return nullptr;
    if (!gemm_workspace(s.cuda, s.m2_shape[0], s.m2_shape[1], s.m1_shape[0])) return nullptr;
  }
  TensorPtr gi = fast_sum_rows_kernel(gp);
  if (!gi) return nullptr;
  // wrapped in _addmm_backward_fast's order: mat1's gradient, mat2's, the input's
  py::object a = py::none(), b = py::none();
  if (ga && !(a = py::reinterpret_steal<py::object>(wrap_grad(std::move(ga), s.m1_col)))) return nullptr;
  if (gb && !(b = py::reinterpret_steal<py::object>(wrap_grad(std::move(gb), s.m2_col)))) return nullptr;
  py::object i = py::reinterpret_steal<py::object>(fast_wrap(std::move(gi)));
  if (!i) return nullptr;
  return PyTuple_Pack(3, i.ptr(), a.ptr(), b.ptr());
}

PyObject* call_ref(const AddmmGrad& s, PyObject* gs, bool plain) {
  py::object i_shape = py::reinterpret_steal<py::object>(fast_tuple_of(s.i_shape));
  py::object m1 = py::reinterpret_steal<py::object>(fast_tuple_of(s.m1_shape));
  py::object m2 = py::reinterpret_steal<py::object>(fast_tuple_of(s.m2_shape));
  if (!i_shape || !m1 || !m2) return nullptr;
  py::object dt = py::int_(s.dtype_code), dev = py::int_(s.device_key);
  PyObject* b[] = {Py_False, Py_True};
  return PyObject_CallFunctionObjArgs(g.backward_ref, gs, s.s1, s.s2, b[s.need_a], b[s.need_b], i_shape.ptr(),
                                      m1.ptr(), m2.ptr(), b[s.m1_col], b[s.m2_col], dt.ptr(), dev.ptr(), b[plain],
                                      nullptr);
}

PyObject* addmm_backward_call(PyObject* capsule, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  const auto* s = static_cast<const AddmmGrad*>(PyCapsule_GetPointer(capsule, kGradCapsule));
  if (!s) return nullptr;
  if (PyVectorcall_NARGS(nargsf) != 1 || kwnames) {
    PyErr_SetString(PyExc_TypeError, "AddmmBackward0's function takes the list of gradients");
    return nullptr;
  }
  PyObject* gs = args[0];
  bool plain = true;
  const int recording = PyObject_IsTrue(PyList_GET_ITEM(fast_state().grad_enabled, 0));
  if (recording < 0) return nullptr;
  if (!recording && s->i_shape.size() == 1) {  // (create_graph: the differentiable formulas, in Python)
    PyObject* g0 = PySequence_GetItem(gs, 0);
    if (!g0) return nullptr;
    TensorImpl* grad = fast_impl_of(g0);
    PyObject* out = nullptr;
    try {
      if (grad && !grad->is_virtual()) {
        out = backward_fast(*s, grad);
        plain = false;  // tried: the Python steps start at their numpy path
      }
    } catch (const Error& e) {
      Py_DECREF(g0);
      set_python_error(e);
      return nullptr;
    } catch (py::error_already_set& e) {
      Py_DECREF(g0);
      e.restore();
      return nullptr;
    }
    Py_DECREF(g0);
    if (out || PyErr_Occurred()) return out;
  }
  return call_ref(*s, gs, plain);
}

PyMethodDef g_backward_def = {"AddmmBackward0_fn",
                              reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(addmm_backward_call)),
                              METH_FASTCALL | METH_KEYWORDS, "AddmmBackward0's function (bindings_linalg_fast.cpp)"};

// ----------------------------------------------------------------------------- the forward
PyObject* make_backward(PyObject* const* args, TensorImpl* in, TensorImpl* a, TensorImpl* b, bool need_a, bool need_b) {
  auto* s = new AddmmGrad;
  s->s1 = need_b ? args[1] : Py_None;
  s->s2 = need_a ? args[2] : Py_None;
  Py_INCREF(s->s1);
  Py_INCREF(s->s2);
  s->need_a = need_a;
  s->need_b = need_b;
  s->m1_col = col_major(*a);
  s->m2_col = col_major(*b);
  s->i_shape = in->sizes();
  s->m1_shape = a->sizes();
  s->m2_shape = b->sizes();
  s->dtype_code = int(a->dtype());
  s->device_key = key_of(a->device());
  s->cuda = cuda_index(*a);
  PyObject* capsule = PyCapsule_New(s, kGradCapsule, destroy_grad);
  if (!capsule) {
    Py_DECREF(s->s1);
    Py_DECREF(s->s2);
    delete s;
    return nullptr;
  }
  PyObject* fn = PyCFunction_NewEx(&g_backward_def, capsule, nullptr);
  Py_DECREF(capsule);
  return fn;
}

// _attach_addmm for beta = alpha = 1 and non-virtual operands: graph.attach("AddmmBackward0", [r], [input, mat1,
// mat2], fn, saved={...}) with the Python path's saved dict.
bool attach(PyObject* result, PyObject* const* args, TensorImpl* in, TensorImpl* a, TensorImpl* b) {
  const int need_a = fast_needs_grad(args[1]), need_b = fast_needs_grad(args[2]);
  if (need_a < 0 || need_b < 0) return false;
  py::object empty = py::reinterpret_steal<py::object>(PyTuple_New(0));
  auto tuple = [](const Shape& sh) { return py::reinterpret_steal<py::object>(fast_tuple_of(sh)); };
  py::object values[8] = {py::reinterpret_borrow<py::object>(g.one),
                          py::reinterpret_borrow<py::object>(g.one),
                          py::reinterpret_borrow<py::object>(need_b ? args[1] : Py_None),
                          tuple(a->sizes()),
                          need_a ? tuple(a->strides()) : empty,
                          py::reinterpret_borrow<py::object>(need_a ? args[2] : Py_None),
                          tuple(b->sizes()),
                          need_b ? tuple(b->strides()) : empty};
  py::dict saved;
  for (int i = 0; i < 8; ++i) {
    if (!values[i]) return false;
    if (PyDict_SetItem(saved.ptr(), g.keys[i], values[i].ptr()) < 0) return false;
  }
  py::object fn = py::reinterpret_steal<py::object>(make_backward(args, in, a, b, need_a, need_b));
  if (!fn) return false;
  py::object outputs = py::reinterpret_steal<py::object>(PyList_New(1));
  py::object inputs = py::reinterpret_steal<py::object>(PyList_New(3));
  if (!outputs || !inputs) return false;
  Py_INCREF(result);
  PyList_SET_ITEM(outputs.ptr(), 0, result);
  for (int i = 0; i < 3; ++i) {
    Py_INCREF(args[i]);
    PyList_SET_ITEM(inputs.ptr(), i, args[i]);
  }
  PyObject* attach_fn = PyObject_GetAttr(g.graph, g.s_attach);
  if (!attach_fn) return false;
  PyObject* node = PyObject_CallFunctionObjArgs(attach_fn, g.name, outputs.ptr(), inputs.ptr(), fn.ptr(), saved.ptr(),
                                                nullptr);
  Py_DECREF(attach_fn);
  if (!node) return false;
  Py_DECREF(node);
  return true;
}

PyObject* addmm_attempt(const FastSpecHead&, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs != 3 || (kwnames && PyTuple_GET_SIZE(kwnames) > 0) || !g.graph) return nullptr;
  TensorImpl* in = fast_impl_of(args[0]);
  TensorImpl* a = fast_impl_of(args[1]);
  TensorImpl* b = fast_impl_of(args[2]);
  if (!in || !a || !b || in->is_virtual() || a->is_virtual() || b->is_virtual() || a->dim() != 2 || b->dim() != 2)
    return nullptr;
  const int64_t m = a->sizes()[0], k = a->sizes()[1], n = b->sizes()[1];
  const int cuda = cuda_index(*a);
  bool lt = false;
  if (cuda >= 0 && m * n != 0 && k != 0) {  // _blas_workspace.uses_lt (the kernel's dtypes all qualify)
    if (!lt_config()) return nullptr;
    lt = !t_memo.lt_disabled && in->dim() == 1 && in->sizes()[0] == n && in->is_contiguous() && b->sizes()[0] > 1 &&
         b->sizes()[1] > 1;
    if (lt && t_memo.lt_cached) return nullptr;  // the per-(handle, stream) Lt workspace: the Python steps
  }
  int record = 0;
  for (int i = 0; i < 3 && !record; ++i) {
    record = fast_needs_grad(args[i]);
    if (record < 0) return nullptr;
  }
  TensorPtr out = fast_addmm_kernel(borrowed(in), borrowed(a), borrowed(b));
  if (!out) return nullptr;
  PyObject* result = fast_wrap(std::move(out));
  if (!result) return nullptr;
  if (!addmm_workspace(cuda, lt, m, n, k) || (record && !attach(result, args, in, a, b))) {
    Py_DECREF(result);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "addmm: could not record the node");
    return nullptr;
  }
  return result;
}

PyObject* intern(const char* s) { return PyUnicode_InternFromString(s); }

}  // namespace

void bind_linalg_fast(py::module_& m) {
  m.def("_linalg_fast_setup", [](py::object graph, py::object backward_ref, py::object gemm_at, py::object lt_config,
                                 py::object lt_size, py::object hide_frames) {
    g.graph = graph.release().ptr();
    g.backward_ref = backward_ref.release().ptr();
    g.gemm_at = gemm_at.release().ptr();
    g.lt_config = lt_config.release().ptr();
    g.lt_size = lt_size.release().ptr();
    g.hide_frames = hide_frames.release().ptr();
    g.s_attach = intern("attach");
    g.s_t = intern("t");
    g.name = intern("AddmmBackward0");
    const char* keys[8] = {"alpha", "beta", "mat1", "mat1_sym_sizes", "mat1_sym_strides", "mat2", "mat2_sym_sizes",
                           "mat2_sym_strides"};
    for (int i = 0; i < 8; ++i) g.keys[i] = intern(keys[i]);
    g.one = PyLong_FromLong(1);
  });
  m.def("_linalg_epoch_bump", [] { g_epoch.fetch_add(1, std::memory_order_relaxed); });
  // torch.addmm(input, mat1, mat2) in C++ where it can (see the top of this file), else `fallback`
  m.def("fast_addmm", [](py::object fallback) {
    auto* spec = new FastSpecHead;  // lives as long as the interpreter, like the other entries' specs
    spec->fallback = fallback.release().ptr();
    spec->attempt = addmm_attempt;
    return fast_make_entry(spec, false);
  });
}

}  // namespace ds::python

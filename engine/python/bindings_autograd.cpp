// The backward engine's loop in C++ (issue 23: a training step of many small ops spent more time in the Python
// engine's bookkeeping than in the nodes). `autograd_execute` is torch/autograd/graph.py's reference engine
// (`_execute_py`) statement for statement: the same traversal and dependency counts, the same ready queue
// (highest sequence_nr first, ties in push order), the same input buffers (Python lists of [grad, owned], so hooks,
// capture and the in-place accumulation test see the same objects and reference counts), and the same points at
// which a gradient stops being referenced: the previous node's buffer when the next node is popped, its gradient
// list when the next non-AccumulateGrad node runs, leftovers in the Python frame's order at the end. So
// allocations and frees land in the event log in the order the Python engine gave them. Everything that is not
// bookkeeping stays in Python and is called from here: the nodes' backward functions, tensor hooks and
// retain_grad (_apply_output_hooks), AccumulateGrad's accumulation (_accumulate), the saved-tensor version error
// (_check_saved, only once a version differs), the device-thread switch (only when the device changes) and the
// observer. Done here in the common case only: a buffer's in-place accumulation of float gradients (add_into, the
// add_ kernel without the method call) and a leaf's plain first or in-place .grad (accumulate_common); nodes'
// slots are read where they live (NodeAccess).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "autograd_layout.h"
#include "bindings_common.h"
#include "fast_entry.h"
#include "node_slots.h"
#include "tensor/elementwise_kernels.h"
#include "tensor/tensor_ops.h"

namespace ds::python {
namespace {

PyObject* intern(const char* s) { return PyUnicode_InternFromString(s); }

struct Names {
  PyObject* next = intern("_next");
  PyObject* noutputs = intern("_noutputs");
  PyObject* seq = intern("_seq");
  PyObject* fn = intern("_fn");
  PyObject* saved = intern("_saved");
  PyObject* names = intern("_names");
  PyObject* hooks = intern("_hooks");
  PyObject* retain = intern("_retain");
  PyObject* variable = intern("variable");
  PyObject* dict = intern("__dict__");
  PyObject* post = intern("_post_accumulate_grad_hooks");
  PyObject* impl = intern("_impl");
  PyObject* t = intern("t");
  PyObject* device_thread = intern("device_thread");
  PyObject* add_ = intern("add_");
  PyObject* node = intern("node");
  PyObject* begin = intern("backward_begin");
  PyObject* grad_slot = intern("_grad");
  PyObject* grad = intern("grad");
  PyObject* grad_fn = intern("_grad_fn");
  PyObject* detach = intern("detach");
  PyObject* end = intern("backward_end");
};

const Names& names() {
  static const Names* n = new Names();  // interned strings: the interpreter keeps them alive
  return *n;
}

py::object steal(PyObject* o) {
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}
py::object borrow(PyObject* o) { return py::reinterpret_borrow<py::object>(o); }
py::object getattr(PyObject* o, PyObject* name) { return steal(PyObject_GetAttr(o, name)); }
bool truthy(PyObject* o) {
  const int r = PyObject_IsTrue(o);
  if (r < 0) throw py::error_already_set();
  return r != 0;
}
py::object call(PyObject* fn, std::initializer_list<PyObject*> args) {
  PyObject* argv[8];
  size_t n = 0;
  for (PyObject* a : args) argv[n++] = a;
  return steal(PyObject_Vectorcall(fn, argv, n, nullptr));
}

// graph.Node's slots read and written where they live (node_slots.h) instead of through an attribute lookup each
// (~8 per node): for a node whose class resolves every one of these names to Node's own member descriptor and
// keeps object's __getattribute__ / __setattr__ (graph.node_class's classes, AccumulateGrad), which is exactly what
// getattr / setattr would do there; an unset slot, or any other class, takes getattr / setattr (and their errors).
// One per execute() call (a nested backward inside a node function makes its own), made from AccumulateGrad's base.
enum Slot { kNext, kNoutputs, kSeq, kFn, kSaved, kNames, kHooks, kRetain, kNumSlots };

class NodeAccess {
 public:
  explicit NodeAccess(PyObject* accumulate_grad_cls) {
    const Names& nm = names();
    name_[kNext] = nm.next;
    name_[kNoutputs] = nm.noutputs;
    name_[kSeq] = nm.seq;
    name_[kFn] = nm.fn;
    name_[kSaved] = nm.saved;
    name_[kNames] = nm.names;
    name_[kHooks] = nm.hooks;
    name_[kRetain] = nm.retain;
    PyTypeObject* acc = reinterpret_cast<PyTypeObject*>(accumulate_grad_cls);
    node_type_ = PyType_Check(accumulate_grad_cls) ? acc->tp_base : nullptr;
    if (!node_type_) return;
    for (int i = 0; i < kNumSlots; ++i) {
      PyObject* d = PyDict_GetItemWithError(node_type_->tp_dict, name_[i]);
      if (!d || !Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        PyErr_Clear();
        node_type_ = nullptr;  // not the Node this file expects: getattr everywhere
        return;
      }
      descr_[i] = d;
      member_[i] = reinterpret_cast<PyMemberDescrObject*>(d)->d_member;
    }
    getattribute_ = _PyType_Lookup(&PyBaseObject_Type, intern_getattribute());
    setattr_ = _PyType_Lookup(&PyBaseObject_Type, intern_setattr());
  }

  py::object get(PyObject* node, Slot s) {
    if (plain(Py_TYPE(node))) {
      PyObject* v = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(node) + member_[s]->offset);
      if (v) return borrow(v);
    }
    return getattr(node, name_[s]);
  }

  void set(PyObject* node, Slot s, PyObject* v) {
    if (plain(Py_TYPE(node))) set_slot(node, member_[s], v);
    else if (PyObject_SetAttr(node, name_[s], v) < 0) throw py::error_already_set();
  }

 private:
  bool plain(PyTypeObject* t) {
    if (t == last_) return last_plain_;
    auto it = plain_.find(t);
    const bool p = it != plain_.end() ? it->second : plain_.emplace(t, decide(t)).first->second;
    last_ = t;
    last_plain_ = p;
    return p;
  }

  bool decide(PyTypeObject* t) const {
    if (!node_type_ || !PyType_IsSubtype(t, node_type_) || !getattribute_ || !setattr_) return false;
    if (_PyType_Lookup(t, intern_getattribute()) != getattribute_ || _PyType_Lookup(t, intern_setattr()) != setattr_)
      return false;
    for (int i = 0; i < kNumSlots; ++i)
      if (_PyType_Lookup(t, name_[i]) != descr_[i]) return false;
    return true;
  }

  static PyObject* intern_getattribute() {
    static PyObject* s = intern("__getattribute__");
    return s;
  }
  static PyObject* intern_setattr() {
    static PyObject* s = intern("__setattr__");
    return s;
  }

  PyTypeObject* node_type_ = nullptr;
  PyObject* name_[kNumSlots] = {};
  PyObject* descr_[kNumSlots] = {};
  PyMemberDef* member_[kNumSlots] = {};
  PyObject* getattribute_ = nullptr;
  PyObject* setattr_ = nullptr;
  std::unordered_map<PyTypeObject*, bool> plain_;
  PyTypeObject* last_ = nullptr;
  bool last_plain_ = false;
};

// What graph.py hands over once (graph._engine_context()).
struct Context {
  PyObject* accumulate_grad_cls;  // AccumulateGrad
  PyObject* slot_cls;             // _Slot
  PyObject* second_time;          // _SECOND_TIME
  PyObject* apply_output_hooks;   // _apply_output_hooks(node, buf)
  PyObject* accumulate;           // _accumulate(var, grad, owned, create_graph)
  PyObject* check_saved;          // _check_saved(node): raises PyTorch's version error
  PyObject* enter_device_thread;  // _blas_workspace.enter_device_thread(grads)
  PyObject* leave_device_thread;  // _blas_workspace.leave_device_thread(previous)
  PyObject* tls;                  // _blas_workspace._tls
  PyObject* grad_enabled;         // grad_mode._enabled (a one-element list)
  PyObject* wrapped_cls;          // Wrapped (a saved Python number)
};

Context context_of(const py::tuple& t) {
  if (t.size() != 11) throw py::value_error("autograd_execute: bad engine context");
  return Context{t[0].ptr(), t[1].ptr(), t[2].ptr(), t[3].ptr(), t[4].ptr(), t[5].ptr(),
                 t[6].ptr(), t[7].ptr(), t[8].ptr(), t[9].ptr(), t[10].ptr()};
}

// An edge (node, input_nr): a 2-sequence, as the Python engine unpacks it.
struct Edge {
  PyObject* node;  // borrowed from the owning node's _next; nullptr for None
  Py_ssize_t nr;
  PyObject* nr_obj;
};

void unpack_edges(PyObject* next, std::vector<py::object>& holders, std::vector<Edge>& out) {
  out.clear();
  py::object seq = steal(PySequence_Fast(next, "next_functions must be a sequence"));
  holders.push_back(seq);  // keeps a list copy (and what it holds) alive while the edges are used
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* e = items[i];
    PyObject *m, *nr;
    if (PyTuple_Check(e) && PyTuple_GET_SIZE(e) == 2) {
      m = PyTuple_GET_ITEM(e, 0);
      nr = PyTuple_GET_ITEM(e, 1);
    } else {
      py::object pair = steal(PySequence_Tuple(e));
      if (PyTuple_GET_SIZE(pair.ptr()) != 2) throw py::value_error("an edge must be (node, input_nr)");
      holders.push_back(pair);
      m = PyTuple_GET_ITEM(pair.ptr(), 0);
      nr = PyTuple_GET_ITEM(pair.ptr(), 1);
    }
    Py_ssize_t v = 0;
    if (m != Py_None) {
      v = PyNumber_AsSsize_t(nr, PyExc_IndexError);
      if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    }
    out.push_back(Edge{m == Py_None ? nullptr : m, v, nr});
  }
}

// [[None, False] for _ in range(n)]
py::object fresh_buffer(Py_ssize_t n) {
  py::object buf = steal(PyList_New(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* slot = PyList_New(2);
    if (!slot) throw py::error_already_set();
    Py_INCREF(Py_None);
    Py_INCREF(Py_False);
    PyList_SET_ITEM(slot, 0, Py_None);
    PyList_SET_ITEM(slot, 1, Py_False);
    PyList_SET_ITEM(buf.ptr(), i, slot);
  }
  return buf;
}

Py_ssize_t noutputs_of(NodeAccess& acc, PyObject* node) {
  py::object n = acc.get(node, kNoutputs);
  const Py_ssize_t v = PyNumber_AsSsize_t(n.ptr(), PyExc_OverflowError);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

// graph._can_accumulate_inplace: the slot holds the only reference to its gradient, the gradient the only one to
// its impl, the impl the only one to its storage, and the layout is dense. `t` is borrowed from the slot.
bool can_accumulate_inplace(PyObject* t) {
  if (Py_REFCNT(t) > 1) return false;
  py::object impl = getattr(t, names().impl);
  if (Py_REFCNT(impl.ptr()) > 2) return false;  // t's attribute and `impl` here
  const TensorImpl& ti = impl.cast<const TensorImpl&>();
  return ti.storage().use_count() == 1 && non_overlapping_and_dense(ti);
}

// old.add_(grad) for the in-place accumulation above, without the Python method call, when both are float32 or
// float64 tensors (the exact Tensor class) of one shape, dtype and device, readable on the host: the add_ fast path's
// kernel (bindings_ops.cpp) over old's memory order (dense, any dim order: a transposed gradient stored first),
// grad read through its strides, then old's version bumped as add_ bumps it. Each element's sum is the same whatever
// the order, and add_ allocates nothing. False (nothing done): old.add_(grad) in Python.
bool add_into(PyObject* old, PyObject* grad) {
  PyTypeObject* tensor_type = fast_state().tensor_type;
  if (!tensor_type || Py_TYPE(old) != tensor_type || Py_TYPE(grad) != tensor_type) return false;
  TensorImpl* a = fast_impl_of(old);
  TensorImpl* b = fast_impl_of(grad);
  if (!a || !b || a->dtype() != b->dtype() || (a->dtype() != DType::Float32 && a->dtype() != DType::Float64) ||
      a->sizes() != b->sizes() || !(a->device() == b->device()) || a->is_virtual() || b->is_virtual() ||
      a->numel() == 0 || a->device().type() == DeviceType::Meta)
    return false;
  // old's dims of size > 1 from the largest stride down: a contiguous layout of those sizes (can_accumulate_inplace
  // checked it is dense; a tie or gap means it is not what that check meant: Python's add_ then)
  std::vector<size_t> dims;
  for (size_t d = 0; d < a->sizes().size(); ++d)
    if (a->sizes()[d] != 1) dims.push_back(d);
  std::stable_sort(dims.begin(), dims.end(), [&](size_t x, size_t y) { return a->strides()[x] > a->strides()[y]; });
  Shape sizes, sa, sb;
  int64_t expect = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    if (a->strides()[dims[i]] != expect) return false;
    expect *= a->sizes()[dims[i]];
  }
  for (size_t d : dims) {
    sizes.push_back(a->sizes()[d]);
    sa.push_back(a->strides()[d]);
    sb.push_back(b->strides()[d]);
  }
  if (sizes.empty()) {  // one element
    sizes = {1};
    sa = {1};
    sb = {1};
  }
  Runtime& r = rt();
  const void* bp = host_readable(r, TensorPtr(TensorPtr{}, b));
  if (!bp) return false;
  void* ap = host_writable(r, TensorPtr(TensorPtr{}, a));
  if (!ap) return false;
  KernelInput ka, kb;
  ka.data = ap;
  ka.strides = sa;
  kb.data = bp;
  kb.strides = sb;
  binary_kernel(BinaryKind::Add, a->dtype(), sizes, ap, ka, kb, 1.0, 1);
  a->bump_version();
  return true;
}

struct QueueEntry {
  unsigned long long seq;  // Node._seq; AccumulateGrad's inf is the largest
  uint64_t tie;            // push order among equal sequence numbers
  PyObject* node;
};
struct RunsLater {
  bool operator()(const QueueEntry& a, const QueueEntry& b) const {
    return a.seq < b.seq || (a.seq == b.seq && a.tie > b.tie);
  }
};

unsigned long long seq_of(NodeAccess& acc, PyObject* node) {
  py::object s = acc.get(node, kSeq);
  if (PyFloat_Check(s.ptr())) {
    const double d = PyFloat_AS_DOUBLE(s.ptr());
    if (d == std::numeric_limits<double>::infinity()) return ~0ULL;
    return d <= 0 ? 0 : static_cast<unsigned long long>(d);
  }
  const unsigned long long v = PyLong_AsUnsignedLongLong(s.ptr());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

// graph._release: the node's backward function and saved tensors go (plain saved values stay readable); a
// saved number is freed as a tensor is. A node that saved neither keeps its function: a second backward runs.
void release(NodeAccess& acc, PyObject* node, const Context& cx) {
  const Names& nm = names();
  bool holds = truthy(acc.get(node, kSaved).ptr());
  py::object slots = acc.get(node, kNames);
  const bool named = truthy(slots.ptr()) && PyDict_Check(slots.ptr());
  PyObject* key = nullptr;
  PyObject* v = nullptr;
  for (Py_ssize_t pos = 0; !holds && named && PyDict_Next(slots.ptr(), &pos, &key, &v);) {
    const int is_wrapped = PyObject_IsInstance(v, cx.wrapped_cls);
    if (is_wrapped < 0) throw py::error_already_set();
    holds = is_wrapped != 0;
  }
  if (!holds) return;
  acc.set(node, kFn, Py_None);
  acc.set(node, kSaved, Py_None);
  if (!named) return;
  // values are replaced in place (the key set stays the same, which PyDict_Next allows)
  for (Py_ssize_t pos = 0; PyDict_Next(slots.ptr(), &pos, &key, &v);) {
    const int is_slot = PyObject_IsInstance(v, cx.slot_cls);
    if (is_slot < 0) throw py::error_already_set();
    if (is_slot) {
      if (PyObject_SetAttr(v, nm.t, Py_None) < 0) throw py::error_already_set();
      continue;
    }
    const int is_wrapped = PyObject_IsInstance(v, cx.wrapped_cls);
    if (is_wrapped < 0) throw py::error_already_set();
    if (is_wrapped) {
      py::object freed = call(cx.slot_cls, {Py_None, Py_None});
      if (!freed || PyDict_SetItem(slots.ptr(), key, freed.ptr()) < 0) throw py::error_already_set();
    }
  }
}

// graph._check_saved without the Python loop: only a changed version calls it (for PyTorch's message).
void check_saved(PyObject* node, PyObject* saved, const Context& cx) {
  py::object entries = steal(PySequence_Fast(saved, "_saved must be a sequence"));
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(entries.ptr());
  PyObject** items = PySequence_Fast_ITEMS(entries.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* entry = items[i];
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) < 2) {
      call(cx.check_saved, {node});
      return;
    }
    py::object impl = getattr(PyTuple_GET_ITEM(entry, 0), names().impl);
    const unsigned long long now = impl.cast<const TensorImpl&>().version();
    const unsigned long long then = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(entry, 1));
    if (then == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw py::error_already_set();
    if (now != then) {
      call(cx.check_saved, {node});
      return;
    }
  }
}

// torch/_device.py's device key of the first gradient present (cpu -1, cuda:i i, index-less cuda -2, meta -3).
int first_device_key(PyObject* grads) {
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(grads); ++i) {
    PyObject* g = PyList_GET_ITEM(grads, i);
    if (g == Py_None) continue;
    py::object impl = getattr(g, names().impl);
    const Device d = impl.cast<const TensorImpl&>().device();
    if (d.is_cpu()) return -1;
    if (d.type() == DeviceType::Meta) return -3;
    return d.has_index() ? d.index() : -2;
  }
  return INT32_MIN;  // no gradient: the thread stays as it is
}

bool same_thread(PyObject* current, int key) {
  if (key < 0) return current == Py_None;
  if (current == Py_None || !PyLong_Check(current)) return false;
  return PyLong_AsLong(current) == key;
}

class Engine {
 public:
  Engine(const Context& cx, PyObject* capture, bool create_graph, PyObject* create_graph_obj)
      : cx_(cx), acc_(cx.accumulate_grad_cls), capture_(capture), create_graph_(create_graph),
        create_graph_obj_(create_graph_obj) {}

  void count_dependencies(const std::vector<PyObject*>& roots) {
    std::unordered_set<PyObject*> seen;
    std::vector<PyObject*> stack(roots);
    std::vector<Edge> edges;
    while (!stack.empty()) {
      PyObject* n = stack.back();
      stack.pop_back();
      if (!seen.insert(n).second) continue;
      unpack_edges(acc_.get(n, kNext).ptr(), holders_, edges);
      for (const Edge& e : edges) {
        if (!e.node) continue;
        auto it = deps_.find(e.node);
        if (it == deps_.end()) {
          deps_.emplace(e.node, 1);
          keep_.push_back(borrow(e.node));
        } else {
          ++it->second;
        }
        stack.push_back(e.node);
      }
    }
  }

  // deliver(node, nr, grad, owned)
  void deliver(PyObject* node, Py_ssize_t nr, PyObject* grad, bool owned) {
    auto it = buffers_.find(node);
    if (it == buffers_.end()) it = buffers_.emplace(node, fresh_buffer(noutputs_of(acc_, node))).first;
    PyObject* buf = it->second.ptr();
    if (nr < 0) nr += PyList_GET_SIZE(buf);
    if (nr < 0 || nr >= PyList_GET_SIZE(buf)) throw py::index_error("list index out of range");
    PyObject* slot = PyList_GET_ITEM(buf, nr);
    if (grad == Py_None) return;
    PyObject* old = PyList_GET_ITEM(slot, 0);
    if (old == Py_None) {
      Py_INCREF(grad);
      PyList_SetItem(slot, 0, grad);
      PyList_SetItem(slot, 1, py::bool_(owned).release().ptr());
      return;
    }
    // InputBuffer::accumulate: in place when the buffer holds the last reference, else old + new
    py::object sum;
    if (!create_graph_ && can_accumulate_inplace(old))
      sum = add_into(old, grad) ? borrow(old) : steal(PyObject_CallMethodOneArg(old, names().add_, grad));
    else
      sum = steal(PyNumber_Add(old, grad));
    PyList_SetItem(slot, 0, sum.release().ptr());
    Py_INCREF(Py_True);
    PyList_SetItem(slot, 1, Py_True);
  }

  void push(PyObject* node) { ready_.push(QueueEntry{seq_of(acc_, node), tie_++, node}); }

  int deps_of(PyObject* node) const {
    auto it = deps_.find(node);
    return it == deps_.end() ? 0 : it->second;
  }

  void run(bool retain_graph, bool accumulate, PyObject* observer) {
    const Names& nm = names();
    std::vector<Edge> edges;
    std::vector<py::object> edge_holders;
    while (!ready_.empty()) {
      PyObject* node = ready_.top().node;
      ready_.pop();
      node_ = borrow(node);
      if (observer != Py_None) steal(PyObject_CallMethodOneArg(observer, nm.node, node));
      // buf = buffers.pop(node, None) or [[None, False], ...]
      py::object next_buf;
      auto it = buffers_.find(node);
      if (it != buffers_.end()) {
        next_buf = std::move(it->second);
        buffers_.erase(it);
      }
      if (!next_buf || PyList_GET_SIZE(next_buf.ptr()) == 0) next_buf = fresh_buffer(noutputs_of(acc_, node));
      buf_ = std::move(next_buf);
      PyObject* buf = buf_.ptr();
      const bool is_acc = PyObject_TypeCheck(node, reinterpret_cast<PyTypeObject*>(cx_.accumulate_grad_cls));
      py::object var_dict;
      if (is_acc) var_dict = getattr(getattr(node, nm.variable).ptr(), nm.dict);
      if (needs_output_hooks(node, is_acc, var_dict)) {
        to_caller_thread();  // user code: on the thread it ran on in the Python engine
        call(cx_.apply_output_hooks, {node, buf});
      }
      if (capture_ != Py_None) capture_outputs(node, buf);
      if (is_acc) {
        if (accumulate) accumulate_leaf(node, buf, var_dict);
        continue;
      }
      // grads = [slot[0] for slot in buf]
      const Py_ssize_t nbuf = PyList_GET_SIZE(buf);
      py::object grads = steal(PyList_New(nbuf));
      bool any = false;
      for (Py_ssize_t i = 0; i < nbuf; ++i) {
        PyObject* g = PyList_GET_ITEM(PyList_GET_ITEM(buf, i), 0);
        any = any || g != Py_None;
        Py_INCREF(g);
        PyList_SET_ITEM(grads.ptr(), i, g);
      }
      grads_ = std::move(grads);
      edge_holders.clear();
      unpack_edges(acc_.get(node, kNext).ptr(), edge_holders, edges);
      if (!any) {
        outs_ = steal(PyList_New(0));
        for (size_t i = 0; i < edges.size(); ++i)
          if (PyList_Append(outs_.ptr(), Py_None) < 0) throw py::error_already_set();
        if (!retain_graph) release(acc_, node, cx_);
      } else {
        py::object fn = acc_.get(node, kFn);
        if (fn.is_none()) {
          PyErr_SetObject(PyExc_RuntimeError, cx_.second_time);
          throw py::error_already_set();
        }
        py::object saved = acc_.get(node, kSaved);
        if (truthy(saved.ptr())) check_saved(node, saved.ptr(), cx_);
        saved = py::object();
        outs_ = call_on_device_thread(fn.ptr());
        fn = py::object();
        if (!retain_graph) release(acc_, node, cx_);
      }
      deliver_outputs(edges);
      outs_ = py::object();  // outs = g = None: the list first (it frees its items last to first), then g
      g_ = py::object();
    }
  }

  // What the Python frame held at the end, let go in its order (deps, m, node, g, buf, slot, grads, outs,
  // buffers).
  void finish() {
    keep_.clear();
    holders_.clear();
    node_ = py::object();
    g_ = py::object();
    buf_ = py::object();
    slot_ = py::object();
    grads_ = py::object();
    outs_ = py::object();
    buffers_.clear();
  }

 private:
  bool needs_output_hooks(PyObject* node, bool is_acc, const py::object& var_dict) {
    const Names& nm = names();
    if (truthy(acc_.get(node, kHooks).ptr()) || truthy(acc_.get(node, kRetain).ptr())) return true;
    if (!is_acc) return false;
    PyObject* hooks = PyDict_Check(var_dict.ptr()) ? PyDict_GetItemWithError(var_dict.ptr(), nm.hooks) : nullptr;
    if (!hooks && PyErr_Occurred()) throw py::error_already_set();
    return hooks && truthy(hooks);
  }

  // for nr, slot in enumerate(buf): if (node, nr) in capture: capture[(node, nr)] = slot[0]
  void capture_outputs(PyObject* node, PyObject* buf) {
    const Py_ssize_t n = PyList_GET_SIZE(buf);
    for (Py_ssize_t nr = 0; nr < n; ++nr) {
      PyObject* slot = PyList_GET_ITEM(buf, nr);
      slot_ = borrow(slot);
      py::object key = steal(PyTuple_Pack(2, node, steal(PyLong_FromSsize_t(nr)).ptr()));
      const int has = PySequence_Contains(capture_, key.ptr());
      if (has < 0) throw py::error_already_set();
      if (has && PyObject_SetItem(capture_, key.ptr(), PyList_GET_ITEM(slot, 0)) < 0) throw py::error_already_set();
    }
  }

  void accumulate_leaf(PyObject* node, PyObject* buf, const py::object& var_dict) {
    const Names& nm = names();
    py::object var = getattr(node, nm.variable);
    PyObject* post = PyDict_Check(var_dict.ptr()) ? PyDict_GetItemWithError(var_dict.ptr(), nm.post) : nullptr;
    if (!post && PyErr_Occurred()) throw py::error_already_set();
    if (PyList_GET_SIZE(buf) < 1) throw py::index_error("list index out of range");
    PyObject* slot = PyList_GET_ITEM(buf, 0);
    if (!post || !truthy(post)) {
      if (!accumulate_common(var.ptr(), PyList_GET_ITEM(slot, 0), PyList_GET_ITEM(slot, 1)))
        call(cx_.accumulate, {var.ptr(), PyList_GET_ITEM(slot, 0), PyList_GET_ITEM(slot, 1), create_graph_obj_});
      return;
    }
    if (PyList_GET_ITEM(slot, 0) == Py_None) return;
    // Tensor.register_post_accumulate_grad_hook: the incoming gradient is let go first, as AccumulateGrad moves
    // it, so a hook that re-points .grad (DDP's bucket views) frees it.
    py::object hooks_holder = borrow(post);
    py::object grad = borrow(PyList_GET_ITEM(slot, 0));
    py::object owned = borrow(PyList_GET_ITEM(slot, 1));
    Py_INCREF(Py_None);
    PyList_SetItem(slot, 0, Py_None);
    call(cx_.accumulate, {var.ptr(), grad.ptr(), owned.ptr(), create_graph_obj_});
    grad = py::object();
    to_caller_thread();  // user code: on the thread it ran on in the Python engine
    py::object hooks = steal(PySequence_Tuple(steal(PyObject_CallMethod(post, "values", nullptr)).ptr()));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(hooks.ptr()); ++i) call(PyTuple_GET_ITEM(hooks.ptr(), i), {var.ptr()});
  }

  // graph._accumulate's common cases without its Python frames (AccumulateGrad of a leaf without hooks): the first
  // gradient stolen as .grad when nothing else holds it, it has no history and it obeys the layout contract (set
  // through the .grad setter, as Python does), later ones added in place. False: graph._accumulate decides.
  bool accumulate_common(PyObject* var, PyObject* grad, PyObject* owned) {
    if (grad == Py_None) return true;
    if (create_graph_) return false;
    const Names& nm = names();
    py::object old = getattr(var, nm.grad_slot);
    if (old.ptr() != Py_None) {
      steal(PyObject_CallMethodOneArg(old.ptr(), nm.add_, grad));  // var._grad.add_(grad)
      return true;
    }
    if (owned != Py_True || !getattr(grad, nm.grad_fn).is_none() || !obeys_layout_contract(grad, var)) return false;
    if (PyObject_SetAttr(var, nm.grad, grad) < 0) throw py::error_already_set();
    return true;
  }

  static bool obeys_layout_contract(PyObject* grad, PyObject* var) {
    py::object gi = getattr(grad, names().impl), vi = getattr(var, names().impl);
    return python::obeys_layout_contract(gi.cast<const TensorImpl&>(), vi.cast<const TensorImpl&>());
  }

  // outs = list(node._fn(grads)), on the gradient's device thread. The Python engine enters it before each node and
  // leaves it after (graph.py's enter/leave_device_thread); the thread identity only matters to Python code that
  // makes BLAS calls (the cuBLAS handle and workspace a matmul uses), so here the thread is left only before code
  // other than node functions and the engine's own accumulation runs (tensor hooks, post-accumulate hooks: see
  // to_caller_thread) and at the end, and consecutive nodes on one device stay on its thread: the same handles, the
  // same workspaces, without two Python calls and a cuBLAS-memo reset per node.
  py::object call_on_device_thread(PyObject* fn) {
    const int key = first_device_key(grads_.ptr());
    if (key != INT32_MIN) {
      py::object now = tls_device_thread();
      if (!same_thread(now.ptr(), key)) {
        if (!caller_thread_) caller_thread_ = now;  // what the end of backward restores
        call(cx_.enter_device_thread, {grads_.ptr()});
      }
    }
    return steal(PySequence_List(call(fn, {grads_.ptr()}).ptr()));
  }

 public:
  // Back on the thread that called backward (graph.leave_device_thread, when a node function moved it).
  void to_caller_thread() {
    if (!caller_thread_) return;
    py::object previous = std::move(caller_thread_);
    leave_device_thread(previous.ptr());
  }

 private:

  // getattr(_tls, "device_thread", None)
  py::object tls_device_thread() {
    PyObject* now = PyObject_GetAttr(cx_.tls, names().device_thread);
    if (!now) {
      if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw py::error_already_set();
      PyErr_Clear();
      now = Py_NewRef(Py_None);
    }
    return steal(now);
  }

  void leave_device_thread(PyObject* previous) {
    py::object now = tls_device_thread();
    const int differs = PyObject_RichCompareBool(now.ptr(), previous, Py_NE);
    if (differs < 0) throw py::error_already_set();
    if (differs) call(cx_.leave_device_thread, {previous});
  }

  // incoming / out_ids / the edge loop of the Python engine
  void deliver_outputs(const std::vector<Edge>& edges) {
    PyObject* grads = grads_.ptr();
    PyObject* outs = outs_.ptr();
    const Py_ssize_t ngrads = PyList_GET_SIZE(grads), nouts = PyList_GET_SIZE(outs);
    // owned: g is none of the incoming gradients and appears once among the outputs. A few entries (nearly every
    // node) are scanned in place; more are counted in hash tables once (a cat or unbind of many tensors).
    const bool few = ngrads + nouts <= 16;
    std::unordered_set<PyObject*> incoming;
    std::unordered_map<PyObject*, int> out_ids;
    if (!few) {
      for (Py_ssize_t i = 0; i < ngrads; ++i)
        if (PyList_GET_ITEM(grads, i) != Py_None) incoming.insert(PyList_GET_ITEM(grads, i));
      for (Py_ssize_t i = 0; i < nouts; ++i)
        if (PyList_GET_ITEM(outs, i) != Py_None) ++out_ids[PyList_GET_ITEM(outs, i)];
    }
    auto owned = [&](PyObject* g) {
      if (!few) return incoming.count(g) == 0 && out_ids[g] == 1;
      for (Py_ssize_t j = 0; j < ngrads; ++j)
        if (PyList_GET_ITEM(grads, j) == g) return false;
      int count = 0;
      for (Py_ssize_t j = 0; j < nouts; ++j)
        if (PyList_GET_ITEM(outs, j) == g && ++count > 1) return false;
      return count == 1;
    };
    const size_t n = std::min(edges.size(), size_t(nouts));
    for (size_t i = 0; i < n; ++i) {
      const Edge& e = edges[i];
      PyObject* g = PyList_GET_ITEM(outs, Py_ssize_t(i));
      g_ = borrow(g);  // the loop variable g: it outlives the outs list by one statement
      if (!e.node) continue;
      if (g != Py_None) deliver(e.node, e.nr, g, owned(g));
      auto it = deps_.find(e.node);
      if (it == deps_.end()) throw py::key_error("autograd: an edge to a node outside the traversed graph");
      if (--it->second == 0) push(e.node);
    }
  }

  const Context& cx_;
  NodeAccess acc_;
  PyObject* capture_;
  bool create_graph_;
  PyObject* create_graph_obj_;
  std::unordered_map<PyObject*, int> deps_;
  std::vector<py::object> keep_;     // the nodes deps holds
  std::vector<py::object> holders_;  // the edge sequences read while counting
  std::unordered_map<PyObject*, py::object> buffers_;
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, RunsLater> ready_;
  uint64_t tie_ = 0;
  py::object node_, g_, buf_, slot_, grads_, outs_;  // the Python engine's locals of the same names
  py::object caller_thread_;  // set while a node function's device thread is entered: the thread to go back to

 public:
  void set_g(PyObject* g) { g_ = borrow(g); }
};

// The C++ exception being handled as the Python error indicator (pybind11 keeps a Python error inside
// error_already_set; the engine's own checks throw pybind11's builtin exceptions).
void set_python_error_from_current() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

void set_grad_enabled(PyObject* list, bool on) {
  if (PyList_SetItem(list, 0, py::bool_(on).release().ptr()) < 0) throw py::error_already_set();
}

void execute(const py::tuple& ctx, const py::list& roots, const py::list& root_grads, const py::object& retain_graph,
             const py::object& create_graph, const py::object& capture, bool accumulate, const py::object& observer) {
  const Context cx = context_of(ctx);
  const bool cg = truthy(create_graph.ptr());
  const bool retain = truthy(retain_graph.ptr());
  Engine engine(cx, capture.ptr(), cg, create_graph.ptr());
  // roots: [(node, output_nr)]; root_grads: [(Tensor, owned)]
  std::vector<PyObject*> root_nodes;
  std::vector<Edge> root_edges;
  std::vector<py::object> holders;
  unpack_edges(roots.ptr(), holders, root_edges);
  for (const Edge& e : root_edges)
    if (e.node) root_nodes.push_back(e.node);
  engine.count_dependencies(root_nodes);
  const size_t ngrads = std::min(root_edges.size(), size_t(py::len(root_grads)));
  for (size_t i = 0; i < ngrads; ++i) {
    py::tuple pair = steal(PySequence_Tuple(root_grads[i].ptr()));
    if (pair.size() != 2) throw py::value_error("root_grads: (grad, owned) pairs");
    engine.set_g(pair[0].ptr());
    if (root_edges[i].node) engine.deliver(root_edges[i].node, root_edges[i].nr, pair[0].ptr(), truthy(pair[1].ptr()));
  }
  std::unordered_set<PyObject*> queued;
  for (const Edge& e : root_edges)
    if (e.node && engine.deps_of(e.node) == 0 && queued.insert(e.node).second) engine.push(e.node);

  PyObject* enabled = cx.grad_enabled;
  py::object prev = borrow(PyList_GetItem(enabled, 0));
  set_grad_enabled(enabled, cg);
  if (!observer.is_none()) steal(PyObject_CallMethodNoArgs(observer.ptr(), names().begin));
  try {
    engine.run(retain, accumulate, observer.ptr());
  } catch (...) {
    // the node function's `finally`: back on the caller's thread first (leaving it cannot fail but for a broken
    // _blas_workspace, and the exception on its way out is the one to report)
    try {
      engine.to_caller_thread();
    } catch (...) {
    }
    // finally: grad mode back, then the observer told, with the exception on its way out as the handled one
    // (sys.exc_info() in a Python `finally` sees it: the estimate tracker notes where a run failed)
    PyObject *type, *value, *tb;
    set_python_error_from_current();
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value) PyException_SetTraceback(value, tb);
    Py_INCREF(prev.ptr());
    PyList_SetItem(enabled, 0, prev.ptr());
    if (!observer.is_none()) {
      PyObject *old_type, *old_value, *old_tb;
      PyErr_GetExcInfo(&old_type, &old_value, &old_tb);
      Py_XINCREF(type);
      Py_XINCREF(value);
      Py_XINCREF(tb);
      PyErr_SetExcInfo(type, value, tb);
      PyObject* r = PyObject_CallMethodNoArgs(observer.ptr(), names().end);
      PyErr_SetExcInfo(old_type, old_value, old_tb);
      if (!r) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        throw py::error_already_set();
      }
      Py_DECREF(r);
    }
    PyErr_Restore(type, value, tb);
    throw py::error_already_set();
  }
  engine.to_caller_thread();
  Py_INCREF(prev.ptr());
  PyList_SetItem(enabled, 0, prev.ptr());
  if (!observer.is_none()) steal(PyObject_CallMethodNoArgs(observer.ptr(), names().end));
  engine.finish();
}

}  // namespace

void bind_autograd_graph(py::module_& m);  // graph construction (bindings_autograd_graph.cpp)

void bind_autograd(py::module_& m) {
  bind_autograd_graph(m);
  m.def("autograd_execute", &execute, py::arg("context"), py::arg("roots"), py::arg("root_grads"),
        py::arg("retain_graph"), py::arg("create_graph"), py::arg("capture"), py::arg("accumulate"),
        py::arg("observer"));
}

}  // namespace ds::python

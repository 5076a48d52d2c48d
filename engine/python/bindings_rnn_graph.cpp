// One whole time step of the recurrent cells in C++, autograd nodes included (issue 23). torch/nn/_rnn_cells.py's
// lstm_cell / gru_cell / simple_cell computed a step's values in one C++ kernel (bindings_rnn.cpp) but still made
// the step's ~12 nodes, their saved tensors and backward functions, and the gate chunks in Python, one small
// function call each: in the RNN scripts that Python was most of a step's cost after the hidden matmul. The entries
// here do what those Python functions do, statement for statement, in the same order (so the nodes draw the same
// sequence numbers, the same tensors are saved with the same versions, and the tensors the step frees are freed in
// the order the Python frame's locals are cleared):
//   _chunks                 -> chunks_of            _node              -> make_node
//   _activation_node        -> activation_node      _mul_node          -> mul_node
//   _add_node / _sub_node   -> add_node / sub_node  _unsafe_split_node -> split_node
// The backward functions are the same functools.partial objects of _rnn_cells's module functions (_act_fn, _mul_fn,
// _sub_fn, _split_fn, _pass_both) that the Python path makes, so backward runs the same code either way.
// Entries (None: not the kernels' case, nothing done; the Python path runs):
//   rnn_graph_init(ctx)                         what _rnn_cells.py registers at import (a dict, see init)
//   rnn_gru_step(box, hx, w_hh, b_hh, track)    gru_cell after `other` is known (box = [other], emptied here): every
//                                               case; values from the kernel or _gru_numpy (half, virtual, strided)
//   rnn_lstm_step(box, cx, track)               lstm_cell after linear_hh and linear_ih (box = [gates, igates],
//                                               emptied here): (hy, cy); every case, values from the kernels or
//                                               _lstm_gates_numpy / _lstm_state_numpy
//   rnn_simple_step(gates, box, track, relu)    simple_cell after linear_hh and linear_ih (box = [igates]): the
//                                               output, or None when the kernel declines
// DEVICESCOPE_PY_RNN=1 leaves all of this unused (the Python path is the reference; tests/rnn_kernels compares).
#include "bindings_common.h"  // Python.h first

#include "node_slots.h"

#include <initializer_list>
#include <vector>

#include "fast_entry.h"
#include "rnn_kernels.h"

namespace ds::python {
namespace {

py::object steal(PyObject* o) {
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}
py::object borrow(PyObject* o) { return py::reinterpret_borrow<py::object>(o); }

enum Cls { kAdd, kSub, kMul, kSigmoid, kTanh, kRelu, kSplit, kNumCls };
const char* const kClsNames[kNumCls] = {"AddBackward0",  "SubBackward0",  "MulBackward0",        "SigmoidBackward0",
                                        "TanhBackward0", "ReluBackward0", "UnsafeSplitBackward0"};

struct Ctx : NodeSlots {
  bool ready = false;
  PyTypeObject* tensor_type = nullptr;  // torch.Tensor (what _core.wrap makes)
  PyTypeObject* node_type = nullptr;    // graph.Node
  PyTypeObject* classes[kNumCls] = {};  // _rnn_cells._CLASS
  PyObject* sequence = nullptr;         // graph._SEQUENCE
  PyObject* graph_globals = nullptr;    // graph's module dict (attach_hook, read at each node as _node does)
  PyTypeObject* slot_type = nullptr;    // graph._Slot
  PyTypeObject* saved_output_type = nullptr;  // graph.SavedOutput
  PyObject *partial = nullptr, *act_fn = nullptr, *mul_fn = nullptr, *sub_fn = nullptr, *split_fn = nullptr,
           *pass_both = nullptr, *edge_of = nullptr, *linear_hh = nullptr, *gru_numpy = nullptr,
           *lstm_gates_numpy = nullptr, *lstm_state_numpy = nullptr;
  PyMemberDef *so_alias, *so_node, *so_nr;  // graph.SavedOutput's slots
  PyObject *s_grad_fn, *s_output_nr, *s_base, *s_impl, *s_attach_hook, *s_device_key;
  PyObject *s_alpha, *s_result, *s_self, *s_other, *s_dim, *s_self_sizes, *s_split_size;
  PyObject *zero, *one, *none_edge;
  PyObject* kinds[3];  // 0, 1, 2: _ACT_KIND's sigmoid, tanh, relu
};
Ctx c;

PyMemberDef* member(PyTypeObject* type, const char* name) { return slot_member(type, name, "rnn_graph_init"); }

void set(PyObject* obj, PyMemberDef* m, PyObject* v) { set_slot(obj, m, v); }

PyObject* keep(py::handle o) {
  Py_INCREF(o.ptr());
  return o.ptr();
}

PyTypeObject* type_of(py::handle o) {
  if (!PyType_Check(o.ptr())) throw py::type_error("rnn_graph_init: expected a class");
  return reinterpret_cast<PyTypeObject*>(keep(o));
}

// A class laid out as graph.Node whose instances can be made without calling it (no __init__ / __new__ of its own),
// as the node classes graph.node_class makes; and a class with exactly its own __init__ (SavedOutput, _Slot).
bool plain_node_class(PyTypeObject* t) {
  return t->tp_base == c.node_type && t->tp_basicsize == c.node_type->tp_basicsize &&
         !PyDict_GetItemString(t->tp_dict, "__init__") && !PyDict_GetItemString(t->tp_dict, "__new__");
}

void init(py::dict ctx) {
  Ctx n;
  const auto get = [&](const char* k) { return borrow(ctx[k].ptr()); };
  n.tensor_type = type_of(get("Tensor"));
  n.node_type = type_of(get("Node"));
  py::dict classes = get("classes");
  for (int k = 0; k < kNumCls; ++k) n.classes[k] = type_of(classes[kClsNames[k]]);
  n.sequence = keep(get("sequence"));
  n.graph_globals = keep(get("graph_globals"));
  n.slot_type = type_of(get("Slot"));
  n.saved_output_type = type_of(get("SavedOutput"));
  n.partial = keep(get("partial"));
  n.act_fn = keep(get("act_fn"));
  n.mul_fn = keep(get("mul_fn"));
  n.sub_fn = keep(get("sub_fn"));
  n.split_fn = keep(get("split_fn"));
  n.pass_both = keep(get("pass_both"));
  n.edge_of = keep(get("edge_of"));
  n.linear_hh = keep(get("linear_hh"));
  n.gru_numpy = keep(get("gru_numpy"));
  n.lstm_gates_numpy = keep(get("lstm_gates_numpy"));
  n.lstm_state_numpy = keep(get("lstm_state_numpy"));
  static_cast<NodeSlots&>(n) = node_slots(n.node_type, n.slot_type, "rnn_graph_init");
  n.so_alias = member(n.saved_output_type, "alias");
  n.so_node = member(n.saved_output_type, "node");
  n.so_nr = member(n.saved_output_type, "nr");
  n.s_grad_fn = PyUnicode_InternFromString("_grad_fn");
  n.s_output_nr = PyUnicode_InternFromString("_output_nr");
  n.s_base = PyUnicode_InternFromString("_base");
  n.s_impl = PyUnicode_InternFromString("_impl");
  n.s_attach_hook = PyUnicode_InternFromString("attach_hook");
  n.s_device_key = PyUnicode_InternFromString("device_key");
  n.s_alpha = PyUnicode_InternFromString("alpha");
  n.s_result = PyUnicode_InternFromString("result");
  n.s_self = PyUnicode_InternFromString("self");
  n.s_other = PyUnicode_InternFromString("other");
  n.s_dim = PyUnicode_InternFromString("dim");
  n.s_self_sizes = PyUnicode_InternFromString("self_sizes");
  n.s_split_size = PyUnicode_InternFromString("split_size");
  n.zero = PyLong_FromLong(0);
  n.one = PyLong_FromLong(1);
  for (int k = 0; k < 3; ++k) n.kinds[k] = PyLong_FromLong(k);
  n.none_edge = PyTuple_Pack(2, Py_None, n.zero);
  if (!n.none_edge) throw py::error_already_set();
  c = n;
  for (PyTypeObject* t : c.classes)
    if (!plain_node_class(t)) return;  // (laid out otherwise: the Python path keeps running)
  c.ready = true;
}

// ----------------------------------------------------------------------------- tensors
TensorPtr impl(py::handle t) {
  py::object h = steal(PyObject_GetAttr(t.ptr(), c.s_impl));
  return h.cast<TensorPtr>();
}

// _core.wrap(holder): a new torch.Tensor around an engine tensor object (`_impl`)
py::object wrap_holder(py::handle holder) {
  py::object t = steal(PyBaseObject_Type.tp_new(c.tensor_type, steal(PyTuple_New(0)).ptr(), nullptr));
  if (PyObject_SetAttr(t.ptr(), c.s_impl, holder.ptr()) < 0) throw py::error_already_set();
  return t;
}

// t._detached_alias(): another Tensor object for t's TensorImpl, without history
py::object detached_alias(py::handle t) { return wrap_holder(steal(PyObject_GetAttr(t.ptr(), c.s_impl))); }

py::object version_of(py::handle t) { return steal(PyLong_FromUnsignedLongLong(impl(t)->version())); }

// _rnn_cells._chunks(t, n): the unsafe_chunk views, each with _base = t._base or t
py::list chunks_of(py::handle t, int64_t n) {
  py::object base = steal(PyObject_GetAttr(t.ptr(), c.s_base));
  if (base.is_none()) base = borrow(t.ptr());
  py::tuple pieces = rnn_kernels::chunks(impl(t), n);
  py::list out;
  for (py::handle p : pieces) {
    py::object v = wrap_holder(p);
    if (PyObject_SetAttr(v.ptr(), c.s_base, base.ptr()) < 0) throw py::error_already_set();
    out.append(v);
  }
  return out;
}

py::object edge_of(py::handle t) { return steal(PyObject_CallOneArg(c.edge_of, t.ptr())); }
bool has_node(py::handle edge) { return PyTuple_GET_ITEM(edge.ptr(), 0) != Py_None; }
py::object none_edge() { return borrow(c.none_edge); }

// _key(t, shape): (shape or t's sizes, dtype code, device key)
py::object key_of(py::handle t, py::object shape = py::object()) {
  py::object holder = steal(PyObject_GetAttr(t.ptr(), c.s_impl));
  const TensorImpl& ti = holder.cast<const TensorImpl&>();
  if (!shape) {
    const Shape& s = ti.sizes();
    shape = steal(fast_tuple_of(s));
  }
  py::object dev = steal(PyObject_GetAttr(holder.ptr(), c.s_device_key));
  return py::make_tuple(shape, int(ti.dtype()), dev);
}

// ----------------------------------------------------------------------------- nodes
// _slot(t, out) = graph._Slot(t, out)
py::object make_slot(py::handle t, PyObject* out) {
  py::object s = steal(c.slot_type->tp_alloc(c.slot_type, 0));
  set(s.ptr(), c.slot_t, t.ptr());
  set(s.ptr(), c.slot_out, out);
  return s;
}

// _node(name, outputs, edges, fn, names, saved): graph.Node.__init__'s fields set directly (the classes were checked
// at init), then the names, saved entries, outputs' grad_fn and the attach hook, as _node does.
py::object make_node(Cls cls, std::initializer_list<PyObject*> outputs, py::object edges, py::object fn,
                     py::object names, py::object saved) {
  PyTypeObject* type = c.classes[cls];
  py::object node = steal(type->tp_alloc(type, 0));
  PyObject* o = node.ptr();
  set(o, c.saved, Py_None);
  set(o, c.names, Py_None);
  set(o, c.fn, fn.ptr());
  set(o, c.next, edges.ptr());
  set(o, c.noutputs, steal(PyLong_FromSsize_t(Py_ssize_t(outputs.size()))).ptr());
  set(o, c.hooks, Py_None);
  set(o, c.retain, Py_None);
  set(o, c.metadata, steal(PyDict_New()).ptr());
  set(o, c.seq, steal(PyIter_Next(c.sequence)).ptr());
  set(o, c.names, names.ptr());
  set(o, c.saved, saved.ptr());
  Py_ssize_t i = 0;
  for (PyObject* out : outputs) {
    if (out) {
      if (PyObject_SetAttr(out, c.s_grad_fn, o) < 0) throw py::error_already_set();
      py::object nr = steal(PyLong_FromSsize_t(i));
      if (PyObject_SetAttr(out, c.s_output_nr, nr.ptr()) < 0) throw py::error_already_set();
    }
    ++i;
  }
  PyObject* hook = PyDict_GetItemWithError(c.graph_globals, c.s_attach_hook);
  if (!hook && PyErr_Occurred()) throw py::error_already_set();
  if (hook && hook != Py_None) steal(PyObject_CallOneArg(hook, o));
  return node;
}

py::object alpha_names() {
  py::dict d;
  d[c.s_alpha] = borrow(c.one);
  return d;
}

// _add_node(out, ea, eb)
py::object add_node(PyObject* out, py::handle ea, py::handle eb) {
  if (!has_node(ea) && !has_node(eb)) return py::none();
  return make_node(kAdd, {out}, py::make_tuple(ea, eb), borrow(c.pass_both), alpha_names(), py::none());
}

// _sub_node(out, ea, eb)
py::object sub_node(py::handle out, py::handle ea, py::handle eb) {
  if (!has_node(ea) && !has_node(eb)) return py::none();
  py::object fn = steal(PyObject_CallFunctionObjArgs(c.partial, c.sub_fn, key_of(out).ptr(), nullptr));
  return make_node(kSub, {out.ptr()}, py::make_tuple(ea, eb), fn, alpha_names(), py::none());
}

// _activation_node(name, out, edge): kind 0 sigmoid, 1 tanh, 2 relu
py::object activation_node(int kind, py::handle out, py::handle edge) {
  if (!has_node(edge)) return py::none();
  py::object rs = steal(c.saved_output_type->tp_alloc(c.saved_output_type, 0));  // graph.SavedOutput(out)
  py::object alias = detached_alias(out);
  set(rs.ptr(), c.so_alias, alias.ptr());
  set(rs.ptr(), c.so_node, Py_None);
  set(rs.ptr(), c.so_nr, c.zero);
  py::object fn = steal(PyObject_CallFunctionObjArgs(c.partial, c.act_fn, c.kinds[kind], rs.ptr(), nullptr));
  py::dict names;
  names[c.s_result] = make_slot(alias, c.zero);
  py::list saved;
  saved.append(py::make_tuple(alias, version_of(alias), borrow(c.zero)));
  const Cls cls = kind == 0 ? kSigmoid : kind == 1 ? kTanh : kRelu;
  py::object node = make_node(cls, {out.ptr()}, py::make_tuple(edge), fn, names, saved);
  set(rs.ptr(), c.so_node, steal(PyWeakref_NewRef(node.ptr(), nullptr)).ptr());  // rs.bind(node)
  set(rs.ptr(), c.so_nr, c.zero);
  return node;
}

// _mul_node(out, a, b, ea, eb); out may be null (the LSTM's i * g, freed in C++)
py::object mul_node(PyObject* out, py::handle a, py::handle b, py::handle ea, py::handle eb) {
  const bool need_a = has_node(ea), need_b = has_node(eb);
  if (!need_a && !need_b) return py::none();
  py::object sa = need_b ? borrow(a.ptr()) : py::none();
  py::object sb = need_a ? borrow(b.ptr()) : py::none();
  py::list saved;
  if (!sa.is_none()) saved.append(py::make_tuple(sa, version_of(sa), py::none()));
  if (!sb.is_none()) saved.append(py::make_tuple(sb, version_of(sb), py::none()));
  py::object fn = steal(PyObject_CallFunctionObjArgs(c.partial, c.mul_fn, sa.ptr(), sb.ptr(), nullptr));
  py::dict names;
  names[c.s_self] = sa.is_none() ? py::none() : make_slot(sa, Py_None);
  names[c.s_other] = sb.is_none() ? py::none() : make_slot(sb, Py_None);
  return make_node(kMul, {out}, py::make_tuple(ea, eb), fn, names, saved);
}

// _unsafe_split_node(chunks, edge, (rows, cols), split)
py::object split_node(py::list chunks, py::handle edge, int64_t rows, int64_t cols, int64_t split) {
  py::object sizes = py::make_tuple(rows, cols);
  py::object fn = steal(PyObject_CallFunctionObjArgs(c.partial, c.split_fn, py::int_(rows).ptr(),
                                                     py::int_(cols).ptr(), py::int_(split).ptr(),
                                                     key_of(chunks[0], sizes).ptr(), nullptr));
  py::dict names;
  names[c.s_dim] = borrow(c.one);
  names[c.s_self_sizes] = sizes;
  names[c.s_split_size] = py::int_(split);
  std::vector<PyObject*> outs;
  for (py::handle ch : chunks) outs.push_back(ch.ptr());
  if (outs.size() == 3) return make_node(kSplit, {outs[0], outs[1], outs[2]}, py::make_tuple(edge), fn, names, py::none());
  if (outs.size() == 4)
    return make_node(kSplit, {outs[0], outs[1], outs[2], outs[3]}, py::make_tuple(edge), fn, names, py::none());
  throw py::value_error("rnn split_node: 3 or 4 chunks");
}

void clear_list(py::list box) {
  if (PyList_SetSlice(box.ptr(), 0, PyList_GET_SIZE(box.ptr()), nullptr) < 0) throw py::error_already_set();
}

// Drops the references in the order given (the order gru_cell's / lstm_cell's frame clears its locals).
void release(std::initializer_list<py::object*> refs) {
  for (py::object* r : refs) *r = py::object();
}

// ----------------------------------------------------------------------------- the steps
py::object gru_step(py::list box, py::handle hx, py::handle w_hh, py::handle b_hh, bool track) {
  py::object other = box[0];
  clear_list(box);
  py::object ig = chunks_of(other, 3);  // input.unsafe_chunk(3, 1)
  if (track && has_node(edge_of(other))) {
    TensorPtr oi = impl(other);
    const int64_t orows = oi->sizes()[0], ocols = oi->sizes()[1];
    split_node(ig, edge_of(other), orows, ocols, ocols / 3);
  }
  py::object hgates = steal(PyObject_CallFunctionObjArgs(c.linear_hh, hx.ptr(), w_hh.ptr(), b_hh.ptr(), nullptr));
  bool virt;
  int64_t rows, cols;
  {
    TensorPtr hgi = impl(hgates), oi = impl(other), hxi = impl(hx);
    virt = hgi->is_virtual() || oi->is_virtual() || hxi->is_virtual();
    rows = hgi->sizes()[0];
    cols = hgi->sizes()[1];
  }
  py::object hg = chunks_of(hgates, 3);  // linear_hh(hidden).unsafe_chunk(3, 1)
  if (track && has_node(edge_of(hgates))) split_node(hg, edge_of(hgates), rows, cols, cols / 3);
  py::list hgl = hg, igl = ig;
  py::object e_hg[3], e_ig[3];
  for (int k = 0; k < 3; ++k) e_hg[k] = track ? edge_of(hgl[k]) : none_edge();
  for (int k = 0; k < 3; ++k) e_ig[k] = track ? edge_of(igl[k]) : none_edge();
  const bool gates_grad = has_node(e_hg[0]) || has_node(e_hg[1]) || has_node(e_ig[0]) || has_node(e_ig[1]);
  py::object fast = virt ? py::none() : rnn_kernels::gru(impl(other), impl(hgates), impl(hx), gates_grad);
  py::object orig_hn, new_gate, hy, orig_d;
  if (!fast.is_none()) {
    py::tuple f = fast;
    orig_hn = f[0].is_none() ? py::none() : wrap_holder(f[0]);
    new_gate = wrap_holder(f[1]);
    hy = wrap_holder(f[2]);
    orig_d = f[3].is_none() ? py::none() : wrap_holder(f[3]);
  } else {
    py::tuple r = steal(PyObject_CallFunctionObjArgs(c.gru_numpy, other.ptr(), hgates.ptr(), hx.ptr(), hg.ptr(),
                                                     ig.ptr(), virt ? Py_True : Py_False,
                                                     gates_grad ? Py_True : Py_False, nullptr));
    orig_hn = r[0];
    new_gate = r[1];
    hy = r[2];
    orig_d = r[3];
  }
  release({&hgates});
  if (!track) {
    hgl = py::list();  // (the lists themselves go with ig and hg)
    igl = py::list();
    release({&other, &ig, &hg, &fast, &orig_hn, &new_gate, &orig_d});
    return hy;
  }
  for (int k = 0; k < 2; ++k)
    if (!add_node(hgl[k].ptr(), e_hg[k], e_ig[k]).is_none()) activation_node(0, hgl[k], edge_of(hgl[k]));
  py::object reset_gate = hgl[0], input_gate = hgl[1], hn = hgl[2];
  mul_node(hn.ptr(), orig_hn, reset_gate, e_hg[2], edge_of(reset_gate));
  if (!add_node(new_gate.ptr(), e_ig[2], edge_of(hn)).is_none()) activation_node(1, new_gate, edge_of(new_gate));
  sub_node(hy, edge_of(hx), edge_of(new_gate));
  py::object e_d = edge_of(hy);
  mul_node(hy.ptr(), orig_d, input_gate, e_d, edge_of(input_gate));
  add_node(hy.ptr(), edge_of(hy), edge_of(new_gate));
  hgl = py::list();
  igl = py::list();
  release({&other, &ig, &hg, &fast, &orig_hn, &new_gate, &orig_d, &reset_gate, &input_gate, &hn});
  return hy;
}

py::object lstm_step(py::list box, py::handle cx, bool track) {
  py::object gates = box[0], other = box[1];
  int64_t rows, cols;
  bool fast, virt;
  {
    TensorPtr gi = impl(gates), oi = impl(other), ci = impl(cx);
    virt = gi->is_virtual() || oi->is_virtual() || ci->is_virtual();
    rows = gi->sizes()[0];
    cols = gi->sizes()[1];
    // gates.add_(igates) and the activations in place (the kernel checks cx too, so that lstm_state cannot refuse)
    fast = !virt && rnn_kernels::lstm_gates(gi, oi, ci).cast<bool>();
  }
  const int64_t h = cols / 4;
  // (lstm_cell takes these edges before the gates are written: neither tensor is a leaf, so the same edges now)
  py::object edge_gates = track ? edge_of(gates) : none_edge();
  py::object edge_other = track ? edge_of(other) : none_edge();
  // else numpy (half, float64 without numpy_loops.h, virtual, a strided state): _lstm_gates_numpy's activated values
  py::object act = fast ? py::none()
                        : steal(PyObject_CallFunctionObjArgs(c.lstm_gates_numpy, gates.ptr(), other.ptr(),
                                                             virt ? Py_True : Py_False, nullptr));
  clear_list(box);
  release({&other});  // a cell's own linear_ih result goes now (add_ saves nothing)
  py::list ch = chunks_of(gates, 4);
  py::object i = ch[0], f = ch[1], g = ch[2], o = ch[3];
  ch = py::list();
  if (track) {
    py::object add = add_node(gates.ptr(), edge_gates, edge_other);
    if (!add.is_none()) {
      py::list pieces;
      for (py::object* p : {&i, &f, &g, &o}) pieces.append(*p);
      split_node(pieces, py::make_tuple(add, 0), rows, cols, h);
      activation_node(0, i, edge_of(i));
      activation_node(0, f, edge_of(f));
      activation_node(1, g, edge_of(g));
      activation_node(0, o, edge_of(o));
    }
  }
  py::object state = fast ? rnn_kernels::lstm_state(impl(gates), impl(cx)) : py::none();
  if (fast && state.is_none())
    throw py::value_error("rnn_lstm_step: the state kernel refused operands the gates kernel took");
  release({&gates});
  py::object cy, tc, hy;
  if (fast) {
    py::tuple st = state;
    cy = wrap_holder(st[0]);
    tc = wrap_holder(st[1]);
    hy = wrap_holder(st[2]);
  } else {
    py::tuple st = steal(PyObject_CallFunctionObjArgs(c.lstm_state_numpy, act.ptr(), py::make_tuple(i, f, g, o).ptr(),
                                                      cx.ptr(), virt ? Py_True : Py_False, nullptr));
    cy = st[0];
    tc = st[1];
    hy = st[2];
  }
  if (track) {
    mul_node(cy.ptr(), f, cx, edge_of(f), edge_of(cx));
    py::object e_fcx = edge_of(cy);
    py::object ig_node = mul_node(nullptr, i, g, edge_of(i), edge_of(g));
    add_node(cy.ptr(), e_fcx, ig_node.is_none() ? none_edge() : py::make_tuple(ig_node, 0));
    activation_node(1, tc, edge_of(cy));
    mul_node(hy.ptr(), o, tc, edge_of(o), edge_of(tc));
  }
  release({&act, &i, &f, &g, &o, &state, &tc});
  return py::make_tuple(hy, cy);
}

py::object simple_step(py::handle gates, py::list box, bool track, bool relu) {
  py::object other = box[0];
  py::object e_g = track ? edge_of(gates) : none_edge();
  py::object e_o = track ? edge_of(other) : none_edge();
  if (!rnn_kernels::add_inplace(impl(gates), impl(other))) return py::none();  // nothing written
  clear_list(box);
  release({&other});
  if (track) add_node(gates.ptr(), e_g, e_o);
  py::object out = wrap_holder(rnn_kernels::activation(relu ? 2 : 1, impl(gates)));
  if (track) activation_node(relu ? 2 : 1, out, edge_of(gates));
  return out;
}

void require_ready() {
  if (!c.ready) raise(ErrorKind::RuntimeError, "rnn graph steps: rnn_graph_init has not registered torch's classes");
}

}  // namespace

void bind_rnn_graph(py::module_& m) {
  // True when the steps can run (the node classes are laid out as graph.Node)
  m.def("rnn_graph_init", [](py::dict ctx) {
    init(ctx);
    return c.ready;
  });
  m.def("rnn_gru_step", [](py::list box, py::handle hx, py::handle w_hh, py::handle b_hh, bool track) {
    require_ready();
    return gru_step(box, hx, w_hh, b_hh, track);
  });
  m.def("rnn_lstm_step", [](py::list box, py::handle cx, bool track) {
    require_ready();
    return lstm_step(box, cx, track);
  });
  m.def("rnn_simple_step", [](py::handle gates, py::list box, bool track, bool relu) {
    require_ready();
    return simple_step(gates, box, track, relu);
  });
}

}  // namespace ds::python

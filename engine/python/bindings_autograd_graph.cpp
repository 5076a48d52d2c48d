// Graph construction in C++ (issue 23): every differentiable op calls torch/autograd/graph.py's attach() once, and
// in a training loop of small ops (RNN cells, an MLP) the Python version of it - make the node, collect the input
// edges, record each saved tensor's version - cost more than many ops' arithmetic. `autograd_attach`,
// `autograd_attach_edges` and `autograd_edge_of` are graph.py's `_attach_py`, `_attach_edges_py` and `_edge_of_py`
// statement for statement: the same node class (graph.node_class(name)), the same slot values (the sequence number
// drawn from graph._SEQUENCE at the same point), the same `_saved` entries and `_saved_<name>` slots (a saved output
// held as the detached alias made by the same Python method), the same AccumulateGrad cache on leaves, the same
// attach_hook call. graph.py keeps the Python versions as the reference (DEVICESCOPE_PY_AUTOGRAD=1 runs them; the
// autograd_engine_agreement test compares the two) and for node classes laid out differently from graph.Node.
#include "bindings_common.h"  // Python.h first

#include "node_slots.h"

namespace ds::python {
namespace {

py::object steal(PyObject* o) {
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}
py::object borrow(PyObject* o) { return py::reinterpret_borrow<py::object>(o); }

// What graph.py registers at import (autograd_graph_init). One interpreter per process (bindings_common.h), but a
// re-import re-registers, so nothing here outlives the objects it names.
struct Graph : NodeSlots {
  bool ready = false;
  PyTypeObject* node_type = nullptr;  // graph.Node
  PyObject* classes = nullptr;        // graph._classes {name: class}
  PyObject* node_class = nullptr;     // graph.node_class(name): makes a missing class
  PyObject* sequence = nullptr;       // graph._SEQUENCE (itertools.count): Node::sequence_nr
  PyTypeObject* slot_type = nullptr;  // graph._Slot
  PyObject* accumulate_grad_cls = nullptr;  // graph.AccumulateGrad
  PyObject* globals = nullptr;        // graph's module dict: attach_hook is read at each call, as Python does
  PyObject *s_grad_fn, *s_output_nr, *s_requires_grad, *s_impl, *s_detached_alias, *s_attach_hook, *s_acc;
  PyObject *s_init, *s_new;
  PyObject* none_edge;  // (None, 0): immutable, so one object serves every call
  PyObject* zero;
};
Graph g;

void set(PyObject* obj, PyMemberDef* m, PyObject* v) { set_slot(obj, m, v); }

PyObject* keep(PyObject* o) {
  Py_INCREF(o);
  return o;
}

void init(py::object node, py::object classes, py::object node_class, py::object sequence, py::object slot,
          py::object accumulate_grad_cls, py::dict globals) {
  if (!PyType_Check(node.ptr()) || !PyType_Check(slot.ptr())) throw py::type_error("autograd_graph_init: classes");
  Graph n;
  n.node_type = reinterpret_cast<PyTypeObject*>(keep(node.ptr()));
  n.classes = keep(classes.ptr());
  n.node_class = keep(node_class.ptr());
  n.sequence = keep(sequence.ptr());
  n.slot_type = reinterpret_cast<PyTypeObject*>(keep(slot.ptr()));
  n.accumulate_grad_cls = keep(accumulate_grad_cls.ptr());
  n.globals = keep(globals.ptr());
  static_cast<NodeSlots&>(n) = node_slots(n.node_type, n.slot_type, "autograd_graph_init");
  n.s_grad_fn = PyUnicode_InternFromString("_grad_fn");
  n.s_output_nr = PyUnicode_InternFromString("_output_nr");
  n.s_requires_grad = PyUnicode_InternFromString("_requires_grad");
  n.s_impl = PyUnicode_InternFromString("_impl");
  n.s_detached_alias = PyUnicode_InternFromString("_detached_alias");
  n.s_attach_hook = PyUnicode_InternFromString("attach_hook");
  n.s_acc = PyUnicode_InternFromString("_acc");
  n.s_init = PyUnicode_InternFromString("__init__");
  n.s_new = PyUnicode_InternFromString("__new__");
  n.zero = PyLong_FromLong(0);
  n.none_edge = PyTuple_Pack(2, Py_None, n.zero);
  if (!n.none_edge) throw py::error_already_set();
  n.ready = true;
  g = n;
}

// hasattr(o, "_impl"): what graph.py takes for "a tensor"
bool has_impl(PyObject* o) {
  PyObject* r = nullptr;
  const int found = _PyObject_LookupAttr(o, g.s_impl, &r);
  if (found < 0) throw py::error_already_set();
  Py_XDECREF(r);
  return found == 1;
}

// t._impl.version, as a Python int
py::object version_of(PyObject* t) {
  py::object impl = steal(PyObject_GetAttr(t, g.s_impl));
  return steal(PyLong_FromUnsignedLongLong(impl.cast<const TensorImpl&>().version()));
}

py::object entry(PyObject* t, PyObject* version, PyObject* out) { return steal(PyTuple_Pack(3, t, version, out)); }

// _Slot(t, out)
py::object make_slot(PyObject* t, PyObject* out) {
  py::object s = steal(g.slot_type->tp_alloc(g.slot_type, 0));
  set(s.ptr(), g.slot_t, t);
  set(s.ptr(), g.slot_out, out);
  return s;
}

// node_class(name)(fn, tuple(edges), len(outputs)): Node.__init__'s fields set directly when the class is laid out as
// graph.Node (every class node_class makes), else through the class.
py::object make_node(PyObject* name, PyObject* fn, PyObject* edges, Py_ssize_t noutputs) {
  PyObject* cls = PyDict_GetItemWithError(g.classes, name);
  py::object made;
  if (!cls) {
    if (PyErr_Occurred()) throw py::error_already_set();
    made = steal(PyObject_CallOneArg(g.node_class, name));
    cls = made.ptr();
  }
  py::object n_obj = steal(PyLong_FromSsize_t(noutputs));
  PyTypeObject* type = reinterpret_cast<PyTypeObject*>(cls);
  if (!PyType_Check(cls) || type->tp_base != g.node_type || type->tp_basicsize != g.node_type->tp_basicsize ||
      PyDict_GetItemWithError(type->tp_dict, g.s_init) || PyDict_GetItemWithError(type->tp_dict, g.s_new)) {
    if (PyErr_Occurred()) throw py::error_already_set();
    py::object node = steal(PyObject_CallFunctionObjArgs(cls, fn, edges, n_obj.ptr(), nullptr));
    if (!PyObject_TypeCheck(node.ptr(), g.node_type)) throw py::type_error("node_class(name) must make a graph.Node");
    return node;
  }
  py::object node = steal(type->tp_alloc(type, 0));
  PyObject* o = node.ptr();
  set(o, g.saved, Py_None);
  set(o, g.names, Py_None);
  set(o, g.fn, fn);
  set(o, g.next, edges);
  set(o, g.noutputs, n_obj.ptr());
  set(o, g.hooks, Py_None);
  set(o, g.retain, Py_None);
  set(o, g.metadata, steal(PyDict_New()).ptr());
  set(o, g.seq, steal(PyIter_Next(g.sequence)).ptr());
  return node;
}

// One saved value (graph._attach_edges_py's loop body). slots: the `_saved_<name>` dict, or nullptr for a list.
void save_one(PyObject* key, PyObject* t, PyObject* outputs, PyObject* entries, PyObject* slots) {
  if (PyTuple_Check(t) || PyList_Check(t)) {
    py::object items = steal(PySequence_Fast(t, ""));
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(items.ptr());
    PyObject** xs = PySequence_Fast_ITEMS(items.ptr());
    bool any = false;
    for (Py_ssize_t i = 0; i < n && !any; ++i) any = has_impl(xs[i]);
    if (any) {
      // a list of tensors (index's `indices`): each is version-checked, all freed by backward
      for (Py_ssize_t i = 0; i < n; ++i)
        if (has_impl(xs[i]) && PyList_Append(entries, entry(xs[i], version_of(xs[i]).ptr(), Py_None).ptr()) < 0)
          throw py::error_already_set();
      if (slots && PyDict_SetItem(slots, key, make_slot(steal(PySequence_Tuple(t)).ptr(), Py_None).ptr()) < 0)
        throw py::error_already_set();
      return;
    }
  }
  if (t == Py_None || !has_impl(t)) {
    if (slots && PyDict_SetItem(slots, key, t) < 0) throw py::error_already_set();
    return;
  }
  Py_ssize_t out = -1;
  const Py_ssize_t nout = PySequence_Fast_GET_SIZE(outputs);
  for (Py_ssize_t i = 0; i < nout && out < 0; ++i)
    if (PySequence_Fast_GET_ITEM(outputs, i) == t) out = i;
  py::object alias, out_obj = borrow(Py_None);
  if (out >= 0) {
    // A saved output must not point back at its node (a reference cycle that keeps activations alive until the
    // garbage collector runs): a plain alias and its index.
    alias = steal(PyObject_CallMethodNoArgs(t, g.s_detached_alias));
    out_obj = steal(PyLong_FromSsize_t(out));
  } else {
    alias = borrow(t);
  }
  if (PyList_Append(entries, entry(alias.ptr(), version_of(t).ptr(), out_obj.ptr()).ptr()) < 0)
    throw py::error_already_set();
  if (slots && PyDict_SetItem(slots, key, make_slot(alias.ptr(), out_obj.ptr()).ptr()) < 0)
    throw py::error_already_set();
}

PyObject* attach_edges(PyObject* name, PyObject* outputs_in, PyObject* edges_in, PyObject* fn, PyObject* saved) {
  py::object outputs = steal(PySequence_Fast(outputs_in, "outputs must be a sequence"));
  py::object edges = steal(PySequence_Tuple(edges_in));
  py::object node = make_node(name, fn, edges.ptr(), PySequence_Fast_GET_SIZE(outputs.ptr()));
  if (saved && saved != Py_None) {
    const int truth = PyObject_IsTrue(saved);
    if (truth < 0) throw py::error_already_set();
    if (truth) {
      const bool named = PyDict_Check(saved);
      py::object entries = steal(PyList_New(0));
      py::object slots = named ? steal(PyDict_New()) : py::object();
      if (named) {
        // over a copy of the items, as Python's `for key, t in named.items()` fails if the dict changes size
        py::object items = steal(PyDict_Items(saved));
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items.ptr()); ++i) {
          PyObject* kv = PyList_GET_ITEM(items.ptr(), i);
          save_one(PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1), outputs.ptr(), entries.ptr(), slots.ptr());
        }
      } else {
        py::object seq = steal(PySequence_Fast(saved, "saved must be a sequence or a dict"));
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.ptr()); ++i)
          save_one(nullptr, PySequence_Fast_GET_ITEM(seq.ptr(), i), outputs.ptr(), entries.ptr(), nullptr);
      }
      // node._saved = entries or None; node._names = slots
      set(node.ptr(), g.saved, PyList_GET_SIZE(entries.ptr()) ? entries.ptr() : Py_None);
      set(node.ptr(), g.names, named ? slots.ptr() : Py_None);
    }
  }
  const Py_ssize_t nout = PySequence_Fast_GET_SIZE(outputs.ptr());
  for (Py_ssize_t i = 0; i < nout; ++i) {
    PyObject* o = PySequence_Fast_GET_ITEM(outputs.ptr(), i);
    if (o == Py_None) continue;
    py::object nr = steal(PyLong_FromSsize_t(i));
    if (PyObject_SetAttr(o, g.s_grad_fn, node.ptr()) < 0 || PyObject_SetAttr(o, g.s_output_nr, nr.ptr()) < 0)
      throw py::error_already_set();
  }
  PyObject* hook = PyDict_GetItemWithError(g.globals, g.s_attach_hook);
  if (!hook && PyErr_Occurred()) throw py::error_already_set();
  if (hook && hook != Py_None) steal(PyObject_CallOneArg(hook, node.ptr()));
  return node.release().ptr();
}

// graph.accumulate_grad(t): the leaf's AccumulateGrad, cached weakly on the tensor as PyTorch does.
py::object accumulate_grad(PyObject* t) {
  py::object dict = steal(PyObject_GenericGetDict(t, nullptr));
  PyObject* ref = PyDict_GetItemWithError(dict.ptr(), g.s_acc);
  if (!ref && PyErr_Occurred()) throw py::error_already_set();
  if (ref && ref != Py_None) {
    py::object node = steal(PyObject_CallNoArgs(ref));
    if (node.ptr() != Py_None) return node;
  }
  py::object node = steal(PyObject_CallOneArg(g.accumulate_grad_cls, t));
  py::object weak = steal(PyWeakref_NewRef(node.ptr(), nullptr));
  if (PyObject_SetAttr(t, g.s_acc, weak.ptr()) < 0) throw py::error_already_set();
  return node;
}

// graph.edge_of(t): (grad_fn, output_nr), (AccumulateGrad, 0) for a leaf that requires grad, else (None, 0)
PyObject* edge_of(PyObject* t) {
  if (t == Py_None) return Py_NewRef(g.none_edge);
  py::object fn = steal(PyObject_GetAttr(t, g.s_grad_fn));
  if (fn.ptr() == Py_None) {
    py::object rg = steal(PyObject_GetAttr(t, g.s_requires_grad));
    const int truth = PyObject_IsTrue(rg.ptr());
    if (truth < 0) throw py::error_already_set();
    if (!truth) return Py_NewRef(g.none_edge);
    return PyTuple_Pack(2, accumulate_grad(t).ptr(), g.zero);
  }
  py::object nr = steal(PyObject_GetAttr(t, g.s_output_nr));
  return PyTuple_Pack(2, fn.ptr(), nr.ptr());
}

// The C++ exception being handled as the Python error indicator.
PyObject* raise_current() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (const Error& e) {
    set_python_error(e);
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// (name, outputs, edges_or_inputs, fn, saved=None) from a vectorcall, as the Python signature takes them
bool parse(const char* what, const char* third, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames,
           PyObject* out[5]) {
  static const char* kNames[5] = {"name", "outputs", nullptr, "fn", "saved"};
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (nargs > 5) {
    PyErr_Format(PyExc_TypeError, "%s() takes from 4 to 5 positional arguments but %zd were given", what, nargs);
    return false;
  }
  for (int i = 0; i < 5; ++i) out[i] = i < nargs ? args[i] : nullptr;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int slot = -1;
    for (int i = 0; i < 5 && slot < 0; ++i)
      if (PyUnicode_CompareWithASCIIString(key, i == 2 ? third : kNames[i]) == 0) slot = i;
    if (slot < 0) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", what, key);
      return false;
    }
    if (out[slot]) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'", what, key);
      return false;
    }
    out[slot] = args[nargs + k];
  }
  for (int i = 0; i < 4; ++i)
    if (!out[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", what, i == 2 ? third : kNames[i]);
      return false;
    }
  return true;
}

bool check_ready() {
  if (g.ready) return true;
  PyErr_SetString(PyExc_RuntimeError, "autograd_graph_init has not run (torch.autograd.graph registers it)");
  return false;
}

PyObject* attach_edges_call(PyObject*, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  PyObject* a[5];
  if (!check_ready() || !parse("attach_edges", "edges", args, nargsf, kwnames, a)) return nullptr;
  try {
    return attach_edges(a[0], a[1], a[2], a[3], a[4]);
  } catch (...) {
    return raise_current();
  }
}

// attach(name, outputs, inputs, fn, saved=None) = attach_edges(name, outputs, [edge_of(x) for x in inputs], ...)
PyObject* attach_call(PyObject*, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  PyObject* a[5];
  if (!check_ready() || !parse("attach", "inputs", args, nargsf, kwnames, a)) return nullptr;
  try {
    py::object inputs = steal(PySequence_Fast(a[2], "inputs must be a sequence"));
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(inputs.ptr());
    py::object edges = steal(PyList_New(n));
    for (Py_ssize_t i = 0; i < n; ++i)
      PyList_SET_ITEM(edges.ptr(), i, steal(edge_of(PySequence_Fast_GET_ITEM(inputs.ptr(), i))).release().ptr());
    return attach_edges(a[0], a[1], edges.ptr(), a[3], a[4]);
  } catch (...) {
    return raise_current();
  }
}

PyObject* edge_of_call(PyObject*, PyObject* t) {
  if (!check_ready()) return nullptr;
  try {
    return edge_of(t);
  } catch (...) {
    return raise_current();
  }
}

PyMethodDef g_defs[] = {
    {"autograd_attach_edges", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(attach_edges_call)),
     METH_FASTCALL | METH_KEYWORDS, "graph.attach_edges in C++ (see torch/autograd/graph.py)"},
    {"autograd_attach", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(attach_call)),
     METH_FASTCALL | METH_KEYWORDS, "graph.attach in C++ (see torch/autograd/graph.py)"},
    {"autograd_edge_of", edge_of_call, METH_O, "graph.edge_of in C++ (see torch/autograd/graph.py)"},
};

}  // namespace

void bind_autograd_graph(py::module_& m) {
  m.def("autograd_graph_init", &init, py::arg("node"), py::arg("classes"), py::arg("node_class"),
        py::arg("sequence"), py::arg("slot"), py::arg("accumulate_grad_cls"), py::arg("globals"));
  for (PyMethodDef& d : g_defs) m.attr(d.ml_name) = steal(PyCFunction_NewEx(&d, nullptr, m.attr("__name__").ptr()));
}

}  // namespace ds::python

// The backward functions of the recurrent cells' nodes in C++ (issue 23). torch/nn/_rnn_cells.py's nodes run
// functools.partial objects of its module functions _act_fn, _mul_fn, _sub_fn, _split_fn and _pass_both; with the C++
// steps (bindings_rnn_graph.cpp) the partials are of these entries instead, which do the common case - grad mode off
// during backward and the bindings_rnn.cpp kernel taking the operands - without a Python frame, and otherwise call
// the Python function with the same arguments (so create_graph, half, virtual and strided cases run that code).
// Each is its Python function's fast branch statement for statement: the same kernels, the same allocations.
//   rnn_act_backward(kind, saved_output, grads)   _act_fn
//   rnn_mul_backward(self_or_None, other_or_None, grads)   _mul_fn (the gradient of self first, as ATen)
//   rnn_sub_backward(key, grads)                  _sub_fn
//   rnn_split_backward(rows, cols, split, key, grads)   _split_fn
//   rnn_pass_both(grads)                          _pass_both
// rnn_backward_init(ctx) registers the Python functions, grad_mode._enabled and _mul_side (_mul_fn's numpy branch for
// one side).
#include "bindings_common.h"  // Python.h first

#include <utility>

#include "fast_entry.h"
#include "rnn_kernels.h"

namespace ds::python {
namespace {

py::object steal(PyObject* o) {
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

// What rnn_backward_init registers. Raw references, taken and never dropped: a later session's interpreter
// re-registers over the objects of a finalized one, which must not be touched then (as bindings_autograd_graph.cpp).
struct Fns {
  bool ready = false;
  PyObject *grad_enabled = nullptr, *act_fn = nullptr, *mul_fn = nullptr, *sub_fn = nullptr, *split_fn = nullptr,
           *mul_side = nullptr, *s_impl = nullptr, *s_alias = nullptr;
};
Fns g_fns;
Fns& fns() { return g_fns; }

PyObject* keep(py::handle o) {
  Py_INCREF(o.ptr());
  return o.ptr();
}

// fn(args...) of a registered Python function
template <typename... A>
py::object call(PyObject* fn, A&&... args) {
  return py::reinterpret_borrow<py::object>(fn)(std::forward<A>(args)...);
}

void require_ready() {
  if (!fns().ready) raise(ErrorKind::RuntimeError, "rnn backward: rnn_backward_init has not registered torch's functions");
}

// grad_mode._enabled[0]: the backward runs under create_graph
bool grad_on() {
  const int r = PyObject_IsTrue(PyList_GET_ITEM(fns().grad_enabled, 0));
  if (r < 0) throw py::error_already_set();
  return r == 1;
}

TensorPtr impl(py::handle t) { return steal(PyObject_GetAttr(t.ptr(), fns().s_impl)).cast<TensorPtr>(); }

// C.wrap(holder)
py::object wrap(const py::object& holder) { return steal(fast_wrap(holder.cast<TensorPtr>())); }

// the node's incoming gradients (the engine passes a list; anything else is made one, as the Python functions
// index it)
py::list as_list(py::handle gs) {
  if (PyList_Check(gs.ptr())) return py::reinterpret_borrow<py::list>(gs);
  return steal(PySequence_List(gs.ptr()));
}

py::object first_grad(const py::list& gs) { return gs.size() ? py::object(gs[0]) : py::none(); }

py::object act_backward(int kind, py::handle rs, py::list gs) {
  py::object g = first_grad(gs);
  if (!g.is_none() && !grad_on()) {
    // rs.unpack() with grad mode off is rs.alias
    py::object r = steal(PyObject_GetAttr(rs.ptr(), fns().s_alias));
    py::object fast = rnn_kernels::act_grad(kind, impl(g), impl(r));
    if (!fast.is_none()) return py::make_tuple(wrap(fast));
  }
  return call(fns().act_fn, kind, rs, gs);
}

py::object mul_backward(py::handle sa, py::handle sb, py::list gs) {
  py::object g = first_grad(gs);
  if (g.is_none() || grad_on()) return call(fns().mul_fn, sa, sb, gs);
  const bool need_a = !sb.is_none(), need_b = !sa.is_none();
  py::object ga = py::none(), gb = py::none();
  if (need_a) {
    py::object fast = rnn_kernels::mul_grad(impl(g), impl(sb));
    if (fast.is_none()) return call(fns().mul_fn, sa, sb, gs);  // (nothing made yet: the Python function does it all)
    ga = wrap(fast);
  }
  if (need_b) {
    py::object fast = rnn_kernels::mul_grad(impl(g), impl(sa));
    gb = fast.is_none() ? call(fns().mul_side, g, sa) : wrap(fast);
  }
  return py::make_tuple(ga, gb);
}

py::object sub_backward(py::handle key, py::list gs) {
  py::object g = first_grad(gs);
  if (!g.is_none() && !grad_on()) {
    py::object fast = rnn_kernels::neg_grad(impl(g));
    if (!fast.is_none()) return py::make_tuple(g, wrap(fast));
  }
  return call(fns().sub_fn, key, gs);
}

py::object split_backward(py::handle rows, py::handle cols, py::handle split, py::handle key, py::list gs) {
  if (!grad_on()) {
    bool any = false;
    for (py::handle g : gs) any = any || !g.is_none();
    if (any) {
      py::object fast = rnn_kernels::split_grad(gs, rows.cast<int64_t>(), cols.cast<int64_t>());
      if (!fast.is_none()) return py::make_tuple(wrap(fast));
    }
  }
  return call(fns().split_fn, rows, cols, split, key, gs);
}

}  // namespace

void bind_rnn_backward(py::module_& m) {
  m.def("rnn_backward_init", [](py::dict ctx) {
    Fns& f = fns();
    py::object enabled = ctx["grad_enabled"];
    if (!PyList_Check(enabled.ptr()) || PyList_GET_SIZE(enabled.ptr()) != 1)
      throw py::type_error("rnn_backward_init: grad_enabled must be grad_mode._enabled");
    f.grad_enabled = keep(enabled);
    f.act_fn = keep(ctx["act_fn"]);
    f.mul_fn = keep(ctx["mul_fn"]);
    f.sub_fn = keep(ctx["sub_fn"]);
    f.split_fn = keep(ctx["split_fn"]);
    f.mul_side = keep(ctx["mul_side"]);
    f.s_impl = PyUnicode_InternFromString("_impl");
    f.s_alias = PyUnicode_InternFromString("alias");
    f.ready = true;
  });
  m.def("rnn_act_backward", [](int kind, py::handle rs, py::handle gs) {
    require_ready();
    return act_backward(kind, rs, as_list(gs));
  });
  m.def("rnn_mul_backward", [](py::handle sa, py::handle sb, py::handle gs) {
    require_ready();
    return mul_backward(sa, sb, as_list(gs));
  });
  m.def("rnn_sub_backward", [](py::handle key, py::handle gs) {
    require_ready();
    return sub_backward(key, as_list(gs));
  });
  m.def("rnn_split_backward", [](py::handle rows, py::handle cols, py::handle split, py::handle key, py::handle gs) {
    require_ready();
    return split_backward(rows, cols, split, key, as_list(gs));
  });
  m.def("rnn_pass_both", [](py::handle gs) {
    py::object g = as_list(gs)[0];
    return py::make_tuple(g, g);
  });
}

}  // namespace ds::python

// graph.Node's and graph._Slot's __slots__ as member descriptors (where each attribute lives in the object),
// looked up once at registration: the C++ graph builders (bindings_autograd_graph.cpp: attach/edge_of;
// bindings_rnn_graph.cpp: a recurrent cell's whole step) read and write nodes through them without an
// attribute lookup per access. Include after bindings_common.h (Python.h first).
#pragma once

#include <structmember.h>

#include <string>

#include "bindings_common.h"

namespace ds::python {

struct NodeSlots {
  PyMemberDef *fn = nullptr, *next = nullptr, *noutputs = nullptr, *hooks = nullptr, *retain = nullptr,
              *saved = nullptr, *names = nullptr, *metadata = nullptr, *seq = nullptr;
  PyMemberDef *slot_t = nullptr, *slot_out = nullptr;
};

// The member descriptor `name` of `type`; `who` names the registering call in the error.
inline PyMemberDef* slot_member(PyTypeObject* type, const char* name, const char* who) {
  PyObject* d = PyDict_GetItemString(type->tp_dict, name);
  if (!d || !Py_IS_TYPE(d, &PyMemberDescr_Type))
    throw py::type_error(std::string(who) + ": " + type->tp_name + "." + name + " is not a slot");
  return reinterpret_cast<PyMemberDescrObject*>(d)->d_member;
}

inline NodeSlots node_slots(PyTypeObject* node_type, PyTypeObject* slot_type, const char* who) {
  NodeSlots s;
  s.fn = slot_member(node_type, "_fn", who);
  s.next = slot_member(node_type, "_next", who);
  s.noutputs = slot_member(node_type, "_noutputs", who);
  s.hooks = slot_member(node_type, "_hooks", who);
  s.retain = slot_member(node_type, "_retain", who);
  s.saved = slot_member(node_type, "_saved", who);
  s.names = slot_member(node_type, "_names", who);
  s.metadata = slot_member(node_type, "metadata", who);
  s.seq = slot_member(node_type, "_seq", who);
  s.slot_t = slot_member(slot_type, "t", who);
  s.slot_out = slot_member(slot_type, "out", who);
  return s;
}

// Sets one slot (PyMember_SetOne: the reference counting a Python assignment does).
inline void set_slot(PyObject* obj, PyMemberDef* m, PyObject* v) {
  if (PyMember_SetOne(reinterpret_cast<char*>(obj), m, v) < 0) throw py::error_already_set();
}

}  // namespace ds::python

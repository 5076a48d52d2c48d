// The CopyOrigin of the calling Python thread/task: torch._devicescope_hooks keeps the owner of the copies
// and the role of new storages in two contextvars.ContextVar (a module move sets them, a daemon thread
// never sees them), and every binding that allocates or copies hands them to the engine.
#pragma once

#include <pybind11/pybind11.h>

#include "runtime/copy_origin.h"

namespace ds::python {

namespace py = pybind11;

// owner_var holds a str ("" = none), role_var an int(ds::Role).
void register_copy_origin(py::handle owner_var, py::handle role_var);
CopyOrigin current_copy_origin();
// Sets this thread's copy owner (what torch._devicescope_hooks.set_owner_hint does), for C++ loops that pass
// each copy's owner in its CopyOrigin and leave the variable as the Python loop would have.
void set_current_copy_owner(const std::string& owner);
Role current_storage_role();  // just the role: for factories and op outputs, which copy nothing

}  // namespace ds::python

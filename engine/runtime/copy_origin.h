// Who a copy is for and what the storages made for it are, passed WITH each allocation and copy instead of
// being left in the Runtime for whichever caller comes next (another Python thread's copies are not a
// module move's). The Python layer keeps it per thread / task and the bindings hand it down.
#pragma once

#include <string>

#include "trace/snapshot.h"  // Role

namespace ds {

struct CopyOrigin {
  std::string owner;         // names the transfers ("model.fc.weight"); "" = the source storage's owner
  Role role = Role::Tensor;  // role of the storages made on the way (Role::Activation inside a forward)
};

}  // namespace ds

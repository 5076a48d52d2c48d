// The ValueError both loaders (load_csv.cpp, load_trace.cpp) raise for a file that is not a complete,
// consistent DeviceScope recording: "<name>: not a DeviceScope trace: <what is wrong>".
#pragma once

#include <string>

#include "core/errors.h"

namespace ds {

inline Error not_a_trace(const std::string& name, const std::string& what) {
  return Error(ErrorKind::ValueError, name + ": not a DeviceScope trace: " + what);
}

}  // namespace ds

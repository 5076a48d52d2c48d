// Module-tree rows for views (trace/snapshot.h ModuleEntry) from a C++ Module, in the same shape the Python
// layer's devicescope.names produces: module rows with their majority device, then parameter, buffer and
// plain-tensor leaves, stragglers flagged against the root's majority device.
#pragma once

#include <string>
#include <vector>

#include "module/module.h"
#include "trace/snapshot.h"

namespace ds {

// Depth-first rows for `root` named `root_name` ("model"): each module once (a module registered twice is
// listed under its first path), leaves in registration order. Appends to `out`.
void append_module_tree(const Module& root, const std::string& root_name, std::vector<ModuleEntry>& out);
std::vector<ModuleEntry> module_tree(const Module& root, const std::string& root_name);

}  // namespace ds

// Module-tree rows (ModuleEntry) from a C++ Module, mirroring devicescope/names.py's module_rows/_rows.
#include "module/module_tree.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace ds {
namespace {

// names.py _majority: the most frequent non-empty value; ties go to the one seen first.
std::string majority(const std::vector<std::string>& values) {
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& v : values) {
    if (v.empty()) continue;
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == v; });
    if (it == counts.end())
      counts.emplace_back(v, 1);
    else
      ++it->second;
  }
  std::string best;
  int best_count = 0;
  for (const auto& [v, n] : counts)
    if (n > best_count) best = v, best_count = n;
  return best;
}

// Registered tensors (parameters and buffers) of every distinct module under m.
std::vector<TensorPtr> registered_tensors(const Module& m) {
  std::vector<TensorPtr> out;
  for (const auto& [name, sub] : m.named_modules()) {
    for (const auto& [k, p] : sub->parameters_dict())
      if (p) out.push_back(p);
    for (const auto& [k, b] : sub->buffers_dict())
      if (b) out.push_back(b);
  }
  return out;
}

void rows(const Module& m, const std::string& path, int depth, const std::string& root_majority,
          std::unordered_set<const Module*>& seen, std::vector<ModuleEntry>& out) {
  if (!seen.insert(&m).second) return;
  std::vector<std::string> devices, dtypes;
  for (const TensorPtr& t : registered_tensors(m)) {
    devices.push_back(t->device().str());
    dtypes.push_back(dtype_name(t->dtype()));
  }
  ModuleEntry row;
  row.depth = depth;
  row.path = path;
  row.type = m.type_name();
  row.kind = ObjectKind::Module;
  row.device = majority(devices);
  row.dtype = majority(dtypes);
  out.push_back(std::move(row));

  auto leaf = [&](const std::string& name, const TensorPtr& t, ObjectKind kind, const char* type) {
    if (!t) return;
    ModuleEntry e;
    e.depth = depth + 1;
    e.path = path + "." + name;
    e.type = type;
    e.kind = kind;
    e.device = t->device().str();
    e.dtype = dtype_name(t->dtype());
    e.shape = t->sizes();
    e.straggler = !root_majority.empty() && e.device != root_majority;
    e.storage_id = t->storage() ? t->storage()->id() : 0;
    out.push_back(std::move(e));
  };
  for (const auto& [k, p] : m.parameters_dict()) leaf(k, p, ObjectKind::Parameter, "Parameter");
  for (const auto& [k, b] : m.buffers_dict()) leaf(k, b, ObjectKind::Buffer, "Tensor");
  for (const auto& [k, v] : m.attributes())
    if (v.is_tensor()) leaf(k, v.tensor(), ObjectKind::Tensor, v.is_parameter() ? "Parameter" : "Tensor");
  for (const auto& [k, c] : m.modules_dict())
    if (c) rows(*c, path + "." + k, depth + 1, root_majority, seen, out);
}

}  // namespace

void append_module_tree(const Module& root, const std::string& root_name, std::vector<ModuleEntry>& out) {
  if (!root.initialized()) return;
  std::vector<std::string> devices;
  for (const TensorPtr& t : registered_tensors(root)) devices.push_back(t->device().str());
  std::unordered_set<const Module*> seen;
  rows(root, root_name, 0, majority(devices), seen, out);
}

std::vector<ModuleEntry> module_tree(const Module& root, const std::string& root_name) {
  std::vector<ModuleEntry> out;
  append_module_tree(root, root_name, out);
  return out;
}

}  // namespace ds

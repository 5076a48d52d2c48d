// The names graph as the Python layer builds it (devicescope.names.build_object_graph) turned into the
// engine's ObjectGraph. PythonSession asks for it after each step and keeps it with its snapshots: the
// graph belongs to the session, not to the Runtime, which knows storages and copies only.
#include <pybind11/stl.h>

#include <cctype>

#include "bindings_common.h"

namespace ds::python {
namespace {

ObjectKind object_kind_from_name(std::string name) {
  for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  static const std::pair<const char*, ObjectKind> table[] = {
      {"name", ObjectKind::Name},       {"module", ObjectKind::Module}, {"parameter", ObjectKind::Parameter},
      {"buffer", ObjectKind::Buffer},   {"tensor", ObjectKind::Tensor}, {"list", ObjectKind::List},
      {"dict", ObjectKind::Dict},       {"tuple", ObjectKind::Tuple},   {"optimizer", ObjectKind::Optimizer},
      {"other", ObjectKind::Other},
  };
  for (const auto& [n, k] : table)
    if (name == n) return k;
  return ObjectKind::Other;
}

// Reads `key` from a dict-like or attribute-style record, with a default.
template <typename T>
T field(py::handle rec, const char* key, T fallback) {
  py::object v;
  if (py::isinstance<py::dict>(rec)) {
    py::dict d = py::reinterpret_borrow<py::dict>(rec);
    if (!d.contains(key)) return fallback;
    v = d[key];
  } else {
    if (!py::hasattr(rec, key)) return fallback;
    v = rec.attr(key);
  }
  if (v.is_none()) return fallback;
  return v.cast<T>();
}

}  // namespace

// Note [Object graph contract]: devicescope.names.build_object_graph(globals) returns
//   {"nodes": [{"id", "kind", "label", "device", "storage_id", "changed"}],
//    "edges": [{"from", "to", "label"}],
//    "modules": [{"depth", "path", "type", "kind", "device", "dtype", "shape", "straggler", "storage_id"}],
//    "holders": [{"storage_id", "names": ["wd", "saved[0]", ...]}]}
// with kind one of name/module/parameter/buffer/tensor/list/dict/tuple/optimizer/other. Missing keys
// take defaults, so the builder can grow without breaking this conversion.
ObjectGraph object_graph_from_py(py::handle graph) {
  ObjectGraph g;
  auto list_of = [&](const char* key) -> py::list {
    if (py::isinstance<py::dict>(graph)) {
      py::dict d = py::reinterpret_borrow<py::dict>(graph);
      if (d.contains(key)) return py::list(d[key]);
    } else if (py::hasattr(graph, key)) {
      return py::list(graph.attr(key));
    }
    return py::list();
  };
  for (py::handle n : list_of("nodes")) {
    ObjectNode node;
    node.id = field<uint64_t>(n, "id", 0);
    node.kind = object_kind_from_name(field<std::string>(n, "kind", "other"));
    node.label = field<std::string>(n, "label", "");
    node.device = field<std::string>(n, "device", "");
    node.storage_id = field<uint64_t>(n, "storage_id", 0);
    node.changed = field<bool>(n, "changed", false);
    g.nodes.push_back(std::move(node));
  }
  for (py::handle e : list_of("edges")) {
    ObjectEdge edge;
    edge.from = field<uint64_t>(e, "from", 0);
    edge.to = field<uint64_t>(e, "to", 0);
    edge.label = field<std::string>(e, "label", "");
    g.edges.push_back(std::move(edge));
  }
  for (py::handle m : list_of("modules")) {
    ModuleEntry entry;
    entry.depth = field<int>(m, "depth", 0);
    entry.path = field<std::string>(m, "path", "");
    entry.type = field<std::string>(m, "type", "");
    entry.kind = object_kind_from_name(field<std::string>(m, "kind", "module"));
    entry.device = field<std::string>(m, "device", "");
    entry.dtype = field<std::string>(m, "dtype", "");
    entry.shape = field<std::vector<int64_t>>(m, "shape", {});
    entry.straggler = field<bool>(m, "straggler", false);
    entry.storage_id = field<uint64_t>(m, "storage_id", 0);
    g.modules.push_back(std::move(entry));
  }
  for (py::handle h : list_of("holders")) {
    StorageHolders holders;
    holders.storage_id = field<uint64_t>(h, "storage_id", 0);
    holders.names = field<std::vector<std::string>>(h, "names", {});
    if (holders.storage_id) g.holders.push_back(std::move(holders));
  }
  return g;
}

}  // namespace ds::python

// Folding the names graph: summaries of folded containers, the greedy plan that folds until it fits.
#include "gui/view_state/graph_fold.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "gui/view_state/size_text.h"

namespace ds::gui {
namespace {

bool is_tensor(ObjectKind k) { return k == ObjectKind::Parameter || k == ObjectKind::Buffer || k == ObjectKind::Tensor; }

std::unordered_map<uint64_t, size_t> index_of(const ObjectGraph& g) {
  std::unordered_map<uint64_t, size_t> m;
  for (size_t i = 0; i < g.nodes.size(); ++i) m.emplace(g.nodes[i].id, i);
  return m;
}

// Nodes reachable from `start` through references, never through a name (names only start paths).
std::vector<size_t> reach(const ObjectGraph& g, const std::vector<size_t>& start, const std::vector<std::vector<size_t>>& children,
                          const std::unordered_map<uint64_t, size_t>& at, const std::unordered_set<uint64_t>* stop = nullptr) {
  std::vector<char> seen(g.nodes.size(), 0);
  std::deque<size_t> queue;
  std::vector<size_t> out;
  for (size_t s : start)
    if (!seen[s]) seen[s] = 1, queue.push_back(s);
  while (!queue.empty()) {
    const size_t n = queue.front();
    queue.pop_front();
    out.push_back(n);
    if (stop && stop->count(g.nodes[n].id)) continue;  // folded: what it holds is not drawn through it
    for (size_t e : children[n]) {
      const size_t c = at.at(g.edges[e].to);
      if (seen[c] || g.nodes[c].kind == ObjectKind::Name) continue;
      seen[c] = 1;
      queue.push_back(c);
    }
  }
  return out;
}

std::vector<size_t> names_of(const ObjectGraph& g) {
  std::vector<size_t> v;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].kind == ObjectKind::Name) v.push_back(i);
  return v;
}

// The type word of a container's label: "Sequential(...)" -> "Sequential", "Adam (6 params)" -> "Adam".
std::string type_word(const ObjectNode& n) {
  std::string s = n.label;
  const size_t cut = s.find_first_of("( [{<");
  if (cut != std::string::npos && cut > 0) s = s.substr(0, cut);
  if (s.size() > 28) s = s.substr(0, 28);
  return s.empty() ? "object" : s;
}

}  // namespace

std::vector<std::vector<size_t>> out_edges(const ObjectGraph& g) {
  const auto at = index_of(g);
  std::vector<std::vector<size_t>> children(g.nodes.size());
  for (size_t e = 0; e < g.edges.size(); ++e) {
    auto f = at.find(g.edges[e].from), t = at.find(g.edges[e].to);
    if (f != at.end() && t != at.end()) children[f->second].push_back(e);
  }
  return children;
}

bool foldable(const ObjectGraph& g, size_t node, const std::vector<std::vector<size_t>>& children) {
  const ObjectKind k = g.nodes[node].kind;
  return k != ObjectKind::Name && !is_tensor(k) && !children[node].empty();
}

FoldSummary summarize(const ObjectGraph& g, size_t node, const std::vector<std::vector<size_t>>& children,
                      const std::vector<StorageInfo>* storages) {
  FoldSummary s;
  const auto at = index_of(g);
  std::unordered_map<uint64_t, uint64_t> bytes_of;
  if (storages)
    for (const StorageInfo& st : *storages) bytes_of.emplace(st.id, st.nbytes);
  std::unordered_set<uint64_t> seen_storage;
  for (size_t n : reach(g, {node}, children, at)) {
    const ObjectNode& o = g.nodes[n];
    if (!is_tensor(o.kind)) continue;
    ++s.tensors;
    if (o.storage_id && seen_storage.insert(o.storage_id).second) {
      auto b = bytes_of.find(o.storage_id);
      if (b != bytes_of.end()) s.bytes += b->second;
    }
    if (!o.device.empty() && std::find(s.devices.begin(), s.devices.end(), o.device) == s.devices.end()) s.devices.push_back(o.device);
  }
  return s;
}

std::string folded_label(const ObjectNode& node, const FoldSummary& s) {
  // Two lines: what it is, and what it holds (the device badge goes beside the second).
  std::string out = "\xe2\x96\xb8 " + type_word(node) + "\n";
  if (s.tensors) out += std::to_string(s.tensors) + (s.tensors == 1 ? " tensor" : " tensors");
  else out += "no tensors";
  if (s.bytes) out += ", " + size_text(s.bytes);
  return out;
}

ObjectGraph fold_graph(const ObjectGraph& g, const std::unordered_set<uint64_t>& folded, const std::vector<StorageInfo>* storages) {
  ObjectGraph out;
  out.modules = g.modules;
  out.holders = g.holders;
  out.nodes = g.nodes;
  if (folded.empty()) {
    out.edges = g.edges;
    return out;
  }
  const auto children = out_edges(g);
  const auto at = index_of(g);
  for (size_t i = 0; i < out.nodes.size(); ++i) {
    ObjectNode& n = out.nodes[i];
    if (!folded.count(n.id) || !foldable(g, i, children)) continue;
    const FoldSummary s = summarize(g, i, children, storages);
    n.label = folded_label(g.nodes[i], s);
    n.device = s.devices.size() == 1 ? s.devices[0] : s.devices.size() > 1 ? std::to_string(s.devices.size()) + " devices" : "";
    for (size_t r : reach(g, {i}, children, at)) n.changed = n.changed || g.nodes[r].changed;  // something inside changed
  }
  for (const ObjectEdge& e : g.edges)
    if (!folded.count(e.from)) out.edges.push_back(e);
  return out;
}

ObjectGraph limit_names(const ObjectGraph& g, size_t keep) {
  ObjectGraph out;
  out.modules = g.modules;
  out.holders = g.holders;
  std::unordered_set<uint64_t> dropped;
  size_t names = 0;
  for (const ObjectNode& n : g.nodes) {
    if (n.kind == ObjectKind::Name && names++ >= keep) {
      dropped.insert(n.id);
      continue;
    }
    out.nodes.push_back(n);
  }
  if (!dropped.empty()) {
    ObjectNode more;
    more.id = (uint64_t(1) << 61) | 1;  // not a Python id() (below 2**48) nor a name id (bit 62)
    more.kind = ObjectKind::Name;
    more.label = "+" + std::to_string(dropped.size()) + " more names";  // the view's search finds them
    out.nodes.push_back(more);
  }
  for (const ObjectEdge& e : g.edges)
    if (!dropped.count(e.from)) out.edges.push_back(e);
  return out;
}

FoldPlan plan_folds(const ObjectGraph& g, const std::vector<StorageInfo>* storages, const std::unordered_set<uint64_t>& user_folded,
                    const std::unordered_set<uint64_t>& keep_open, const std::function<GraphLayout(const ObjectGraph&)>& layout_of,
                    const std::function<bool(const GraphLayout&)>& fits) {
  FoldPlan p;
  for (uint64_t id : user_folded)
    if (!keep_open.count(id)) p.folded.insert(id);
  auto attempt = [&] {
    p.graph = fold_graph(g, p.folded, storages);
    if (p.names_kept != SIZE_MAX) p.graph = limit_names(p.graph, p.names_kept);
    p.layout = layout_of(p.graph);
    p.fits = fits(p.layout);
    return p.fits;
  };
  if (attempt()) return p;

  // Candidates, the ones that hide the most boxes first (counted on the whole graph: what only they reach).
  const auto children = out_edges(g);
  const auto at = index_of(g);
  const std::vector<size_t> names = names_of(g);
  const size_t all = reach(g, names, children, at).size();
  std::vector<std::pair<size_t, size_t>> order;  // (boxes hidden, node)
  const bool exact = g.nodes.size() <= 3000;     // the count is a pass over the graph per candidate
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!foldable(g, i, children) || keep_open.count(g.nodes[i].id) || p.folded.count(g.nodes[i].id)) continue;
    size_t hidden;
    if (exact) {
      const std::unordered_set<uint64_t> one = {g.nodes[i].id};
      hidden = all - reach(g, names, children, at, &one).size();
    } else {
      hidden = reach(g, {i}, children, at).size() - 1;
    }
    order.emplace_back(hidden, i);  // (hiding nothing, a fold still drops its arrows and maybe a column)
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [hidden, i] : order) {
    // Skip what an earlier fold already hid (folding it would change nothing on screen).
    const std::vector<size_t> shown = reach(g, names, children, at, &p.folded);
    if (std::find(shown.begin(), shown.end(), i) == shown.end()) continue;
    p.folded.insert(g.nodes[i].id);
    if (attempt()) return p;
  }
  // Still too big: fewer names (the rest in one "+N more names" box), as many as fit.
  size_t lo = 1, hi = names.size();
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    p.names_kept = mid;
    if (attempt()) lo = mid;
    else hi = mid - 1;
  }
  p.names_kept = lo < names.size() ? lo : SIZE_MAX;
  if (!attempt() && p.names_kept != SIZE_MAX) {
    // Too wide, not too tall: hiding names does not help; show them all (the view pans).
    p.names_kept = SIZE_MAX;
    attempt();
  }
  return p;
}

std::unordered_set<uint64_t> paths_to(const ObjectGraph& g, const std::function<bool(size_t node)>& match) {
  const auto at = index_of(g);
  std::vector<std::vector<size_t>> parents(g.nodes.size());
  for (const ObjectEdge& e : g.edges) {
    auto f = at.find(e.from), t = at.find(e.to);
    if (f != at.end() && t != at.end()) parents[t->second].push_back(f->second);
  }
  std::unordered_set<uint64_t> out;
  std::deque<size_t> queue;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (match(i)) queue.push_back(i), out.insert(g.nodes[i].id);
  while (!queue.empty()) {
    const size_t n = queue.front();
    queue.pop_front();
    for (size_t p : parents[n])
      if (out.insert(g.nodes[p].id).second) queue.push_back(p);
  }
  return out;
}

}  // namespace ds::gui

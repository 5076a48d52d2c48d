// FakeSession: script cursor (run / step / step back / reset), error reporting, and the picture it
// publishes (names graph, module tree, storage roles and owners) after every statement.
#include "gui/model/fake_session.h"

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/errors.h"
#include "gui/model/fake_eval.h"
#include "gui/model/fake_parser.h"

namespace ds::gui {

using fake::ModulePtr;
using fake::TensorPtr;
using fake::Value;
using fake::ValuePtr;
using Kind = Value::Kind;

namespace {

const char* error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::RuntimeError: return "RuntimeError";
    case ErrorKind::TypeError: return "TypeError";
    case ErrorKind::ValueError: return "ValueError";
    case ErrorKind::KeyError: return "KeyError";
    case ErrorKind::IndexError: return "IndexError";
    case ErrorKind::AttributeError: return "AttributeError";
    case ErrorKind::AssertionError: return "AssertionError";
    case ErrorKind::NotImplementedError: return "NotImplementedError";
    case ErrorKind::OutOfMemoryError: return "torch.OutOfMemoryError";
  }
  return "RuntimeError";
}

std::string shape_list(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string place_device(const TensorPtr& t) {
  const Place p = t->storage->place();
  return p.kind == MemoryKind::Device ? "cuda:" + std::to_string(p.device) : "cpu";
}

uint64_t name_node_id(const std::string& name) { return (std::hash<std::string>()(name) | (1ull << 63)); }

}  // namespace

FakeSession::FakeSession(BackendOptions backend) : backend_options_(std::move(backend)) { reset(); }

FakeSession::~FakeSession() {
  globals_.clear();  // storages die before the runtime they point into
}

std::unique_ptr<FakeSession> FakeSession::synthetic(const SyntheticOptions& options) {
  BackendOptions none;
  none.backend = "sim";
  none.sim_devices = 0;
  auto s = std::unique_ptr<FakeSession>(new FakeSession(none));
  s->synthetic_ = true;
  s->runtime_.reset();
  s->snapshot_ = std::make_shared<const Snapshot>(make_synthetic_snapshot(options));
  s->version_++;
  return s;
}

std::shared_ptr<const Snapshot> FakeSession::snapshot() { return snapshot_; }

std::string FakeSession::describe() const {
  if (synthetic_) return "synthetic benchmark picture";
  return "preview runner: a Python subset over the DeviceScope engine";
}

std::deque<Event> FakeSession::events() {
  if (!runtime_) return {};
  return runtime_->log().events();
}

int FakeSession::current_statement_line() const {
  return cursor_ < int(statements_.size()) ? statements_[size_t(cursor_)].first_line : 0;
}

void FakeSession::reset() {
  globals_.clear();
  cursor_ = 0;
  previous_nodes_.clear();
  if (synthetic_) return;
  RuntimeOptions o;
  o.backend = backend_options_;
  runtime_ = Runtime::create(o);
  publish();
}

void FakeSession::set_script(const std::string& code, bool appended_already_ran) {
  std::vector<Statement> next = split_statements(code);
  bool prefix_same = cursor_ <= int(next.size());
  for (int i = 0; prefix_same && i < cursor_; ++i) prefix_same = next[size_t(i)].text == statements_[size_t(i)].text;
  const bool was_at_end = cursor_ == int(statements_.size());
  script_ = code;
  statements_ = std::move(next);
  if (!prefix_same) {
    reset();
    return;
  }
  if (appended_already_ran && was_at_end) cursor_ = int(statements_.size());
}

RunOutcome FakeSession::run_statement(const std::string& text, int first_line, const std::string& file, bool quiet) {
  RunOutcome out;
  output_.clear();
  if (synthetic_) {
    out.ok = false;
    out.error_type = "RuntimeError";
    out.error_message = "this window shows a synthetic benchmark picture; it runs no code";
    out.traceback = out.error_type + ": " + out.error_message + "\n";
    return out;
  }
  try {
    const fake::Stmt st = fake::parse_statement(text);
    Eval{*this}.exec(st);
  } catch (const fake::PyError& e) {
    out.ok = false;
    out.error_type = e.type;
    out.error_message = e.what();
  } catch (const ds::Error& e) {
    out.ok = false;
    out.error_type = error_kind_name(e.kind());
    out.error_message = e.what();
  } catch (const std::exception& e) {
    out.ok = false;
    out.error_type = "RuntimeError";
    out.error_message = e.what();
  }
  pending_target_.clear();
  pending_module_path_.clear();
  runtime_->set_owner_hint("");
  runtime_->poll();
  out.output = output_;
  if (!out.ok) {
    out.interrupted = out.error_type == "KeyboardInterrupt";
    const std::string first = text.substr(0, text.find('\n'));
    size_t lead = first.find_first_not_of(" \t");
    out.traceback = "Traceback (most recent call last):\n  File \"" + file + "\", line " + std::to_string(first_line) +
                    ", in <module>\n    " + (lead == std::string::npos ? first : first.substr(lead)) + "\n" + out.error_type +
                    (out.error_message.empty() ? "" : ": " + out.error_message) + "\n";
    out.error_line = file == "<console>" ? 0 : first_line;
  }
  if (!quiet) publish();
  else tag_storages();  // owners are "first known": name them after every statement, drawn or not
  return out;
}

RunOutcome FakeSession::run_script() {
  interrupt_.store(false);
  reset();
  RunOutcome all;
  for (const Statement& st : statements_) {
    RunOutcome r = run_statement(st.text, st.first_line, "script.py", true);
    all.output += r.output;
    if (!r.ok) {
      all.ok = false;
      all.error_type = r.error_type;
      all.error_message = r.error_message;
      all.traceback = r.traceback;
      all.error_line = r.error_line;
      all.interrupted = r.interrupted;
      break;
    }
    ++cursor_;
  }
  publish();
  return all;
}

RunOutcome FakeSession::step() {
  interrupt_.store(false);
  if (cursor_ >= int(statements_.size())) return {};
  const Statement& st = statements_[size_t(cursor_)];
  RunOutcome r = run_statement(st.text, st.first_line, "script.py", false);
  if (r.ok) ++cursor_;
  return r;
}

RunOutcome FakeSession::step_back() {
  interrupt_.store(false);
  if (cursor_ == 0) return {};
  const int target = cursor_ - 1;
  auto before = previous_nodes_;  // highlight what differs from the state before stepping back
  reset();
  for (int i = 0; i < target; ++i) {
    const Statement& st = statements_[size_t(i)];
    run_statement(st.text, st.first_line, "script.py", true);
    ++cursor_;
  }
  previous_nodes_ = std::move(before);
  publish();
  return {};
}

RunOutcome FakeSession::run_line(const std::string& line) {
  interrupt_.store(false);
  return run_statement(line, 1, "<console>", false);
}

void FakeSession::tag_storages() {
  ObjectGraph scratch;
  build_objects(scratch, false);
}

void FakeSession::publish() {
  if (!runtime_) return;
  ObjectGraph graph;
  build_objects(graph, true);
  runtime_->set_object_graph(std::move(graph));
  snapshot_ = std::make_shared<const Snapshot>(runtime_->snapshot());
  version_++;
}

void FakeSession::build_objects(ObjectGraph& g, bool with_graph) {
  std::unordered_map<const void*, uint64_t> ids;     // object identity -> node id
  std::unordered_set<const void*> buffers;           // tensors registered as buffers somewhere
  std::unordered_map<const Storage*, int> role_rank;  // strongest role given so far
  std::map<uint64_t, std::string> signatures;

  // Roles and owners: module registries first (strongest), then names.
  auto tag = [&](const TensorPtr& t, Role role, int rank, const std::string& owner) {
    if (!t) return;
    Storage* st = t->storage.get();
    if (st->owner().empty()) st->set_owner(owner);
    auto it = role_rank.find(st);
    if (it != role_rank.end() && it->second >= rank) return;
    role_rank[st] = rank;
    st->set_role(role);
  };
  std::unordered_set<const fake::ModuleObj*> seen_modules;
  std::function<void(const ModulePtr&, const std::string&, int)> walk_module = [&](const ModulePtr& m, const std::string& path, int depth) {
    const bool first = seen_modules.insert(m.get()).second;
    g.modules.push_back({depth, path, m->type, ObjectKind::Module, "", "", {}, false, 0});
    if (!first) return;  // a module registered twice is listed once in full
    auto leaf = [&](const TensorPtr& t, const std::string& name, ObjectKind kind, const char* type) {
      if (!t) return;
      g.modules.push_back({depth + 1, path + "." + name, type, kind, place_device(t), dtype_name(t->dtype), t->shape, false, t->storage->id()});
    };
    for (auto& [n, p] : m->params) {
      tag(p, Role::Parameter, 3, path + "." + n);
      leaf(p, n, ObjectKind::Parameter, "Parameter");
    }
    for (auto& [n, b] : m->buffers) {
      if (b) buffers.insert(b.get());
      tag(b, Role::Buffer, 2, path + "." + n);
      leaf(b, n, ObjectKind::Buffer, "buffer");
    }
    for (auto& [n, a] : m->attrs)
      if (a->kind == Kind::Tensor) {
        tag(a->tensor, Role::PlainAttribute, 1, path + "." + n);
        leaf(a->tensor, n, ObjectKind::Tensor, "plain attribute");
      }
    for (auto& [n, c] : m->children) walk_module(c, path + "." + n, depth + 1);
  };
  std::unordered_set<const fake::ModuleObj*> roots;
  for (auto& [name, v] : globals_)
    if (v->kind == Kind::Module && roots.insert(v->module.get()).second) {
      const size_t first_row = g.modules.size();
      seen_modules.clear();
      walk_module(v->module, name, 0);
      // Stragglers: tensors not on the module's majority device (a plain attribute left behind).
      std::map<std::string, int> votes;
      for (size_t i = first_row; i < g.modules.size(); ++i)
        if (g.modules[i].kind != ObjectKind::Module) votes[g.modules[i].device]++;
      std::string majority;
      int best = -1;
      for (auto& [d, n] : votes)
        if (n > best || (n == best && d != "cpu")) majority = d, best = n;
      for (size_t i = first_row; i < g.modules.size(); ++i) {
        ModuleEntry& e = g.modules[i];
        if (e.kind != ObjectKind::Module && e.device != majority) e.straggler = true;
      }
      for (size_t i = first_row; i < g.modules.size(); ++i)
        if (g.modules[i].kind == ObjectKind::Module) g.modules[i].device = majority;
    }
  for (auto& [name, v] : globals_)
    if (v->kind == Kind::Tensor) tag(v->tensor, v->tensor->made_as, 0, name);
  if (!with_graph) return;

  // The object graph, Python Tutor style: names -> objects -> objects.
  Eval ev{*this};
  std::function<uint64_t(const ValuePtr&, ObjectKind)> add = [&](const ValuePtr& v, ObjectKind hint) -> uint64_t {
    const void* ident = v->identity();
    if (auto it = ids.find(ident); it != ids.end()) return it->second;
    const uint64_t id = uint64_t(reinterpret_cast<uintptr_t>(ident));
    ids[ident] = id;
    ObjectNode node;
    node.id = id;
    std::vector<std::pair<std::string, ValuePtr>> refs;
    switch (v->kind) {
      case Kind::Tensor: {
        const TensorPtr& t = v->tensor;
        node.kind = t->parameter ? ObjectKind::Parameter : buffers.count(t.get()) ? ObjectKind::Buffer : ObjectKind::Tensor;
        node.label = std::string(t->parameter ? "Parameter " : node.kind == ObjectKind::Buffer ? "buffer " : "tensor ") +
                     shape_list(t->shape) + " " + dtype_name(t->dtype);
        node.device = place_device(t) + (t->storage->place().kind == MemoryKind::Pinned ? " (pinned)" : "");
        node.storage_id = t->storage->id();
        break;
      }
      case Kind::Module: {
        const fake::ModuleObj& m = *v->module;
        node.kind = ObjectKind::Module;
        node.label = m.type;
        if (!m.cfg.empty()) {
          node.label += "(";
          for (size_t i = 0; i < m.cfg.size() && i < 3; ++i) node.label += (i ? ", " : "") + std::to_string(m.cfg[i]);
          node.label += ")";
        }
        for (auto& [n, p] : m.params)
          if (p) refs.emplace_back(n, Value::of(p));
        for (auto& [n, b] : m.buffers)
          if (b) refs.emplace_back(n, Value::of(b));
        for (auto& [n, a] : m.attrs) refs.emplace_back(n, a);
        for (auto& [n, c] : m.children) refs.emplace_back(n, Value::of(c));
        break;
      }
      case Kind::List:
      case Kind::Tuple:
        node.kind = v->kind == Kind::List ? ObjectKind::List : ObjectKind::Tuple;
        node.label = std::string(v->kind == Kind::List ? "list" : "tuple") + " (" + std::to_string(v->items.size()) + ")";
        for (size_t i = 0; i < v->items.size(); ++i) refs.emplace_back("[" + std::to_string(i) + "]", v->items[i]);
        break;
      default:
        node.kind = hint;
        node.label = ev.repr(v);
        break;
    }
    signatures[id] = node.label + "|" + node.device + "|" + std::to_string(node.storage_id);
    const size_t index = g.nodes.size();
    g.nodes.push_back(std::move(node));
    for (auto& [label, child] : refs) {
      const uint64_t to = add(child, ObjectKind::Other);
      g.edges.push_back({id, to, label});
    }
    (void)index;
    return id;
  };
  for (auto& [name, v] : globals_) {
    if (v->kind == Kind::Namespace || v->kind == Kind::Method) continue;
    ObjectNode n;
    n.id = name_node_id(name);
    n.kind = ObjectKind::Name;
    n.label = name;
    g.nodes.push_back(n);
    const uint64_t to = add(v, ObjectKind::Other);
    g.edges.push_back({n.id, to, ""});
    signatures[n.id] = "->" + std::to_string(to);
  }
  // Module devices for the graph (majority, as in the module tree).
  std::unordered_map<uint64_t, size_t> index_of;
  for (size_t i = 0; i < g.nodes.size(); ++i) index_of[g.nodes[i].id] = i;
  std::unordered_map<uint64_t, std::map<std::string, int>> votes;
  for (const ObjectEdge& e : g.edges) {
    const ObjectNode& to = g.nodes[index_of[e.to]];
    if (g.nodes[index_of[e.from]].kind == ObjectKind::Module && !to.device.empty())
      votes[e.from][to.device.substr(0, to.device.find(' '))]++;
  }
  for (ObjectNode& n : g.nodes) {
    if (n.kind != ObjectKind::Module) continue;
    int best = 0;
    for (auto& [d, k] : votes[n.id])
      if (k > best) n.device = d, best = k;
    signatures[n.id] += n.device;
  }
  for (ObjectNode& n : g.nodes) {
    auto it = previous_nodes_.find(n.id);
    n.changed = it == previous_nodes_.end() || it->second != signatures[n.id];
  }
  previous_nodes_ = std::move(signatures);
}

}  // namespace ds::gui

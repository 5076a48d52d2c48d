// Walking a module tree as module.py does: named_children/named_modules/_named_members (identity memo,
// remove_duplicate), state_dict order, apply/train, get_submodule/get_parameter/get_buffer and repr.
#include <sstream>

#include "core/errors.h"
#include "module/module.h"
#include "tensor/tensor_ops.h"

namespace ds {
namespace {

std::string join_name(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in(s);
  while (std::getline(in, line)) out.push_back(line);
  if (!s.empty() && s.back() == '\n') out.emplace_back();
  return out;
}

// module.py _addindent: indent every line but the first.
std::string add_indent(const std::string& s, int spaces) {
  const std::vector<std::string> lines = split_lines(s);
  if (lines.size() <= 1) return s;
  std::string out = lines[0];
  for (size_t i = 1; i < lines.size(); ++i) out += "\n" + std::string(size_t(spaces), ' ') + lines[i];
  return out;
}

}  // namespace

std::vector<NamedModule> Module::named_children() const {
  require_init("_modules");
  std::vector<NamedModule> out;
  std::unordered_set<const Module*> memo;
  for (const auto& [name, m] : modules_)
    if (m && memo.insert(m.get()).second) out.emplace_back(name, m);
  return out;
}

std::vector<ModulePtr> Module::children() const {
  std::vector<ModulePtr> out;
  for (auto& nm : named_children()) out.push_back(std::move(nm.second));
  return out;
}

void Module::named_modules_into(std::vector<NamedModule>& out, std::unordered_set<const Module*>& memo,
                                const std::string& prefix, bool remove_duplicate) const {
  if (memo.count(this)) return;
  if (remove_duplicate) memo.insert(this);
  out.emplace_back(prefix, self());
  require_init("_modules");
  for (const auto& [name, m] : modules_) {
    if (!m) continue;
    m->named_modules_into(out, memo, join_name(prefix, name), remove_duplicate);
  }
}

std::vector<NamedModule> Module::named_modules(const std::string& prefix, bool remove_duplicate) const {
  std::vector<NamedModule> out;
  std::unordered_set<const Module*> memo;
  named_modules_into(out, memo, prefix, remove_duplicate);
  return out;
}

std::vector<ModulePtr> Module::modules() const {
  std::vector<ModulePtr> out;
  for (auto& nm : named_modules()) out.push_back(std::move(nm.second));
  return out;
}

std::vector<NamedTensor> Module::named_members(bool buffers, const std::string& prefix, bool recurse,
                                               bool remove_duplicate) const {
  std::vector<NamedModule> mods;
  if (recurse)
    mods = named_modules(prefix, remove_duplicate);
  else
    mods.emplace_back(prefix, self());
  std::vector<NamedTensor> out;
  std::unordered_set<const TensorImpl*> memo;  // identity, like Python's set of tensors
  for (const auto& [module_prefix, m] : mods) {
    m->require_init(buffers ? "_buffers" : "_parameters");
    const OrderedDict<TensorPtr>& members = buffers ? m->buffers_ : m->parameters_;
    for (const auto& [k, v] : members) {
      if (!v || memo.count(v.get())) continue;
      if (remove_duplicate) memo.insert(v.get());
      out.emplace_back(join_name(module_prefix, k), v);
    }
  }
  return out;
}

std::vector<NamedTensor> Module::named_parameters(const std::string& prefix, bool recurse,
                                                  bool remove_duplicate) const {
  return named_members(false, prefix, recurse, remove_duplicate);
}

std::vector<TensorPtr> Module::parameters(bool recurse) const {
  std::vector<TensorPtr> out;
  for (auto& nt : named_parameters("", recurse)) out.push_back(std::move(nt.second));
  return out;
}

std::vector<NamedTensor> Module::named_buffers(const std::string& prefix, bool recurse,
                                               bool remove_duplicate) const {
  return named_members(true, prefix, recurse, remove_duplicate);
}

std::vector<TensorPtr> Module::buffers(bool recurse) const {
  std::vector<TensorPtr> out;
  for (auto& nt : named_buffers("", recurse)) out.push_back(std::move(nt.second));
  return out;
}

void Module::state_dict_into(std::vector<NamedTensor>* out, std::vector<std::string>* keys,
                             const std::string& prefix, bool keep_vars) const {
  // _save_to_state_dict: own parameters, own persistent buffers; then every child entry (not de-duplicated:
  // a module registered twice appears under both prefixes).
  require_init("_parameters");
  for (const auto& [name, p] : parameters_) {
    if (!p) continue;
    if (keys) keys->push_back(prefix + name);
    if (out) out->emplace_back(prefix + name, keep_vars ? p : detach(p));
  }
  for (const auto& [name, b] : buffers_) {
    if (!b || non_persistent_.count(name)) continue;
    if (keys) keys->push_back(prefix + name);
    if (out) out->emplace_back(prefix + name, keep_vars ? b : detach(b));
  }
  for (const auto& [name, m] : modules_)
    if (m) m->state_dict_into(out, keys, prefix + name + ".", keep_vars);
}

std::vector<std::string> Module::state_dict_keys(const std::string& prefix) const {
  std::vector<std::string> keys;
  state_dict_into(nullptr, &keys, prefix, false);
  return keys;
}

std::vector<NamedTensor> Module::state_dict(const std::string& prefix, bool keep_vars) const {
  std::vector<NamedTensor> out;
  state_dict_into(&out, nullptr, prefix, keep_vars);
  return out;
}

ModulePtr Module::apply(const std::function<void(Module&)>& fn) {
  for (auto& c : children()) c->apply(fn);
  fn(*this);
  return self();
}

ModulePtr Module::train(bool mode) {
  training_ = mode;  // `self.training = mode` works even before __init__; children() then fails
  training_deleted_ = false;
  for (auto& c : children()) c->train(mode);
  return self();
}

ModulePtr Module::requires_grad_(bool requires_grad) {
  for (auto& p : parameters()) p->requires_grad = requires_grad;
  return self();
}

void Module::zero_grad() {
  for (auto& p : parameters()) p->grad = nullptr;
}

ModulePtr Module::get_submodule(const std::string& target) const {
  if (target.empty()) return self();
  ModulePtr mod = self();
  size_t start = 0;
  while (true) {
    const size_t dot = target.find('.', start);
    const std::string item = target.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!mod->has_attr(item))
      raise(ErrorKind::AttributeError, mod->type_name() + " has no attribute `" + item + "`");
    const Value v = mod->get_attr(item);
    if (!v.is_module()) raise(ErrorKind::AttributeError, "`" + item + "` is not an nn.Module");
    mod = v.module();
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return mod;
}

TensorPtr Module::get_parameter(const std::string& target) const {
  const size_t dot = target.rfind('.');
  const std::string module_path = dot == std::string::npos ? "" : target.substr(0, dot);
  const std::string name = dot == std::string::npos ? target : target.substr(dot + 1);
  const ModulePtr mod = get_submodule(module_path);
  if (!mod->has_attr(name)) raise(ErrorKind::AttributeError, mod->type_name() + " has no attribute `" + name + "`");
  const Value v = mod->get_attr(name);
  if (!v.is_parameter()) raise(ErrorKind::AttributeError, "`" + name + "` is not an nn.Parameter");
  return v.tensor();
}

TensorPtr Module::get_buffer(const std::string& target) const {
  const size_t dot = target.rfind('.');
  const std::string module_path = dot == std::string::npos ? "" : target.substr(0, dot);
  const std::string name = dot == std::string::npos ? target : target.substr(dot + 1);
  const ModulePtr mod = get_submodule(module_path);
  if (!mod->has_attr(name)) raise(ErrorKind::AttributeError, mod->type_name() + " has no attribute `" + name + "`");
  const Value v = mod->get_attr(name);
  if (!mod->buffers_.contains(name)) raise(ErrorKind::AttributeError, "`" + name + "` is not a buffer");
  return v.tensor();
}

std::string Module::repr() const {
  std::vector<std::string> extra_lines;
  if (!extra_repr_.empty()) extra_lines = split_lines(extra_repr_);
  std::vector<std::string> child_lines;
  for (const auto& [key, m] : modules_)
    child_lines.push_back("(" + key + "): " + add_indent(m ? m->repr() : "None", 2));
  std::string out = type_name_ + "(";
  if (!extra_lines.empty() || !child_lines.empty()) {
    if (extra_lines.size() == 1 && child_lines.empty()) {
      out += extra_lines[0];
    } else {
      out += "\n  ";
      bool first = true;
      for (const auto* lines : {&extra_lines, &child_lines})
        for (const auto& l : *lines) {
          if (!first) out += "\n  ";
          out += l;
          first = false;
        }
      out += "\n";
    }
  }
  return out + ")";
}

}  // namespace ds

// One name per storage in a recording's export (Note [Names in exports] in export_names.h).
#include "trace/export_names.h"

#include <unordered_set>

namespace ds {
namespace {

// `name` is `tag` itself or `tag` with a qualifying head ("model.conv1.weight" for "conv1.weight").
bool names_tag(const std::string& name, const std::string& tag) {
  if (tag.empty()) return false;
  if (name == tag) return true;
  return name.size() > tag.size() && name.ends_with(tag) && name[name.size() - tag.size() - 1] == '.';
}

// Tags made whole by the live names: "conv1.weight" -> "model.conv1.weight" when exactly one live storage
// tagged "conv1.weight" is named so; a tag with several such names ("weight") stays as it is.
class Qualifier {
 public:
  void learn(const std::string& tag, const std::string& name) {
    if (tag.empty() || name == tag || !names_tag(name, tag)) return;
    auto [it, added] = names_.try_emplace(tag, name);
    if (!added && it->second != name) it->second.clear();  // ambiguous: several names end with this tag
  }

  // The tag qualified, or a qualified head of it ("conv1.weight.grad" through "conv1.weight"), else the tag.
  std::string operator()(const std::string& tag) const {
    if (const std::string* whole = find(tag)) return *whole;
    for (size_t i = tag.size(); i-- > 1;) {
      if (tag[i] != '.' && tag[i] != '[') continue;
      if (const std::string* head = find(tag.substr(0, i))) return *head + tag.substr(i);
    }
    return tag;
  }

 private:
  const std::string* find(const std::string& tag) const {
    auto it = names_.find(tag);
    return it == names_.end() || it->second.empty() ? nullptr : &it->second;
  }
  std::unordered_map<std::string, std::string> names_;
};

}  // namespace

std::string pick_owner_name(const std::string& tag, const std::vector<std::string>& holders) {
  if (!tag.empty()) {
    for (const std::string& h : holders)
      if (names_tag(h, tag)) return h;
    return tag;
  }
  return holders.empty() ? std::string() : holders.front();
}

std::unordered_map<uint64_t, std::string> export_storage_names(
    const std::vector<LiveStorageName>& live, const std::deque<Event>& events,
    const std::deque<TransferRecord>& transfers, const std::unordered_map<uint64_t, uint64_t>& gradient_of) {
  std::unordered_map<uint64_t, std::string> names, tags;
  std::vector<uint64_t> order;  // every storage the export mentions, first mention first
  std::unordered_set<uint64_t> seen;
  auto mention = [&](uint64_t id) {
    if (id && seen.insert(id).second) order.push_back(id);
  };
  for (const Event& e : events) {
    if (e.kind != EventKind::Alloc && e.kind != EventKind::Free) continue;
    mention(e.storage_id);
    if (!e.label.empty()) tags[e.storage_id] = e.label;  // the latest tag it had (a free's)
  }
  for (const TransferRecord& t : transfers) {
    mention(t.src_storage);
    mention(t.dst_storage);
  }

  // 1. Live storages, as the window and _dump_snapshot name them.
  Qualifier qualify;
  for (const LiveStorageName& l : live) {
    if (!l.tag.empty()) tags[l.id] = l.tag;
    std::string name = pick_owner_name(l.tag, l.holders);
    if (name.empty()) continue;
    qualify.learn(l.tag, name);
    names[l.id] = std::move(name);
  }

  // A copy's owner that a live end of it is named by qualifies that owner too: `Net().to(device)` moves
  // "conv1.weight" into the storage now named model.conv1.weight (its own tag is just "weight").
  for (const TransferRecord& t : transfers) {
    if (t.owner.empty()) continue;
    for (uint64_t end : {t.dst_storage, t.src_storage})
      if (auto n = names.find(end); n != names.end() && names_tag(n->second, t.owner)) qualify.learn(t.owner, n->second);
  }

  // The owners of the copies each storage took part in, qualified (the hints name what is being moved).
  std::unordered_map<uint64_t, std::vector<std::string>> copy_owners, written_by;
  for (const TransferRecord& t : transfers) {
    if (t.owner.empty()) continue;
    const std::string owner = qualify(t.owner);
    copy_owners[t.src_storage].push_back(owner);
    copy_owners[t.dst_storage].push_back(owner);
    written_by[t.dst_storage].push_back(owner);
  }

  // 2. to 4. The others: a copy owner that names their tag, their tag qualified, the parameter a gradient is
  // for, what a copy wrote into them. Parameters first, so their gradients can be named after them.
  for (uint64_t id : order) {
    if (names.count(id) || gradient_of.count(id)) continue;
    const auto tag_it = tags.find(id);
    const std::string tag = tag_it == tags.end() ? std::string() : tag_it->second;
    std::string name;
    if (auto c = copy_owners.find(id); c != copy_owners.end())
      for (const std::string& owner : c->second)
        if (names_tag(owner, tag)) {
          name = owner;
          break;
        }
    if (name.empty()) name = qualify(tag);
    if (name.empty())
      if (auto w = written_by.find(id); w != written_by.end()) name = w->second.front();
    if (!name.empty()) names[id] = std::move(name);
  }
  for (uint64_t id : order) {
    auto g = gradient_of.find(id);
    if (g == gradient_of.end() || names.count(id)) continue;
    if (auto p = names.find(g->second); p != names.end()) names[id] = p->second + ".grad";
  }
  return names;
}

void apply_export_names(const std::unordered_map<uint64_t, std::string>& names, std::deque<Event>& events,
                        std::deque<TransferRecord>& transfers) {
  auto name_of = [&](uint64_t id) -> const std::string* {
    auto it = names.find(id);
    return it == names.end() ? nullptr : &it->second;
  };
  std::unordered_map<uint64_t, const std::string*> copy_owner;  // transfer id -> its owner, as written
  for (TransferRecord& t : transfers) {
    const std::string* dst = name_of(t.dst_storage);
    const std::string* src = name_of(t.src_storage);
    if (t.owner.empty()) {
      if (dst) t.owner = *dst;
      else if (src) t.owner = *src;
    } else if (dst && names_tag(*dst, t.owner)) {
      t.owner = *dst;
    } else if (src && names_tag(*src, t.owner)) {
      t.owner = *src;
    }
    copy_owner[t.id] = &t.owner;
  }
  for (Event& e : events) {
    if (e.kind == EventKind::Alloc || e.kind == EventKind::Free) {
      if (const std::string* n = name_of(e.storage_id)) e.label = *n;
    } else if (e.kind == EventKind::Copy || e.kind == EventKind::CopyDone) {
      if (auto it = copy_owner.find(e.transfer_id); it != copy_owner.end()) e.label = *it->second;
    }
  }
}

}  // namespace ds

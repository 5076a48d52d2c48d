// publish_owner_names: owners -> Name nodes -> storage nodes.
#include "session/owner_names.h"

#include <map>
#include <string>
#include <vector>

#include "gui/view_state/size_text.h"

namespace ds::gui {
namespace {

ObjectKind kind_of(Role role) {
  if (role == Role::Parameter) return ObjectKind::Parameter;
  if (role == Role::Buffer) return ObjectKind::Buffer;
  return ObjectKind::Tensor;
}

// "<unnamed>", "<no frames>", "<C++ only: ...>": placeholders, not names a user wrote.
bool is_placeholder(const std::string& owner) { return owner.empty() || owner.front() == '<'; }

}  // namespace

void publish_owner_names(Snapshot& pic) {
  ObjectGraph g;
  std::map<std::string, std::vector<size_t>> by_owner;  // owner -> storages, names in order
  for (size_t i = 0; i < pic.storages.size(); ++i)
    if (!is_placeholder(pic.storages[i].owner)) by_owner[pic.storages[i].owner].push_back(i);
  uint64_t next_id = 1;
  for (auto& [owner, storages] : by_owner) {
    const uint64_t name_id = next_id++;
    g.nodes.push_back({name_id, ObjectKind::Name, owner, "", 0, false});
    for (size_t i : storages) {
      StorageInfo& s = pic.storages[i];
      s.holders = {owner};
      const uint64_t node = next_id++;
      g.nodes.push_back({node, kind_of(s.role), std::string(role_name(s.role)) + " " + s.place.str() + " " + size_text(s.nbytes),
                         s.place.str(), s.id, false});
      g.edges.push_back({name_id, node, ""});
      g.holders.push_back({s.id, {owner}});
    }
  }
  pic.objects = std::move(g);
}

}  // namespace ds::gui

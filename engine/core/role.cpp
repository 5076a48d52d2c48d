// Role spellings: lookups into kRoles (core/role.h).
#include "core/role.h"

namespace ds {
namespace {

const RoleNames* names_of(Role r) {
  const int i = int(r);
  return i >= 0 && i < int(std::size(kRoles)) ? &kRoles[i] : nullptr;
}

}  // namespace

const char* role_name(Role r) {
  const RoleNames* n = names_of(r);
  return n ? n->name : "unknown";
}

const char* role_python_name(Role r) {
  const RoleNames* n = names_of(r);
  return n ? n->python_name : "unknown";
}

const char* role_label(Role r) {
  const RoleNames* n = names_of(r);
  return n ? n->label : "?";
}

std::optional<Role> role_from_name(std::string_view text) {
  for (const RoleNames& n : kRoles)
    if (text == n.name || text == n.python_name) return n.role;
  return std::nullopt;
}

}  // namespace ds

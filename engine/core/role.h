// What a storage is for (decides its colour), and the role's three spellings, given once here:
// `name` in recordings and exports ("optimizer-state"), `python_name` in the torch package's hooks
// (_devicescope_hooks.tag(t, "optimizer_state", ...)), `label` in the legend ("optimizer state").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ds {

enum class Role : int8_t {
  Tensor,           // a plain tensor held by a name (or nothing known)
  Parameter,
  Buffer,
  Gradient,
  PlainAttribute,   // an unregistered tensor attribute of a module (the "does not move" trap)
  OptimizerState,
  Activation,       // op results / temporaries
  PinnedStaging,    // pinned buffers made by pin_memory / non_blocking D2H
  Workspace,        // library scratch the caching allocator hands out: cuBLAS / cuBLASLt workspaces
  AllocatorOnly,    // a block a real allocator snapshot holds that no recorded tensor claims (devicescope record)
};

struct RoleNames {
  Role role;
  const char* name;
  const char* python_name;
  const char* label;
};

// In enum order (kRoles[int(r)].role == r).
inline constexpr RoleNames kRoles[] = {
    {Role::Tensor, "tensor", "tensor", "tensor"},
    {Role::Parameter, "parameter", "parameter", "parameter"},
    {Role::Buffer, "buffer", "buffer", "buffer"},
    {Role::Gradient, "gradient", "gradient", "gradient"},
    {Role::PlainAttribute, "plain-attribute", "plain_attribute", "plain attribute"},
    {Role::OptimizerState, "optimizer-state", "optimizer_state", "optimizer state"},
    {Role::Activation, "activation", "activation", "activation"},
    // A user tensor in page-locked memory, not the driver's staging buffer: the legend says so.
    {Role::PinnedStaging, "pinned-staging", "pinned_staging", "pinned (page-locked) host"},
    // Held by a library, not by any tensor of the program (torch/cuda/_workspace.py): the legend says whose.
    {Role::Workspace, "workspace", "workspace", "library workspace (cuBLAS)"},
    // Merged into a recording from torch.cuda.memory._snapshot() (devicescope_recorder/allocator.py): bytes the
    // caching allocator handed out that no tensor the recorder saw owns (an extension's or a library's).
    {Role::AllocatorOnly, "allocator-only", "allocator_only", "allocator only (no tensor)"},
};
static_assert([] {
  for (int i = 0; i < int(std::size(kRoles)); ++i)
    if (int(kRoles[i].role) != i) return false;
  return true;
}(), "kRoles lists every Role in enum order");

const char* role_name(Role r);         // "optimizer-state"
const char* role_python_name(Role r);  // "optimizer_state"
const char* role_label(Role r);        // "optimizer state"
// The role spelled as role_name or role_python_name; nullopt for anything else.
std::optional<Role> role_from_name(std::string_view text);

}  // namespace ds

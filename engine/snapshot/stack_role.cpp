// stack_role: the "<devicescope ROLE>" frame DeviceScope's snapshot writer adds to each block's stack.
#include "snapshot/stack_role.h"

#include <string>
#include <string_view>

namespace ds::snapshot {

std::optional<Role> stack_role(const MemorySnapshot& s, StackId stack) {
  constexpr std::string_view kPrefix = "<devicescope ";
  for (size_t i = 0; i < s.stack_size(stack); ++i) {
    const std::string& file = s.strings[s.stack_frame(stack, i).filename];
    if (!file.starts_with(kPrefix) || file.back() != '>') continue;
    if (std::optional<Role> role = role_from_name(std::string_view(file).substr(kPrefix.size(), file.size() - kPrefix.size() - 1)))
      return role;
  }
  return std::nullopt;
}

}  // namespace ds::snapshot

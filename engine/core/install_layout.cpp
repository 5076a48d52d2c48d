// installed_data_dir: the executable's own folder, not PATH or the current directory, decides (an installed
// binary must work from any folder; a build-tree binary must not pick up an unrelated installed copy).
#include "core/install_layout.h"

#include <filesystem>
#include <system_error>

namespace ds {

std::string installed_data_dir(const std::string& relative) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path dir = exe.parent_path().parent_path() / "share" / "devicescope";
  return fs::exists(dir / relative, ec) ? dir.string() : "";
}

}  // namespace ds

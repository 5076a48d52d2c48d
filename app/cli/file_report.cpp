#include "cli/file_report.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "snapshot/memory_snapshot.h"

namespace ds::cli {

bool starts_like_pickle(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;  // the loaders say why
  std::ifstream in(path, std::ios::binary);
  char head[64] = {};  // enough for looks_like_pickle's zip and protocol-0 GLOBAL checks
  in.read(head, sizeof head);
  return snapshot::looks_like_pickle(std::string_view(head, size_t(in.gcount())));
}

void check_readable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw CannotOpen("cannot open '" + path + "': " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw CannotOpen("cannot open '" + path + "': Is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CannotOpen("cannot open '" + path + "': " + std::strerror(errno));
}

int print_report(const std::string& command, const std::string& what, bool as_json,
                 const std::function<nlohmann::json()>& make,
                 const std::function<void(const nlohmann::json&)>& print_text) {
  nlohmann::json report;
  try {
    report = make();
  } catch (const CannotOpen& e) {
    std::cerr << "devicescope " << command << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "devicescope " << command << ": refused " << what << (what.empty() ? "" : ": ") << e.what() << "\n";
    return 2;
  }
  if (as_json) std::cout << report.dump(2) << "\n";
  else print_text(report);
  return 0;
}

}  // namespace ds::cli

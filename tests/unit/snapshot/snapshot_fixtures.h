// The fixture snapshots of tests/snapshot/make_fixtures.py, generated once per test binary into a
// temporary folder with Debian's /usr/bin/python3 (plain pickle, no torch).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace snapshot_test {

inline std::string fixture_dir() {
  static const std::string dir = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "ds_snapshot_fixtures_XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) std::abort();
    const std::string script =
        (std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "snapshot" / "make_fixtures.py").string();
    const std::string cmd = "/usr/bin/python3 '" + script + "' '" + tmpl + "'";
    if (std::system(cmd.c_str()) != 0) std::abort();
    return tmpl;
  }();
  return dir;
}

inline std::string fixture(const std::string& name) { return fixture_dir() + "/" + name; }

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace snapshot_test

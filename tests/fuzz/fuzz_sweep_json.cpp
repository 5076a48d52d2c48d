// Fuzzes load_sweep_json (bench results opened in the app's Bench view). It takes a path, so each input
// goes through an in-memory file (memfd). Only ds::Error may come out; an accepted file must survive
// write_sweep_json -> load -> write unchanged.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "sweep/sweep_io.h"
#include "fuzz_common.h"

namespace {

// One memfd for the whole run, rewritten for each input.
const std::string& scratch_path() {
  static const std::string path = [] {
    const int fd = memfd_create("fuzz_sweep_json", 0);
    if (fd < 0) ds_fuzz::finding("memfd_create failed");
    return "/proc/self/fd/" + std::to_string(fd);
  }();
  return path;
}

void put(const std::string& path, const void* data, size_t size) {
  const int fd = std::stoi(path.substr(path.rfind('/') + 1));
  if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != ssize_t(size))) ds_fuzz::finding("memfd write failed");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = scratch_path();
  put(path, data, size);
  ds::SweepResult r;
  if (!ds_fuzz::parses("load_sweep_json", [&] { r = ds::load_sweep_json(path); })) return 0;
  std::ostringstream first;
  ds::write_sweep_json(r, first);
  const std::string a = first.str();
  put(path, a.data(), a.size());
  ds::SweepResult back;
  if (!ds_fuzz::parses("load_sweep_json (round trip)", [&] { back = ds::load_sweep_json(path); }))
    ds_fuzz::finding("a bench file the loader accepted was written back as a file it refuses:\n" + a);
  std::ostringstream second;
  ds::write_sweep_json(back, second);
  if (second.str() != a) ds_fuzz::finding("write -> load -> write of an accepted bench file changed it");
  return 0;
}

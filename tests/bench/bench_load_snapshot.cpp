// Loading a PyTorch memory snapshot: a generated 2.x snapshot with N trace entries (default 1,000,000;
// `bench_load_snapshot N`), written by tests/snapshot/make_fixtures.py --large with Debian's python3.
// Prints, against a baseline measured in the same run on the same file (reading it with read(2)):
// the unpickle and convert times, bytes per second, and peak RSS over the file size (issue 16's target
// is a 1 GB / 5M-entry snapshot in <= 10 s at <= 2x the file size). Figures only: no time is asserted.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "snapshot/memory_snapshot.h"
#include "snapshot/snapshot_summary.h"

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

uint64_t current_rss() {  // resident bytes now (VmRSS)
  FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long pages = 0, resident = 0;
  if (f) {
    if (std::fscanf(f, "%lu %lu", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return uint64_t(resident) * uint64_t(sysconf(_SC_PAGESIZE));
}

uint64_t peak_rss() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return uint64_t(ru.ru_maxrss) * 1024;
}

double read_only_seconds(const std::string& path) {
  const double t0 = now_s();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  std::vector<char> buf(1 << 20);
  while (::read(fd, buf.data(), buf.size()) > 0) {
  }
  ::close(fd);
  return now_s() - t0;
}

}  // namespace

int main(int argc, char** argv) {
  const long entries = argc > 1 ? std::atol(argv[1]) : 1000000;
  const std::string path = (std::filesystem::temp_directory_path() / ("ds_bench_snapshot_" + std::to_string(entries) + ".pickle")).string();
  const std::string script = (std::filesystem::path(__FILE__).parent_path() / ".." / "snapshot" / "make_fixtures.py").string();
  if (!std::filesystem::exists(path)) {
    std::printf("generating %ld trace entries with %s ...\n", entries, script.c_str());
    const std::string cmd = "/usr/bin/python3 '" + script + "' --large " + std::to_string(entries) + " '" + path + ".tmp' && mv '" + path + ".tmp' '" + path + "'";
    if (std::system(cmd.c_str()) != 0) {
      std::fprintf(stderr, "generating the snapshot failed\n");
      return 1;
    }
  }
  const double size = double(std::filesystem::file_size(path));
  const double mib = size / double(1 << 20);
  read_only_seconds(path);  // warm the page cache so both measurements read from memory
  const double t_read = read_only_seconds(path);
  const uint64_t rss_before = current_rss();

  // The load as the app does it (trace entries converted while reading, the rest of the tree released),
  // then, for comparison, the generic tree alone (no streaming). Peak RSS is read after each.
  double t0 = now_s();
  const ds::snapshot::MemorySnapshot s = ds::snapshot::load_memory_snapshot(path);
  const double t_load = now_s() - t0;
  const uint64_t rss_peak = peak_rss();
  t0 = now_s();
  uint64_t values = 0;
  {
    const ds::snapshot::PickleDocument doc = ds::snapshot::read_pickle_file(path);
    values = doc.value_count();
  }
  const double t_pickle = now_s() - t0;
  const uint64_t rss_peak_tree = peak_rss();
  const uint64_t rss_after = current_rss();
  const double t1 = now_s();
  const ds::snapshot::SnapshotSummary sum = ds::snapshot::summarize_snapshot(s);
  const double t_summary = now_s() - t1;

  std::printf("file: %s, %.1f MiB, %zu trace entries, %llu pickle values\n", path.c_str(), mib,
              s.device_traces.empty() ? size_t(0) : s.device_traces[0].size(), (unsigned long long)values);
  std::printf("baseline read(2) of the file:      %8.3f s  %8.1f MiB/s\n", t_read, mib / t_read);
  std::printf("generic tree alone (no streaming):  %8.3f s  %8.1f MiB/s  (%.1fx the baseline)\n", t_pickle, mib / t_pickle, t_pickle / t_read);
  std::printf("load (streamed unpickle + convert): %8.3f s  %8.1f MiB/s  (%.1fx the baseline)\n", t_load, mib / t_load, t_load / t_read);
  std::printf("summary (replay + owners):         %8.3f s\n", t_summary);
  std::printf("peak RSS during load:              %8.1f MiB = %.2fx the file (before load %.1f MiB)\n",
              double(rss_peak) / (1 << 20), double(rss_peak) / size, double(rss_before) / (1 << 20));
  std::printf("peak RSS of the generic tree alone: %8.1f MiB = %.2fx the file\n", double(rss_peak_tree) / (1 << 20), double(rss_peak_tree) / size);
  std::printf("RSS at the end (trees released):   %8.1f MiB = %.2fx the file\n", double(rss_after) / (1 << 20), double(rss_after) / size);
  std::printf("per entry: %.0f ns load; peak allocated %llu bytes\n", t_load * 1e9 / double(std::max<uint64_t>(1, sum.trace_entries)),
              sum.devices.empty() ? 0ull : (unsigned long long)sum.devices[0].peak_allocated);
  return 0;
}

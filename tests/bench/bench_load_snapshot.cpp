// Loading a PyTorch memory snapshot: issue 16's target is a 1 GB snapshot with 5 million trace entries
// opened in <= 10 s at a peak RSS <= 2x the file size. The file is generated once (cached in the temp
// directory) by tests/snapshot/make_fixtures.py with Debian's python3:
//   bench_load_snapshot                      5,000,000 entries shaped like a real run (--large-real: each
//                                            entry its own frames list of 16-40 shared frames; ~1 GB)
//   bench_load_snapshot --entries N          the same with N entries (a scaled run: 500000 is ~100 MB)
//   bench_load_snapshot --simple             entries sharing 64 frame lists (--large; 5M entries: ~370 MB)
//   bench_load_snapshot --tree               also time the generic pickle tree alone (no streaming; it
//                                            needs several times the file in memory: not for 1 GB)
// Prints, against a baseline measured in the same run on the same file (reading it with read(2)): the
// load time and MiB/s, the ratio to the baseline, and peak RSS (getrusage) over the file size. Figures
// only: no time is asserted.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
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

// CPU seconds this process used (user + system): on a shared, loaded machine the wall time also counts
// time spent waiting for a core; this does not.
double cpu_seconds() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
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
  long entries = 5000000;
  bool simple = false, tree = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--entries" && i + 1 < argc) entries = std::atol(argv[++i]);
    else if (a == "--simple") simple = true;
    else if (a == "--tree") tree = true;
    else if (std::atol(a.c_str()) > 0) entries = std::atol(a.c_str());  // the old positional form
    else {
      std::fprintf(stderr, "usage: bench_load_snapshot [--entries N] [--simple] [--tree]\n");
      return 2;
    }
  }
  const std::string shape = simple ? "" : "real_";
  const std::string path = (std::filesystem::temp_directory_path() / ("ds_bench_snapshot_" + shape + std::to_string(entries) + ".pickle")).string();
  const std::string script = (std::filesystem::path(__FILE__).parent_path() / ".." / "snapshot" / "make_fixtures.py").string();
  if (!std::filesystem::exists(path)) {
    std::printf("generating %ld trace entries with %s ...\n", entries, script.c_str());
    std::fflush(stdout);
    const std::string cmd = "/usr/bin/python3 '" + script + "' " + (simple ? "--large " : "--large-real ") +
                            std::to_string(entries) + " '" + path + ".tmp' && mv '" + path + ".tmp' '" + path + "'";
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

  // The load as the app does it (trace entries converted while reading, the rest of the tree released).
  // Peak RSS is read right after it, before anything else can raise it.
  double t0 = now_s();
  const double cpu0 = cpu_seconds();
  ds::LoadProgress progress;
  const ds::snapshot::MemorySnapshot s = ds::snapshot::load_memory_snapshot(path, &progress);
  const double t_load = now_s() - t0;
  const double cpu_load = cpu_seconds() - cpu0;
  const uint64_t rss_peak = peak_rss();
  const uint64_t rss_loaded = current_rss();
  const double t1 = now_s();
  const ds::snapshot::SnapshotSummary sum = ds::snapshot::summarize_snapshot(s);
  const double t_summary = now_s() - t1;

  std::printf("file: %s, %.1f MiB (%.2f GB), %zu trace entries, %zu distinct stacks, %zu distinct frames\n", path.c_str(), mib,
              size / 1e9, s.device_traces.empty() ? size_t(0) : s.device_traces[0].size(), s.stack_begin.size() - 1, s.frames.size());
  std::printf("baseline read(2) of the file:       %8.3f s  %8.1f MiB/s\n", t_read, mib / t_read);
  std::printf("load (streamed unpickle + convert): %8.3f s  %8.1f MiB/s  (%.1fx the baseline; progress %.2f)\n", t_load, mib / t_load,
              t_load / t_read, progress.fraction());
  std::printf("  CPU time of the load:             %8.3f s  (the wall time above also counts waiting for a core)\n", cpu_load);
  std::printf("summary (replay + owners):          %8.3f s\n", t_summary);
  std::printf("peak RSS during load:               %8.1f MiB = %.2fx the file (before load %.1f MiB)\n",
              double(rss_peak) / (1 << 20), double(rss_peak) / size, double(rss_before) / (1 << 20));
  std::printf("RSS holding the loaded snapshot:    %8.1f MiB = %.2fx the file\n", double(rss_loaded) / (1 << 20), double(rss_loaded) / size);
  std::printf("per entry: %.0f ns load; peak allocated %llu bytes\n", t_load * 1e9 / double(std::max<uint64_t>(1, sum.trace_entries)),
              sum.devices.empty() ? 0ull : (unsigned long long)sum.devices[0].peak_allocated);
  if (tree) {
    t0 = now_s();
    uint64_t values = 0;
    {
      const ds::snapshot::PickleDocument doc = ds::snapshot::read_pickle_file(path);
      values = doc.value_count();
    }
    const double t_pickle = now_s() - t0;
    std::printf("generic tree alone (no streaming):  %8.3f s  %8.1f MiB/s  (%.1fx the baseline; %llu values; peak RSS now %.2fx the file)\n",
                t_pickle, mib / t_pickle, t_pickle / t_read, (unsigned long long)values, double(peak_rss()) / size);
  }
  return 0;
}

// Loading recordings: load_transfers_csv and load_trace on 1M- and 5M-row transfers CSVs (and a 1M-transfer
// Chrome trace), per row, against a baseline measured in the same run on the same file: reading it and
// counting its lines (what any loader must at least do). Loading must be linear: the per-row cost at 5M
// rows is printed beside the one at 1M. Prints figures; not a timed test.
// Usage: bench_load_recording [ROWS...]   (default 1000000 5000000; files go to $TMPDIR or /tmp)
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include "trace/atomic_file.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_csv.h"
#include "trace/load_trace.h"

using namespace ds;

namespace {

// Process CPU time (a shared machine's wall time measures its neighbours too); wall time beside it.
double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + ts.tv_nsec * 1e-9;
}
struct Stopwatch {
  std::chrono::steady_clock::time_point wall0 = std::chrono::steady_clock::now();
  double cpu0 = cpu_now();
  double cpu() const { return cpu_now() - cpu0; }
  double wall() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count(); }
};

TransferRecord make_transfer(uint64_t i) {
  TransferRecord t;
  t.id = i + 1;
  t.src = i % 3 == 0 ? Place::cuda(int(i % 2)) : Place::pinned();
  t.dst = i % 3 == 0 ? Place::pageable() : Place::cuda(int(i % 2));
  t.bytes = 4096 << (i % 8);
  t.route = i % 5 == 0 ? Route::StagedPinned : Route::Direct;
  t.non_blocking = t.async = i % 2 == 0;
  t.enqueue_ns = 1000 * i;
  t.start_ns = 1000 * i + 10;
  t.end_ns = 1000 * i + 900;
  t.measured_ns = 812.25 + double(i % 100);
  t.simulated = true;
  t.complete = true;
  t.src_storage = 2 * i + 1;
  t.dst_storage = 2 * i + 2;
  t.owner = "model.layers." + std::to_string(i % 96) + (i % 7 == 0 ? ".mlp, \"up\"" : ".attn.weight");
  return t;
}

// The CSV is written in slices of 100k rows (never the whole recording in memory).
void write_csv(const std::string& path, uint64_t rows) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << kTransfersCsvHeader << '\n';
    for (uint64_t first = 0; first < rows; first += 100000) {
      std::deque<TransferRecord> slice;
      for (uint64_t i = first; i < std::min(rows, first + 100000); ++i) slice.push_back(make_transfer(i));
      std::ostringstream text;
      write_transfers_csv(slice, text);
      const std::string s = text.str();
      out.write(s.data() + s.find('\n') + 1, std::streamsize(s.size() - s.find('\n') - 1));  // minus the header
    }
  });
}

// Baseline: read the file with read(2) and count its lines.
uint64_t count_lines(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  std::vector<char> buf(1 << 20);
  uint64_t lines = 0;
  for (ssize_t n; (n = ::read(fd, buf.data(), buf.size())) > 0;)
    for (const char* p = buf.data(); (p = static_cast<const char*>(std::memchr(p, '\n', size_t(buf.data() + n - p))));
         ++p)
      ++lines;
  ::close(fd);
  return lines;
}

struct Figures {
  double load_ns_per_row, base_ns_per_row;
};

template <typename Load>
Figures measure(const char* what, const std::string& path, uint64_t rows, Load load) {
  Stopwatch base;
  const uint64_t lines = count_lines(path);
  const double base_cpu = base.cpu(), base_wall = base.wall();
  Stopwatch sw;
  const size_t loaded = load();
  const double cpu = sw.cpu(), wall = sw.wall();
  if (loaded != rows || lines < rows) {
    std::fprintf(stderr, "%s: loaded %zu of %llu rows\n", what, loaded, (unsigned long long)rows);
    std::exit(1);
  }
  const Figures f{cpu * 1e9 / double(rows), base_cpu * 1e9 / double(rows)};
  std::printf("%-34s %9llu rows: load %6.2f s cpu (%5.2f s wall) = %6.0f ns/row; baseline (read + count lines) "
              "%5.0f ns/row; load/baseline %5.1fx\n",
              what, (unsigned long long)rows, cpu, wall, f.load_ns_per_row, f.base_ns_per_row,
              f.load_ns_per_row / std::max(f.base_ns_per_row, 1e-9));
  (void)base_wall;
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<uint64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {1000000, 5000000};
  const char* tmp = std::getenv("TMPDIR");
  const std::string dir = tmp && *tmp ? tmp : "/tmp";
  const std::string csv = dir + "/bench_load_recording." + std::to_string(::getpid()) + ".csv";
  const std::string json = dir + "/bench_load_recording." + std::to_string(::getpid()) + ".json";

  std::vector<Figures> per_size;
  for (uint64_t rows : sizes) {
    write_csv(csv, rows);
    per_size.push_back(measure("load_transfers_csv", csv, rows, [&] { return load_transfers_csv(csv).size(); }));
    measure("load_trace (CSV)", csv, rows, [&] { return load_trace(csv).transfers.size(); });
    ::unlink(csv.c_str());
  }
  if (per_size.size() >= 2)
    std::printf("linearity: per-row CSV load cost at %llu rows / at %llu rows = %.2f (1.0 = linear)\n",
                (unsigned long long)sizes.back(), (unsigned long long)sizes.front(),
                per_size.back().load_ns_per_row / per_size.front().load_ns_per_row);

  // A Chrome trace of the first size (about 600 bytes per transfer).
  {
    const uint64_t rows = sizes.front();
    std::deque<TransferRecord> transfers;
    for (uint64_t i = 0; i < rows; ++i) transfers.push_back(make_transfer(i));
    write_file_atomically(json, [&](std::ostream& out) {
      write_chrome_trace({}, transfers, TraceMeta{"sim", true, "pcie4-x16", "bench", "bench"}, out);
    });
    transfers.clear();
    measure("load_trace (Chrome trace)", json, rows, [&] { return load_trace(json).transfers.size(); });
    ::unlink(json.c_str());
  }
  return 0;
}

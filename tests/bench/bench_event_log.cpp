// Cost of recording (EventLog append / add_transfer / completion, against a bare deque push) and of
// exporting and loading a million transfers. Prints figures; not a timed test.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <deque>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "trace/atomic_file.h"
#include "trace/event_log.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_csv.h"
#include "trace/load_trace.h"

using Clock = std::chrono::steady_clock;
using namespace ds;

namespace {

// Process CPU time: the machines this runs on are often shared, and wall time then mostly measures
// the neighbours. Both are printed for the exports.
double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + ts.tv_nsec * 1e-9;
}
struct Stopwatch {
  Clock::time_point wall0 = Clock::now();
  double cpu0 = cpu_now();
  double cpu() const { return cpu_now() - cpu0; }
  double wall() const { return std::chrono::duration<double>(Clock::now() - wall0).count(); }
};

// Counts bytes and throws them away: export cost without the disk.
class NullBuf : public std::streambuf {
 public:
  size_t bytes = 0;

 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes += size_t(n);
    return n;
  }
  int_type overflow(int_type c) override {
    ++bytes;
    return traits_type::not_eof(c);
  }
};

std::vector<std::string> owner_names(size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.push_back("model.layers." + std::to_string(i / 4) + ".attn.proj.weight");
  return names;
}

TransferRecord make_transfer(size_t i, const std::string& owner) {
  TransferRecord t;
  t.src = i % 3 == 2 ? Place::cuda(0) : Place::pinned();
  t.dst = i % 3 == 2 ? Place::pinned() : Place::cuda(int(i % 2));
  t.stream_device = t.dst.is_host() ? 0 : t.dst.device;
  t.bytes = 4096 + (i % 64) * 65536;
  t.non_blocking = t.async = i % 2 == 0;
  t.enqueue_ns = 1000 * i;
  t.start_ns = 1000 * i + 100;
  t.end_ns = 1000 * i + 100 + t.bytes / 25;
  t.measured_ns = double(t.bytes) / 11.5;
  t.simulated = true;
  t.complete = true;
  t.src_storage = 2 * i + 1;
  t.dst_storage = 2 * i + 2;
  t.owner = owner;
  return t;
}

}  // namespace

int main() {
  constexpr size_t kN = 1'000'000;
  const auto names = owner_names(kN);
  std::printf("bench_event_log: %zu operations each; per-operation figures are CPU ns\n\n", kN);

  {  // Warm-up, so the first measurement does not also pay for the allocator's first page faults.
    std::deque<Event> warm(kN);
    std::deque<TransferRecord> warm_t(kN);
  }
  // Baseline: a bare deque push of the same Event, no sequence numbers, no log.
  Event proto;
  proto.kind = EventKind::Alloc;
  proto.place = Place::cuda(0);
  proto.bytes = 4096;
  double base_event_ns;
  {
    std::deque<Event> d;
    Stopwatch t0;
    for (size_t i = 0; i < kN; ++i) {
      Event e = proto;
      e.time_ns = i;
      e.label = names[i];
      d.push_back(std::move(e));
    }
    base_event_ns = t0.cpu() * 1e9 / kN;
  }
  double append_ns;
  {
    EventLog log;
    Stopwatch t0;
    for (size_t i = 0; i < kN; ++i) {
      Event e = proto;
      e.time_ns = i;
      e.label = names[i];
      log.append(std::move(e));
    }
    append_ns = t0.cpu() * 1e9 / kN;
  }
  double disabled_ns;
  {
    EventLog log;
    log.set_enabled(false);
    Stopwatch t0;
    for (size_t i = 0; i < kN; ++i) {
      Event e = proto;
      e.time_ns = i;
      e.label = names[i];
      log.append(std::move(e));
    }
    disabled_ns = t0.cpu() * 1e9 / kN;
  }
  std::printf("baseline deque<Event>::push_back   %7.1f ns\n", base_event_ns);
  std::printf("EventLog::append                   %7.1f ns   (x%.2f baseline)\n", append_ns, append_ns / base_event_ns);
  std::printf("EventLog::append, log disabled     %7.1f ns\n\n", disabled_ns);

  // Transfers: blocking (complete when added) and non-blocking (completed by ticket later).
  double base_transfer_ns, add_ns, async_ns;
  {
    std::deque<TransferRecord> d;
    Stopwatch t0;
    for (size_t i = 0; i < kN; ++i) d.push_back(make_transfer(i, names[i]));
    base_transfer_ns = t0.cpu() * 1e9 / kN;
  }
  EventLog big;
  {
    Stopwatch t0;
    for (size_t i = 0; i < kN; ++i) big.add_transfer(make_transfer(i, names[i]));
    add_ns = t0.cpu() * 1e9 / kN;
  }
  {
    EventLog log;
    Stopwatch t0;
    for (size_t i = 0; i < kN; ++i) {
      TransferRecord t = make_transfer(i, names[i]);
      t.complete = false;
      t.backend_ticket = i + 1;
      log.add_transfer(std::move(t));
      if (i >= 8) log.complete_transfer(i - 7, 1000 * i, 1000 * i + 500, 480.0);  // 8 copies in flight
    }
    async_ns = t0.cpu() * 1e9 / kN;
  }
  std::printf("baseline deque<TransferRecord> push %7.1f ns\n", base_transfer_ns);
  std::printf("EventLog::add_transfer (blocking)   %7.1f ns   (x%.2f baseline)\n", add_ns, add_ns / base_transfer_ns);
  std::printf("add_transfer + complete_transfer    %7.1f ns\n", async_ns);

  // What one tensor of a module move costs the log: alloc on the destination, the copy, free of the source.
  double per_tensor_ns;
  {
    EventLog log;
    Stopwatch t0;
    for (size_t i = 0; i < kN; ++i) {
      Event a = proto;
      a.label = names[i];
      log.append(std::move(a));
      log.add_transfer(make_transfer(i, names[i]));
      Event f = proto;
      f.kind = EventKind::Free;
      f.place = Place::pageable();
      log.append(std::move(f));
    }
    per_tensor_ns = t0.cpu() * 1e9 / kN;
  }
  std::printf("per tensor of a module move         %7.1f ns   (budget 2000 ns: %.1f%% of it)\n\n", per_tensor_ns,
              per_tensor_ns / 20.0);

  // Exports of the million blocking transfers (with their million Copy events).
  const TraceMeta meta{"sim", true, "pcie4-x16", "bench", "bench machine"};
  {
    NullBuf nb;
    std::ostream os(&nb);
    Stopwatch t0;
    write_transfers_csv(big.transfers(), os);
    const double s = t0.cpu();
    std::printf("CSV export, 1e6 transfers (memory)  %6.2f s cpu (%5.2f s wall)  %7.1f MB  %6.0f MB/s\n", s,
                t0.wall(), nb.bytes / 1e6, nb.bytes / 1e6 / s);
  }
  {
    NullBuf nb;
    std::ostream os(&nb);
    Stopwatch t0;
    write_chrome_trace(big.events(), big.transfers(), meta, os);
    const double s = t0.cpu();
    std::printf("Chrome trace export (memory)        %6.2f s cpu (%5.2f s wall)  %7.1f MB  %6.0f MB/s\n", s,
                t0.wall(), nb.bytes / 1e6, nb.bytes / 1e6 / s);
  }
  const std::string dir = "/tmp/ds_bench_event_log." + std::to_string(::getpid());
  ::mkdir(dir.c_str(), 0755);
  const std::string json_path = dir + "/trace.json", csv_path = dir + "/transfers.csv";
  {
    Stopwatch t0;
    write_file_atomically(json_path, [&](std::ostream& os) { write_chrome_trace(big.events(), big.transfers(), meta, os); });
    std::printf("Chrome trace export to file (fsync) %6.2f s cpu (%5.2f s wall)\n", t0.cpu(), t0.wall());
    t0 = Stopwatch();
    write_file_atomically(csv_path, [&](std::ostream& os) { write_transfers_csv(big.transfers(), os); });
    std::printf("CSV export to file (fsync)          %6.2f s cpu (%5.2f s wall)\n", t0.cpu(), t0.wall());
  }
  {
    Stopwatch t0;
    LoadedTrace t = load_trace(json_path);
    std::printf("load_trace, Chrome trace            %6.2f s cpu (%5.2f s wall)  %zu transfers, %zu events\n",
                t0.cpu(), t0.wall(), t.transfers.size(), t.events.size());
    t0 = Stopwatch();
    auto csv = load_transfers_csv(csv_path);
    std::printf("load_transfers_csv                  %6.2f s cpu (%5.2f s wall)  %zu transfers\n", t0.cpu(),
                t0.wall(), csv.size());
  }
  ::unlink(json_path.c_str());
  ::unlink(csv_path.c_str());
  ::rmdir(dir.c_str());
  return 0;
}

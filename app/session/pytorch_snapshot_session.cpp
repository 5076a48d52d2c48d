// PyTorchSnapshotSession: load_memory_snapshot on the session's thread; pictures from snapshot_replay.
#include "session/pytorch_snapshot_session.h"

#include <algorithm>
#include <limits>

#include "core/errors.h"
#include "core/role.h"
#include "session/owner_names.h"

#include "snapshot/memory_timeline.h"
#include "snapshot/snapshot_moments.h"
#include "snapshot/snapshot_replay.h"
#include "snapshot/stack_role.h"
#include "snapshot/snapshot_summary.h"

namespace ds::gui {
namespace {

struct Moment {
  char unit = 0;  // 't', 'e' or 0 (the end)
  int64_t value = 0;
};

bool parse_moment(const std::string& text, Moment* m) {
  if (text.empty()) return *m = {}, true;
  if (text.size() < 3 || text[1] != ':' || (text[0] != 't' && text[0] != 'e')) return false;
  try {
    size_t used = 0;
    m->value = std::stoll(text.substr(2), &used);
    m->unit = text[0];
    return used == text.size() - 2;
  } catch (const std::exception&) {
    return false;
  }
}

// Who wrote the file: DeviceScope's own dumps end each segment's stack with {"<devicescope backend>", 0,
// "simulated CUDA" | "CUDA"} (bindings_cuda_memory_history.cpp); an older DeviceScope dump has owner frames
// ("<devicescope ROLE>") only, and DeviceScope then ran simulated devices; anything else came from PyTorch.
struct Writer {
  bool devicescope = false;
  bool simulated = false;
};

Writer writer_of(const snapshot::MemorySnapshot& s) {
  Writer w;
  for (const snapshot::SnapshotSegment& seg : s.segments)
    for (size_t i = 0; i < s.stack_size(seg.stack); ++i) {
      const snapshot::SnapshotFrame& f = s.stack_frame(seg.stack, i);
      if (s.strings[f.filename] == "<devicescope backend>") return {true, s.strings[f.name] != "CUDA"};
    }
  for (const std::string& text : s.strings)
    if (text.starts_with("<devicescope ")) return {true, true};
  return w;
}

// One device (or the pinned host pool, kHostDevice) at a moment: its place, segments and allocated blocks.
void add_device(Snapshot& pic, const snapshot::MemorySnapshot& s, int device, size_t entries, const std::string& detail,
                uint64_t& next_id) {
  const snapshot::DeviceState st = snapshot::state_at(s, device, entries);
  const bool host = device == snapshot::kHostDevice;
  const Place place = host ? Place::pinned() : Place::cuda(device);
  PlaceInfo info{place, host ? "host (pinned)" : "cuda:" + std::to_string(device), detail, st.allocated(), st.reserved(), 0,
                 pic.simulated && !host};
  info.capacity_unknown = !host;  // a snapshot records no device size
  pic.places.push_back(std::move(info));
  size_t b = 0;
  for (const snapshot::LiveSegment& seg : st.segments) {
    SegmentInfo info;
    info.device = host ? -1 : device;
    info.address = seg.address;
    info.size = seg.size;
    info.small_pool = seg.small_pool;
    uint64_t at = seg.address;
    while (b < st.blocks.size() && st.blocks[b].address < seg.address) ++b;  // outside every segment
    for (; b < st.blocks.size() && st.blocks[b].address < seg.address + seg.size; ++b) {
      const snapshot::LiveBlock& blk = st.blocks[b];
      if (blk.address > at) info.blocks.push_back({at, blk.address - at, false, int(seg.stream), 0});
      at = blk.address + blk.size;
      // A block awaiting free (active_pending_free) still occupies its memory but is no storage: PyTorch counts
      // it neither allocated nor live. It is drawn occupied, with no storage.
      if (blk.state != snapshot::BlockState::ActiveAllocated) {
        info.blocks.push_back({blk.address, blk.size, true, int(seg.stream), 0});
        continue;
      }
      StorageInfo storage;
      storage.id = next_id++;
      storage.place = place;
      storage.nbytes = blk.requested_size ? blk.requested_size : blk.size;
      storage.block_bytes = blk.size;
      storage.address = blk.address;
      storage.role = snapshot::stack_role(s, blk.stack).value_or(Role::Tensor);
      storage.owner = snapshot::stack_owner(s, blk.stack);
      pic.storages.push_back(std::move(storage));
      info.blocks.push_back({blk.address, blk.size, true, int(seg.stream), next_id - 1});
    }
    if (at < seg.address + seg.size) info.blocks.push_back({at, seg.address + seg.size - at, false, int(seg.stream), 0});
    pic.segments.push_back(std::move(info));
  }
}

}  // namespace

std::shared_ptr<Snapshot> snapshot_picture(const snapshot::MemorySnapshot& s, const std::string& path,
                                           const std::vector<size_t>& entries, int64_t time_us) {
  auto pic = std::make_shared<Snapshot>();
  const Writer w = writer_of(s);
  pic->source.path = path;
  pic->source.version = std::string(s.format_major == 1 ? "PyTorch 1.x snapshot" : "PyTorch 2.x snapshot") +
                        (w.devicescope ? w.simulated ? " written by DeviceScope (simulated CUDA)" : " written by DeviceScope (CUDA)" : "");
  pic->backend = w.simulated ? "sim" : "cuda";
  pic->simulated = w.simulated;
  pic->time_ns = uint64_t(std::max<int64_t>(time_us, 0)) * 1000;
  const std::string detail = w.devicescope ? w.simulated ? "from a DeviceScope snapshot of simulated CUDA"
                                                         : "from a DeviceScope snapshot"
                                           : "from a PyTorch memory snapshot";
  uint64_t next_id = 1;
  for (int device : snapshot::snapshot_devices(s)) {
    const size_t n = device >= 0 && size_t(device) < entries.size() ? entries[size_t(device)]
                                                                      : std::numeric_limits<size_t>::max();
    add_device(*pic, s, device, n, detail, next_id);
  }
  // Pinned host memory (record_host=True): the pinned pane. The host trace is one list of its own: a moment
  // given as a time maps onto it; the end, or a count of device entries, shows it at the snapshot's end.
  if (s.has_host_records) {
    size_t n = std::numeric_limits<size_t>::max();
    if (!entries.empty() && time_us > 0 && !s.host_trace.empty() && s.host_trace.back().time_us != 0)
      n = size_t(std::upper_bound(s.host_trace.begin(), s.host_trace.end(), time_us,
                                  [](int64_t t, const snapshot::SnapshotTraceEntry& e) { return t < e.time_us; }) -
                 s.host_trace.begin());
    add_device(*pic, s, snapshot::kHostDevice, n, detail + " (host_segments)", next_id);
  }
  publish_owner_names(*pic);  // the Names view lists the owners
  return pic;
}

PyTorchSnapshotSession::PyTorchSnapshotSession(std::string path, bool held) : FileSession(std::move(path), held) {
  open();
}

PyTorchSnapshotSession::~PyTorchSnapshotSession() { stop(); }

std::shared_ptr<const std::vector<snapshot::MemoryTimeline>> PyTorchSnapshotSession::memory_timelines() const {
  std::lock_guard<std::mutex> lock(timelines_mutex_);
  return timelines_;
}

std::shared_ptr<const Snapshot> PyTorchSnapshotSession::read(LoadProgress& progress) {
  file_ = snapshot::load_memory_snapshot(path(), &progress);
  auto timelines = std::make_shared<const std::vector<snapshot::MemoryTimeline>>(snapshot::memory_timelines(file_));
  {
    std::lock_guard<std::mutex> lock(timelines_mutex_);
    timelines_ = std::move(timelines);
  }
  int64_t end_us = 0;
  for (const snapshot::TraceEntries& t : file_.device_traces)
    if (!t.empty()) end_us = std::max(end_us, t.back().time_us);
  return snapshot_picture(file_, path(), {}, end_us);
}

RunOutcome PyTorchSnapshotSession::run_more(Job& job) {
  if (job.kind != JobKind::Seek) return FileSession::run_more(job);
  // "" the snapshot's own moment; "t:TIME_US" a time of the trace; "e:N" after N entries (traces without
  // times). "B|A": the picture at B, and what changed since A as the outcome's JSON (moment_diff_json).
  const size_t bar = job.line.find('|');
  Moment b, a;
  if (!parse_moment(job.line.substr(0, bar), &b) || (bar != std::string::npos && !parse_moment(job.line.substr(bar + 1), &a)))
    return failed("ValueError", "not a moment of the trace: " + job.line);
  try {  // e:N counts entries done, as inspect and diff count them: -1 or past the trace is refused, not clamped
    snapshot::check_moment(file_, b.unit, b.value, path());
    if (bar != std::string::npos) snapshot::check_moment(file_, a.unit, a.value, path());
  } catch (const Error& e) {
    return failed("ValueError", e.what());
  }
  set_picture(snapshot_picture(file_, path(), snapshot::entries_at(file_, b.unit, b.value), b.unit == 't' ? b.value : 0));
  RunOutcome o;
  if (bar != std::string::npos)
    o.result_json = moment_diff_json(diff_live(snapshot::live_allocations(file_, a.unit, a.value, true),
                                               snapshot::live_allocations(file_, b.unit, b.value, true))).dump();
  return o;
}

}  // namespace ds::gui

// PyTorchSnapshotSession: load_memory_snapshot on the session's thread; pictures from snapshot_replay.
#include "session/pytorch_snapshot_session.h"

#include <limits>
#include <optional>

#include "core/role.h"

#include "snapshot/memory_timeline.h"
#include "snapshot/snapshot_moments.h"
#include "snapshot/snapshot_replay.h"
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

// DeviceScope's own snapshots put the role in the owner frame's file name: "<devicescope parameter>".
Role role_of(const snapshot::MemorySnapshot& s, snapshot::StackId stack) {
  for (size_t i = 0; i < s.stack_size(stack); ++i) {
    const std::string& file = s.strings[s.stack_frame(stack, i).filename];
    if (!file.starts_with("<devicescope ")) continue;
    if (std::optional<Role> role = role_from_name(std::string_view(file).substr(13, file.size() - 14))) return *role;
  }
  return Role::Tensor;
}

}  // namespace

std::shared_ptr<Snapshot> snapshot_picture(const snapshot::MemorySnapshot& s, const std::string& path,
                                           const std::vector<size_t>& entries, int64_t time_us) {
  auto pic = std::make_shared<Snapshot>();
  pic->source.path = path;
  pic->source.version = s.format_major == 1 ? "PyTorch 1.x snapshot" : "PyTorch 2.x snapshot";
  pic->backend = "cuda";
  pic->simulated = false;
  pic->time_ns = uint64_t(std::max<int64_t>(time_us, 0)) * 1000;
  uint64_t next_id = 1;
  for (int device : snapshot::snapshot_devices(s)) {
    const size_t n = device >= 0 && size_t(device) < entries.size() ? entries[size_t(device)]
                                                                      : std::numeric_limits<size_t>::max();
    const snapshot::DeviceState st = snapshot::state_at(s, device, n);
    const Place place = Place::cuda(device);
    pic->places.push_back({place, "cuda:" + std::to_string(device), "from a PyTorch memory snapshot", st.allocated(),
                           st.reserved(), 0, false});
    size_t b = 0;
    for (const snapshot::LiveSegment& seg : st.segments) {
      SegmentInfo info;
      info.device = device;
      info.address = seg.address;
      info.size = seg.size;
      info.small_pool = seg.small_pool;
      uint64_t at = seg.address;
      while (b < st.blocks.size() && st.blocks[b].address < seg.address) ++b;  // outside every segment
      for (; b < st.blocks.size() && st.blocks[b].address < seg.address + seg.size; ++b) {
        const snapshot::LiveBlock& blk = st.blocks[b];
        if (blk.address > at) info.blocks.push_back({at, blk.address - at, false, int(seg.stream), 0});
        StorageInfo storage;
        storage.id = next_id++;
        storage.place = place;
        storage.nbytes = blk.requested_size ? blk.requested_size : blk.size;
        storage.block_bytes = blk.size;
        storage.address = blk.address;
        storage.role = role_of(s, blk.stack);
        storage.owner = snapshot::stack_owner(s, blk.stack);
        pic->storages.push_back(std::move(storage));
        info.blocks.push_back({blk.address, blk.size, true, int(seg.stream), next_id - 1});
        at = blk.address + blk.size;
      }
      if (at < seg.address + seg.size) info.blocks.push_back({at, seg.address + seg.size - at, false, int(seg.stream), 0});
      pic->segments.push_back(std::move(info));
    }
  }
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
  set_picture(snapshot_picture(file_, path(), snapshot::entries_at(file_, b.unit, b.value), b.unit == 't' ? b.value : 0));
  RunOutcome o;
  if (bar != std::string::npos)
    o.result_json = moment_diff_json(diff_live(snapshot::live_allocations(file_, a.unit, a.value, true),
                                               snapshot::live_allocations(file_, b.unit, b.value, true))).dump();
  return o;
}

}  // namespace ds::gui

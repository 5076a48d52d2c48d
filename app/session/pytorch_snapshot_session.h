// PyTorchSnapshotSession: a PyTorch memory snapshot (the pickle torch.cuda.memory._dump_snapshot writes, 2.x
// or 1.x form, read without running any code) opened for viewing. The picture is the allocator's state at a
// moment of the trace: each device a pane, its segments with their blocks, every live block a storage named
// by its owner (the innermost frame outside PyTorch; DeviceScope's own snapshots name the module attribute).
// Seek jobs move the moment; memory_timelines() is active memory over time per device.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "session/file_session.h"
#include "snapshot/memory_snapshot.h"

namespace ds::gui {

class PyTorchSnapshotSession : public FileSession {
 public:
  explicit PyTorchSnapshotSession(std::string path, bool held = false);
  ~PyTorchSnapshotSession() override;
  const char* kind() const override { return "PyTorch memory snapshot"; }
  std::shared_ptr<const std::vector<snapshot::MemoryTimeline>> memory_timelines() const override;

 protected:
  std::shared_ptr<const Snapshot> read(LoadProgress& progress) override;
  RunOutcome run_more(Job& job) override;

 private:
  snapshot::MemorySnapshot file_;
  mutable std::mutex timelines_mutex_;
  std::shared_ptr<const std::vector<snapshot::MemoryTimeline>> timelines_;
};

// The picture of `s` after `entries[d]` entries of device d's trace (missing devices: the snapshot's moment).
std::shared_ptr<Snapshot> snapshot_picture(const snapshot::MemorySnapshot& s, const std::string& path,
                                           const std::vector<size_t>& entries, int64_t time_us);

}  // namespace ds::gui

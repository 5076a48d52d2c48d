// RecordingSession: a DeviceScope recording opened from a file (the Chrome trace JSON or transfers CSV that
// `devicescope run --trace/--csv` or the app wrote): its transfers, backend and link are the picture.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>

#include "session/file_session.h"
#include "trace/export_chrome_trace.h"

namespace ds::gui {

class RecordingSession : public FileSession {
 public:
  explicit RecordingSession(std::string path, bool held = false);
  ~RecordingSession() override;  // cancels a read still going
  const char* kind() const override { return "recording"; }

 protected:
  std::shared_ptr<const Snapshot> read(LoadProgress& progress) override;
};

// The picture of a loaded recording: its transfers, backend and link, and where it came from (time_ns
// is the end of the last copy; a windowed recording keeps its note).
std::shared_ptr<Snapshot> recording_snapshot(const std::string& path, const TraceMeta& meta,
                                             const std::deque<TransferRecord>& transfers);
// Storage id -> role, from a recording's "devicescopeRecorder" object (LoadedTrace::recorder_json, written by
// `devicescope record`): its "storage_roles" {"12": "parameter", ...}. Empty when absent or unreadable.
std::unordered_map<uint64_t, Role> recorded_storage_roles(const std::string& recorder_json);

// The storages still live at the recording's end (its alloc/free events) and each place's figures, so the
// memory panes show what the run held (a recording has no segments: the blocks are drawn without them). A
// storage takes its role from `roles` (the recorder's storage_roles), else stays a Tensor.
void add_live_storages(Snapshot& picture, const std::deque<Event>& events,
                       const std::unordered_map<uint64_t, Role>& roles = {});

}  // namespace ds::gui

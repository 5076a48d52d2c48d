// RecordingSession: load_trace on the session's thread.
#include "session/recording_session.h"

#include <algorithm>

#include "trace/load_trace.h"

namespace ds::gui {

std::shared_ptr<Snapshot> recording_snapshot(const std::string& path, const TraceMeta& meta,
                                             const std::deque<TransferRecord>& transfers) {
  auto s = std::make_shared<Snapshot>();
  s->source = {path, meta.version, meta.machine};
  s->backend = meta.backend;
  s->simulated = meta.simulated;
  s->link = meta.link;
  s->transfers.assign(transfers.begin(), transfers.end());
  for (const TransferRecord& r : s->transfers) s->time_ns = std::max(s->time_ns, r.end_ns);
  // A windowed recording (Note [Bounded event log]): the Transfers view shows WINDOWED with this note.
  s->events_dropped = meta.events_dropped;
  s->transfers_dropped = meta.transfers_dropped;
  if (meta.events_dropped || meta.transfers_dropped)
    s->window_note = "windowed recording: the run's first " + std::to_string(meta.events_dropped) + " events and " +
                     std::to_string(meta.transfers_dropped) + " transfers were dropped before it was written";
  return s;
}

RecordingSession::RecordingSession(std::string path, bool held) : FileSession(std::move(path), held) { open(); }

RecordingSession::~RecordingSession() { stop(); }

std::shared_ptr<const Snapshot> RecordingSession::read(LoadProgress& progress) {
  LoadedTrace t = load_trace(path(), &progress);
  return recording_snapshot(path(), t.meta, t.transfers);
}

}  // namespace ds::gui

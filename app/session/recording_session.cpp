// RecordingSession: load_trace on the session's thread.
#include "session/recording_session.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "session/owner_names.h"
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
  std::shared_ptr<Snapshot> pic = recording_snapshot(path(), t.meta, t.transfers);
  add_live_storages(*pic, t.events, recorded_storage_roles(t.recorder_json));
  publish_owner_names(*pic);  // the Names view lists the recording's owners (no script runs for a file)
  return pic;
}

std::unordered_map<uint64_t, Role> recorded_storage_roles(const std::string& recorder_json) {
  std::unordered_map<uint64_t, Role> out;
  if (recorder_json.empty()) return out;
  const nlohmann::json extra = nlohmann::json::parse(recorder_json, nullptr, /*allow_exceptions=*/false);
  if (!extra.is_object() || !extra.contains("storage_roles") || !extra["storage_roles"].is_object()) return out;
  for (const auto& [id, role] : extra["storage_roles"].items()) {
    if (!role.is_string()) continue;
    uint64_t n = 0;
    const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), n);
    if (ec != std::errc() || end != id.data() + id.size()) continue;
    // The recorder spells roles as Python does ("optimizer_state", "gradient"): role_from_name takes both.
    if (std::optional<Role> r = role_from_name(role.get<std::string>())) out[n] = *r;
  }
  return out;
}

void add_live_storages(Snapshot& pic, const std::deque<Event>& events, const std::unordered_map<uint64_t, Role>& roles) {
  // A move allocates before it knows whose bytes it holds: such a storage is named by the copy that filled it.
  std::unordered_map<uint64_t, const std::string*> filled_by;
  for (const TransferRecord& r : pic.transfers)
    if (!r.owner.empty()) filled_by.emplace(r.dst_storage, &r.owner);
  std::map<uint64_t, StorageInfo> live;
  std::map<std::string, PlaceInfo> places;
  for (const Event& e : events) {
    if (e.kind != EventKind::Alloc && e.kind != EventKind::Free) continue;
    PlaceInfo& p = places[e.place.str()];
    p.place = e.place;
    if (e.kind == EventKind::Alloc) {
      StorageInfo s;
      s.id = e.storage_id;
      s.place = e.place;
      s.nbytes = s.block_bytes = e.bytes;
      s.owner = e.label;
      if (s.owner.empty())
        if (auto it = filled_by.find(e.storage_id); it != filled_by.end()) s.owner = *it->second;
      s.created_seq = e.seq;
      if (auto r = roles.find(e.storage_id); r != roles.end()) s.role = r->second;
      live[e.storage_id] = std::move(s);
    } else {
      live.erase(e.storage_id);
    }
    // The allocator's own figures where the recording has them (device places), else the live bytes.
    p.allocated = e.allocated_after;
    p.reserved = e.reserved_after;
  }
  std::map<std::string, uint64_t> live_bytes;
  for (auto& [id, s] : live) {
    live_bytes[s.place.str()] += s.nbytes;
    pic.storages.push_back(std::move(s));
  }
  for (auto& [name, p] : places) {
    if (!p.allocated) p.allocated = live_bytes[name];
    p.reserved = std::max(p.reserved, p.allocated);
    p.label = p.place == Place::pageable() ? "host (pageable)" : p.place == Place::pinned() ? "host (pinned)" : name;
    p.detail = "from the recording";
    p.simulated = pic.simulated && !p.place.is_host();
    pic.places.push_back(std::move(p));
  }
}

}  // namespace ds::gui

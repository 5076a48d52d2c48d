// EventLog: sequence numbering, transfer records and their completion, the window and the totals.
// Every alloc/free/copy of the engine passes through here, so each call is a push_back (and, once the
// window is full, a pop_front) and nothing more.
#include "trace/event_log.h"

#include <algorithm>
#include <utility>

namespace ds {

void EventLog::set_limits(EventLogLimits limits) {
  limits_ = limits;
  trim_events();
  trim_transfers();
}

uint64_t EventLog::append(Event e) {
  if (!enabled_) return 0;
  e.seq = next_seq_++;
  totals_.count_event(e);
  events_.push_back(std::move(e));
  const uint64_t seq = events_.back().seq;
  trim_events();
  return seq;
}

void EventLog::trim_events() {
  while (events_.size() > limits_.events) {
    events_.pop_front();
    ++totals_.events_dropped;
  }
}

void EventLog::trim_transfers() {
  while (transfers_.size() > limits_.transfers) {
    const TransferRecord& t = transfers_.front();
    // A copy still in flight when it leaves the window: its completion finds no record and is ignored.
    if (!t.complete && t.backend_ticket != 0) pending_by_ticket_.erase(t.backend_ticket);
    ++totals_.transfers_dropped;
    totals_.dropped_transfer_bytes += t.bytes;
    transfers_.pop_front();
    ++first_transfer_id_;
  }
}

uint64_t EventLog::add_transfer(TransferRecord r) {
  if (!enabled_) return 0;
  r.id = next_transfer_++;
  if (!r.complete && r.backend_ticket != 0) pending_by_ticket_[r.backend_ticket] = r.id;
  totals_.count_transfer(r);

  Event e;
  e.kind = EventKind::Copy;
  e.time_ns = r.enqueue_ns;
  e.place = r.dst;
  e.storage_id = r.dst_storage;
  e.bytes = r.bytes;
  e.transfer_id = r.id;
  e.label = r.owner;
  const uint64_t id = r.id;
  transfers_.push_back(std::move(r));
  trim_transfers();
  append(std::move(e));
  return id;
}

bool EventLog::note_host_read(uint64_t storage_id, uint64_t time_ns) {
  bool stale = false;
  for (const auto& [ticket, id] : pending_by_ticket_) {
    TransferRecord& t = transfers_[size_t(id - first_transfer_id_)];
    if (t.dst_storage != storage_id) continue;
    stale = true;
    if (t.host_read_ns == 0) t.host_read_ns = std::max<uint64_t>(time_ns, 1);
  }
  return stale;
}

std::vector<uint64_t> EventLog::in_flight_destinations() const {
  std::vector<uint64_t> out;
  out.reserve(pending_by_ticket_.size());
  for (const auto& [ticket, id] : pending_by_ticket_) out.push_back(transfers_[size_t(id - first_transfer_id_)].dst_storage);
  return out;
}

void EventLog::complete_transfer(uint64_t backend_ticket, uint64_t start_ns, uint64_t end_ns,
                                 double measured_ns) {
  auto it = pending_by_ticket_.find(backend_ticket);
  if (it == pending_by_ticket_.end()) return;  // unknown ticket, or dropped by clear() or the window
  const uint64_t id = it->second;
  pending_by_ticket_.erase(it);
  TransferRecord& t = transfers_[size_t(id - first_transfer_id_)];
  t.start_ns = start_ns;
  t.end_ns = end_ns;
  t.measured_ns = measured_ns;
  t.complete = true;

  // The record above is finished even when recording was switched off meanwhile; only the
  // CopyDone event obeys `enabled_` (append returns 0 then).
  Event e;
  e.kind = EventKind::CopyDone;
  e.time_ns = end_ns;
  e.place = t.dst;
  e.storage_id = t.dst_storage;
  e.bytes = t.bytes;
  e.transfer_id = t.id;
  e.label = t.owner;
  append(std::move(e));
}

const TransferRecord* EventLog::find_transfer(uint64_t id) const {
  if (id < first_transfer_id_) return nullptr;
  const uint64_t index = id - first_transfer_id_;
  return index < transfers_.size() ? &transfers_[index] : nullptr;
}

std::string EventLog::window_note() const {
  if (!windowed()) return "";
  std::string note = "windowed: the first ";
  const auto part = [&](uint64_t dropped, uint64_t total, size_t kept, const char* what) {
    note += std::to_string(dropped) + " of " + std::to_string(total) + " " + what + " were dropped (DeviceScope keeps the last " +
            std::to_string(kept) + " in memory)";
  };
  if (totals_.events_dropped) part(totals_.events_dropped, totals_.events, limits_.events, "events");
  if (totals_.events_dropped && totals_.transfers_dropped) note += "; the first ";
  if (totals_.transfers_dropped) part(totals_.transfers_dropped, totals_.transfers, limits_.transfers, "transfers");
  return note;
}

void EventLog::clear() {
  events_.clear();
  transfers_.clear();
  pending_by_ticket_.clear();
  first_transfer_id_ = next_transfer_;
  totals_ = {};
}

}  // namespace ds

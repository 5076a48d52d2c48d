// EventLog: sequence numbering, transfer records and their completion.
// Every alloc/free/copy of the engine passes through here, so each call is a push_back and nothing more.
#include "trace/event_log.h"

#include <utility>

namespace ds {

uint64_t EventLog::append(Event e) {
  if (!enabled_) return 0;
  e.seq = next_seq_++;
  events_.push_back(std::move(e));
  return events_.back().seq;
}

uint64_t EventLog::add_transfer(TransferRecord r) {
  if (!enabled_) return 0;
  r.id = next_transfer_++;
  const size_t index = transfers_.size();
  if (!r.complete && r.backend_ticket != 0) pending_by_ticket_[r.backend_ticket] = index;
  transfers_.push_back(std::move(r));
  const TransferRecord& t = transfers_.back();

  Event e;
  e.kind = EventKind::Copy;
  e.time_ns = t.enqueue_ns;
  e.place = t.dst;
  e.storage_id = t.dst_storage;
  e.bytes = t.bytes;
  e.transfer_id = t.id;
  e.label = t.owner;
  append(std::move(e));
  return t.id;
}

void EventLog::complete_transfer(uint64_t backend_ticket, uint64_t start_ns, uint64_t end_ns,
                                 double measured_ns) {
  auto it = pending_by_ticket_.find(backend_ticket);
  if (it == pending_by_ticket_.end()) return;  // unknown ticket, or dropped by clear()
  TransferRecord& t = transfers_[it->second];
  pending_by_ticket_.erase(it);
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

void EventLog::clear() {
  events_.clear();
  transfers_.clear();
  pending_by_ticket_.clear();
  first_transfer_id_ = next_transfer_;
}

}  // namespace ds

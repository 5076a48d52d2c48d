// Append-only event log with sequence numbers; transfers are kept separately for fast lookup.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "trace/records.h"

namespace ds {

class EventLog {
 public:
  // Recording can be switched off (benchmarks measure the cost of keeping it on).
  void set_enabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }

  uint64_t append(Event e);                     // assigns seq; returns it (0 when disabled)
  uint64_t add_transfer(TransferRecord r);      // assigns id, appends a Copy event; returns id
  // A backend reported a copy finished: fill its final timing and append CopyDone.
  void complete_transfer(uint64_t backend_ticket, uint64_t start_ns, uint64_t end_ns, double measured_ns);

  const std::deque<Event>& events() const { return events_; }
  const std::deque<TransferRecord>& transfers() const { return transfers_; }
  const TransferRecord* find_transfer(uint64_t id) const;
  uint64_t last_seq() const { return next_seq_ - 1; }
  // Drops every record; sequence numbers and transfer ids keep counting up, so a view that
  // remembers "last seen seq" never mistakes new records for old ones.
  void clear();

 private:
  bool enabled_ = true;
  uint64_t next_seq_ = 1;
  uint64_t next_transfer_ = 1;
  uint64_t first_transfer_id_ = 1;                    // id of transfers_.front(); clear() moves it on
  std::deque<Event> events_;
  std::deque<TransferRecord> transfers_;              // id == index + first id
  std::unordered_map<uint64_t, size_t> pending_by_ticket_;  // backend ticket -> transfers_ index
};

}  // namespace ds

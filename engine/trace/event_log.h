// Append-only event log with sequence numbers; transfers are kept separately for fast lookup.
// Note [Bounded event log]: a long training loop appends two events per op forever, so the log keeps a
// window of the most recent records (limits below) and exact running totals of everything (totals()).
// Records that leave the window are gone: views and exports that show the log say how many were dropped
// (totals().events_dropped / transfers_dropped) instead of presenting the window as the whole run.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/log_totals.h"
#include "trace/records.h"

namespace ds {

struct EventLogLimits {
  // ~110 bytes each (plus long labels): 500,000 events hold about 55 MB.
  size_t events = 500'000;
  // Transfers are what engineers export, so far more are kept: a recording's CSV/trace is complete up to
  // a million copies (~180 MB); only a run making more loses its oldest ones.
  size_t transfers = 1'000'000;
};

class EventLog {
 public:
  // Recording can be switched off (benchmarks measure the cost of keeping it on).
  void set_enabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }
  // Smaller windows drop the oldest records at once (tests use tiny ones); 0 keeps none.
  void set_limits(EventLogLimits limits);
  const EventLogLimits& limits() const { return limits_; }

  uint64_t append(Event e);                     // assigns seq; returns it (0 when disabled)
  uint64_t add_transfer(TransferRecord r);      // assigns id, appends a Copy event; returns id
  // A backend reported a copy finished: fill its final timing and append CopyDone.
  void complete_transfer(uint64_t backend_ticket, uint64_t start_ns, uint64_t end_ns, double measured_ns);
  // Copies still in flight (not yet folded by a sync point or a poll).
  bool has_pending() const { return !pending_by_ticket_.empty(); }
  // The host read the values of storage `storage_id` at `time_ns`: every in-flight copy into it keeps the
  // first such time (host_read_ns). Returns true when one did (the read saw stale bytes).
  bool note_host_read(uint64_t storage_id, uint64_t time_ns);
  // Destination storages of the copies still in flight (a StorageInfo's in_flight).
  std::vector<uint64_t> in_flight_destinations() const;

  // The window: the most recent records, oldest first.
  const std::deque<Event>& events() const { return events_; }
  const std::deque<TransferRecord>& transfers() const { return transfers_; }
  const TransferRecord* find_transfer(uint64_t id) const;  // nullptr once it left the window
  uint64_t last_seq() const { return next_seq_ - 1; }
  // Everything recorded since the start (or clear()), the dropped records included.
  const LogTotals& totals() const { return totals_; }
  bool windowed() const { return totals_.windowed(); }
  // One line for stderr and status bars, e.g. "windowed: the first 1200000 of 1700000 events were dropped
  // (DeviceScope keeps the last 500000 in memory)"; empty when nothing was dropped.
  std::string window_note() const;
  // Drops every record and the totals; sequence numbers and transfer ids keep counting up, so a view that
  // remembers "last seen seq" never mistakes new records for old ones.
  void clear();

 private:
  void trim_events();
  void trim_transfers();

  bool enabled_ = true;
  EventLogLimits limits_;
  uint64_t next_seq_ = 1;
  uint64_t next_transfer_ = 1;
  uint64_t first_transfer_id_ = 1;                    // id of transfers_.front(); trimming and clear() move it on
  std::deque<Event> events_;
  std::deque<TransferRecord> transfers_;              // id == index + first id
  std::unordered_map<uint64_t, uint64_t> pending_by_ticket_;  // backend ticket -> transfer id
  LogTotals totals_;
};

}  // namespace ds

// Moments of a PyTorch memory snapshot as the command line and the app name them: a time of its trace
// ('t', microseconds), a number of trace entries done ('e'), or its end (0); and what is live then, ready
// for diff_live (moment_diff.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/memory_snapshot.h"
#include "snapshot/moment_diff.h"

namespace ds::snapshot {

// The longest device trace's length: e:0 .. e:that are the moments of the file.
size_t longest_trace(const MemorySnapshot& s);
// ValueError "NAME@e:N: ..." for an entry count below 0 or past the longest trace (never clamped silently).
void check_moment(const MemorySnapshot& s, char unit, int64_t value, const std::string& name);

// Trace entries done per device at the moment (the end: every entry).
std::vector<size_t> entries_at(const MemorySnapshot& s, char unit, int64_t value);

// The blocks allocated at the moment (active_allocated; a block awaiting free is not), named by owner. Within
// one file a block is the same allocation at two moments when the same trace entry made it (`same_file`); across
// two files by allocation identity (moment_diff.h: key_by_allocation_identity), never by address.
std::vector<LiveAllocation> live_allocations(const MemorySnapshot& s, char unit, int64_t value, bool same_file);

}  // namespace ds::snapshot

// Moments of a PyTorch memory snapshot as the command line and the app name them: a time of its trace
// ('t', microseconds), a number of trace entries done ('e'), or its end (0); and what is live then, ready
// for diff_live (moment_diff.h).
#pragma once

#include <cstdint>
#include <vector>

#include "snapshot/memory_snapshot.h"
#include "snapshot/moment_diff.h"

namespace ds::snapshot {

// Trace entries done per device at the moment (the end: every entry).
std::vector<size_t> entries_at(const MemorySnapshot& s, char unit, int64_t value);

// The blocks live at the moment, named by owner. Within one file a block is the same allocation at two
// moments when the same trace entry made it (`same_file`); across two files, when address, size and owner match.
std::vector<LiveAllocation> live_allocations(const MemorySnapshot& s, char unit, int64_t value, bool same_file);

}  // namespace ds::snapshot

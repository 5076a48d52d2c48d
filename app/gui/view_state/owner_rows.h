// The owners of an opened file's memory as table rows (issue 24 item 7): who holds how many bytes in how
// many blocks at the moment the panes show, and - where the file has a memory timeline - when each owner
// first and last held memory. Sorting is part of the model so a test can check it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/memory_timeline.h"
#include "trace/snapshot.h"

namespace ds::gui {

struct OwnerRow {
  std::string owner;    // display_name of its storages
  std::string place;    // "cuda:0"
  uint64_t bytes = 0;   // at the shown moment
  size_t blocks = 0;
  int64_t first = -1, last = -1;  // timeline buckets where it held memory (-1: not in a timeline category)
  std::string first_text, last_text;  // "1.2 ms" (from the trace's start), "entry 40", "" when unknown
};

enum class OwnerColumn { Owner, Place, Bytes, Blocks, First, Last };

std::vector<OwnerRow> owner_rows(const Snapshot& snap, const std::vector<snapshot::MemoryTimeline>* timelines);
void sort_owner_rows(std::vector<OwnerRow>& rows, OwnerColumn by, bool ascending);
// Where bucket `b` of a timeline is: "1.25 ms" (from the trace's start) or "entry 40" (entries done).
std::string timeline_moment_text(const snapshot::MemoryTimeline& t, size_t bucket);

}  // namespace ds::gui

// What the Transfers view draws from, built once per picture: the timeline lanes, the bandwidth
// plot's bins and the header's totals. For a recording the loader's thread builds them (seconds for
// millions of copies), so the window never stalls when a large recording arrives.
#pragma once

#include <cstdint>

#include "gui/view_state/bandwidth_model.h"
#include "gui/view_state/timeline_model.h"

namespace ds::gui {

struct TransferModels {
  const Snapshot* source = nullptr;  // the picture they were built from
  TimelineModel timeline;
  BandwidthModel bandwidth;
  uint64_t total_bytes = 0;
  bool any_simulated = false;

  void build(const Snapshot& snap);  // the link profile is looked up from snap.link (none if unknown)
};

}  // namespace ds::gui

// "Memory over time" window, in the Transfers window's place while a PyTorch memory snapshot is shown:
// active memory per device over the allocator's trace, stacked by owner (memory_viz's Active Memory
// Timeline). Hovering shows the owners and their bytes at that moment; a click moves the memory panes to
// that moment (a Seek job on the snapshot's session), a drag zooms into a stretch (double-click: all of
// it). Axes with units; a legend that wraps; the shown moment marked; an empty device says so.
#pragma once

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "gui/ui_state.h"
#include "snapshot/memory_timeline.h"

namespace ds::gui {

class MemoryTimelineView {
 public:
  void draw(const std::vector<snapshot::MemoryTimeline>& timelines, UiState& ui, Commands& cmds);

 private:
  void draw_device(const snapshot::MemoryTimeline& t, float height, UiState& ui, Commands& cmds);
  void draw_changes(UiState& ui);  // what changed between the marked moment and the panes' moment, by owner
  std::map<int, std::pair<size_t, size_t>> zoom_;  // per device: the buckets shown [first, last]
  float drag_from_x_ = -1;                         // a zoom drag in progress (screen x), -1: none
  int drag_device_ = -1;
};

}  // namespace ds::gui

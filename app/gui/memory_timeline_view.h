// "Memory over time" window, in the Transfers window's place while a PyTorch memory snapshot is shown:
// active memory per device over the allocator's trace, stacked by owner (memory_viz's Active Memory
// Timeline). Hovering shows the owners and their bytes at that moment; a click (or a drag) moves the memory
// panes to that moment (a Seek job on the snapshot's session).
#pragma once

#include <memory>
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
};

}  // namespace ds::gui

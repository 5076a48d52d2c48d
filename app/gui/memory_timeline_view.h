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
#include "render/image_texture.h"
#include "snapshot/memory_timeline.h"

namespace ds::gui {

class MemoryTimelineView {
 public:
  void draw(const std::vector<snapshot::MemoryTimeline>& timelines, UiState& ui, Commands& cmds);

 private:
  void draw_device(const snapshot::MemoryTimeline& t, float height, UiState& ui, Commands& cmds);
  void draw_changes(UiState& ui);  // what changed between the marked moment and the panes' moment, by owner
  // Per device: the stacked area's texture and what it was drawn for (redrawn when any of it changes).
  struct Chart {
    struct Key {
      const void* rows = nullptr;  // the grouping's bytes (by owner or by category)
      size_t lo = 0, hi = 0;
      int width = 0, height = 0;
      double top = 0;
      bool operator==(const Key&) const = default;
    } key;
    render::ImageTexture tex;
  };
  std::map<int, Chart> charts_;
  std::map<int, std::pair<size_t, size_t>> zoom_;  // per device: the buckets shown [first, last]
  float drag_from_x_ = -1;                         // a zoom drag in progress (screen x), -1: none
  int drag_device_ = -1;
};

}  // namespace ds::gui

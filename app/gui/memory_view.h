// Memory window: one pane per place (host pageable, host pinned, each cuda:N). Device panes show the
// caching allocator's segments (reserved) with live blocks (allocated) inside, and the capacity.
// Blocks are coloured by role and drawn by the instanced renderer; hovering one tells its story.
#pragma once

#include <memory>
#include <vector>

#include <imgui.h>

#include "gui/memory_pane_header.h"
#include "gui/migration_view.h"
#include "gui/view_state/memory_layout.h"
#include "gui/ui_state.h"
#include "render/quad_batch.h"

namespace ds::gui {

class MemoryView {
 public:
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
  // Headless screenshots show animations at a fixed moment: `seconds` after the last change, or
  // (negative) at their end state.
  void freeze_animations(double seconds) {
    frozen_ = true;
    frozen_at_ = seconds;
  }

  struct PaneInfo {
    const MemoryPaneLayout* layout;
    ImVec2 min, max;  // body rect on screen
    const PaneHeader* header;
  };
  std::vector<PaneInfo> panes() const;
  const MigrationView& migration() const { return migration_; }
  const std::string& footer_text() const { return footer_text_; }
  // Screen rect of a storage's block in the panes as last drawn.
  bool storage_rect(uint64_t id, ImVec2* min, ImVec2* max) const;

 private:
  struct Pane {
    MemoryPaneLayout layout;
    std::unique_ptr<render::QuadBatch> batch;
    uint64_t version = ~0ull;
    float w = 0, h = 0;
    MemoryScale scale = MemoryScale::Fit;
    float font = 0;  // the label font's size it was laid out for (presenter mode changes it)
    ImVec2 origin;
    bool drawn = false;
    PaneHeader header;
  };
  // Returns whether it listed `empty_places` (presenter mode's hidden panes) at the end of its last line.
  bool legend(const Snapshot& snap, UiState& ui, const std::string& empty_places);
  void draw_pane(const Snapshot& snap, UiState& ui, Pane& pane, size_t place_index, ImVec2 min, ImVec2 max);
  void relayout(const Snapshot& snap, UiState& ui, const std::vector<ImVec2>& body_sizes);
  void tooltip(const Snapshot& snap, const Pane& pane, int item);

  std::vector<Pane> panes_;
  // Per picture: which places hold anything (an empty pane's row shrinks to its header), which roles and
  // whether cached free blocks occur (presenter mode's legend lists only those).
  std::vector<bool> place_used_;
  std::vector<uint64_t> place_virtual_;  // bytes of virtual storages per place (counted apart in the header)
  std::vector<Role> roles_present_;
  bool free_present_ = false;
  std::string footer_text_;
  StorageIndex index_;
  uint64_t index_version_ = ~0ull;
  uint64_t previous_seq_ = 0;  // for migrations: storages created after it are new
  bool have_previous_ = false;
  MigrationView migration_;
  bool frozen_ = false;
  double frozen_at_ = -1;
  double epoch_ = 0;  // when the current picture arrived (animation time 0)
  uint64_t hovered_this_frame_ = 0;
};

}  // namespace ds::gui

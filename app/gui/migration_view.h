// Migration overlay on the memory panes: when a storage was copied by a move (moved_from), a block flies
// from the source pane to the destination; a freed source fades out; a source still held stays lit with
// an arrow and names who holds it ("old copy stays: w still names it") where that matters: a module's
// parameter, buffer, gradient or optimizer state whose old copy outlives the move. An input copied to a
// device while its host tensor lives on (x = x_cpu.to("cuda")) is the normal life of a copy: no mark.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <imgui.h>

#include "gui/view_state/memory_layout.h"
#include "trace/snapshot.h"

namespace ds::gui {

struct Migration {
  uint64_t src = 0, dst = 0;
  std::string owner;
  ImVec2 from_min, from_max;  // where the source was drawn in the previous picture (screen)
  bool from_known = false;
  bool source_live = false;   // the source storage is still alive (someone holds it)
  std::string holders;        // who keeps the source alive
  bool matters = false;       // source_live, and the copy is module or optimizer state (see above)
  uint32_t color = 0;
  double start = 0;           // animation start time (seconds)
};

class MigrationView {
 public:
  using RectOf = std::function<bool(uint64_t storage_id, ImVec2* min, ImVec2* max)>;

  // A new picture arrived. `old_rect` finds storages in the panes as last drawn (before re-layout).
  // `since_seq`: the previous picture's Snapshot::seq (storages created after it are new).
  void on_snapshot(uint64_t since_seq, const Snapshot& next, const StorageIndex& next_index, const RectOf& old_rect,
                   double now);
  // Draws flights, fading ghosts and "still held" arrows over the panes. `settled`: skip to the end state.
  // "still held by" labels never overlap each other nor the `avoid` rects (pane headers: x0, y0, x1, y1);
  // one with no free place near its block is left out (the block keeps its outline and arrow).
  // `headers`: the panes' header rects; an arrow's curve stays below the headers above its ends.
  void draw(ImDrawList* dl, const RectOf& rect, double now, bool settled, const std::vector<ImVec4>& avoid = {},
            const std::vector<ImVec4>& headers = {});
  size_t held_labels() const { return held_labels_; }
  size_t held_labels_left_out() const { return held_left_out_; }
  // Who holds the sources whose labels were left out (the memory view lists them on its footer line).
  const std::vector<std::string>& left_out_holders() const { return left_out_holders_; }
  // Some source of a move in this picture is still alive where that matters (a label may be needed).
  bool any_held_that_matters() const;
  // The label's words: "old copy stays: w still names it".
  static std::string held_text(const std::string& holders);

  const std::vector<Migration>& migrations() const { return moves_; }
  size_t more() const { return more_; }

 private:
  std::vector<Migration> moves_;
  size_t more_ = 0;  // moves beyond the animated ones
  size_t held_labels_ = 0, held_left_out_ = 0;  // last draw
  std::vector<std::string> left_out_holders_;
};

}  // namespace ds::gui

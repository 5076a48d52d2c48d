// The memory map of one place, computed without GL: every storage as a block sized by its bytes, laid
// along wrapped rows like an address map; device/pinned blocks sit inside their allocator segments.
// Built only when the snapshot or pane size changes; drawing it is then O(quads), never O(storages).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gui/view_state/quad.h"
#include "trace/snapshot.h"

namespace ds::gui {

// Finds storages by id in a snapshot (storages are kept in id order; falls back to a sorted index).
class StorageIndex {
 public:
  void build(const Snapshot& snap);
  const StorageInfo* find(uint64_t id) const;

 private:
  const Snapshot* snap_ = nullptr;
  bool sorted_ = true;
  std::vector<uint32_t> order_;  // when the snapshot's storages are not in id order
};

// Fit: reserved bytes (live blocks and cached free ones) fill the panes; Allocated: live blocks do, and
// cached free blocks shrink to thin markers; Capacity: the whole device does.
// What a storage is called on screen: its owner, else the first name holding it, else "#id".
std::string display_name(const StorageInfo& s);

enum class MemoryScale { Fit, Allocated, Capacity };

struct MemoryLayoutOptions {
  MemoryScale scale = MemoryScale::Fit;
  // Pixels per byte to use; 0: the pane's own (fit_px_per_byte). The memory view passes the smallest
  // of all panes' own scales, so the same bytes take the same room in every pane.
  double px_per_byte = 0;
  float row_height = 20;    // block height
  float row_gap = 4;        // between rows
  float segment_gap = 3;    // between segments along a row
  float min_block_px = 3;   // smallest block while there is room; below this blocks fold
  float label_min_px = 64;  // blocks at least this wide get their owner's name (free blocks: their size)
  // Readable blocks: while there is room, every block (live or cached free) is at least as wide as its
  // label - label_char_px per character of its name (or of free_block_label()) plus label_pad_px - kept
  // within [readable_min_px, readable_max_px], so a 512-byte bias next to a 2 MiB free block still shows
  // its colour and its name. Where the blocks' labels do not fit the longest give way first,
  // then all shrink alike (and fold below min_block_px). 0: off (blocks are only min_block_px wide at least).
  float label_char_px = 0;
  float label_pad_px = 10;
  float readable_min_px = 28;
  float readable_max_px = 180;
};

// The text a cached free block is labelled with: "free 2.00 MiB".
std::string free_block_label(uint64_t bytes);

struct MemoryItem {
  double offset = 0;  // along the wrapped rows, in pixels
  double length = 0;
  uint64_t storage_id = 0;  // 0: a free block inside a segment
  uint64_t bytes = 0;
  int32_t segment = -1;     // index into Snapshot::segments, -1 for a loose storage
  Role role = Role::Tensor;
};

struct MemoryLabel {
  float x = 0, y = 0, w = 0;   // the item's widest row piece
  uint64_t storage_id = 0;     // 0: a cached free block (labelled with its size)
  uint64_t bytes = 0;
};

// Where a block continues on the next row (issue 24 item 4: a parameter wrapped over 13 rows read as 13
// blocks): a notch at the right end of each piece that goes on, and at the left of each piece that goes on
// from the row above. (x, y): the piece's edge and top, pane-relative.
struct WrapMark {
  float x = 0, y = 0;
  bool right = false;  // true: at a piece's right end ("continues below"); false: at a piece's left start
};

struct MemoryPaneLayout {
  size_t place_index = 0;
  Place place;
  float width = 0, height = 0;
  int rows = 0;
  float row_pitch = 0;
  float row_height = 0;
  double used_px = 0;       // linear pixels the items take
  double bytes_per_px = 0;  // scale used, for the legend ("1 px = 4.0 KiB")
  double fit_px_per_byte = 0;  // the scale this pane alone would use (0: nothing to draw)
  std::vector<MemoryItem> items;       // in offset order
  std::vector<Quad> quads;             // segment frames first, then blocks (folded where narrow)
  std::vector<MemoryLabel> labels;
  std::vector<WrapMark> wrap_marks;    // at most kMaxWrapMarks (wider pieces first in address order)
  static constexpr size_t kMaxWrapMarks = 4000;
  // Figures for tests and the view-model JSON.
  size_t blocks = 0;          // live storages drawn
  size_t segments = 0;
  size_t free_blocks = 0;     // cached free blocks inside segments
  size_t folded_quads = 0;
  std::map<Role, size_t> role_blocks;
  double min_live_px = 0;     // narrowest live block drawn (0 when none)
  size_t labelled_blocks = 0; // live blocks that carry their name
  size_t labelled_free = 0;   // cached free blocks that carry their size
  size_t widened_blocks = 0;  // live blocks drawn wider than the scale says (to fit their name, or 3 px)

  // Item under a point of the pane (pane-relative pixels); -1 when none.
  int item_at(float x, float y) const;
  // First row piece of an item: where to point at it.
  bool item_rect(size_t item, float* x, float* y, float* w, float* h) const;
  // Its widest row piece: where its label goes.
  bool widest_piece(size_t item, float* x, float* y, float* w) const;
  // Item index of a storage id; -1 when it is not in this pane.
  int find_storage(uint64_t id) const;

  std::vector<std::pair<uint64_t, uint32_t>> by_storage;  // (storage id, item index), sorted by id
};

// The scale line over a pane: "1 px \xe2\x89\x88 182 KiB", and when some live blocks are drawn wider than
// that (so they show their colour and name) it says so, rather than contradict a 40-byte bias drawn 80 px
// wide (issue 24 item 5). Spellings from the longest to the shortest (the header shows the first that
// fits, or none); empty when nothing is drawn.
std::vector<std::string> scale_notes(const MemoryPaneLayout& l);

MemoryPaneLayout layout_memory_pane(const Snapshot& snap, const StorageIndex& index, size_t place_index, float width,
                                    float height, const MemoryLayoutOptions& options = {});

}  // namespace ds::gui

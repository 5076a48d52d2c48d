// Memory map layout without GL: blocks sized by bytes inside their segments, folding that bounds the
// instance count, hit testing, and the common scale.
#include <gtest/gtest.h>

#include <cmath>

#include "gui/view_state/memory_layout.h"
#include "gui/view_state/palette.h"
#include "gui/view_state/synthetic_snapshot.h"

namespace ds::gui {
namespace {

// cuda:0 with one 2 MiB segment: a 1 MiB parameter, a 512 KiB cached free block, a 512 KiB buffer.
Snapshot small_device_snapshot() {
  Snapshot s;
  s.places.push_back({Place::pageable(), "host (pageable)", "", 0, 0, 0, false});
  s.places.push_back({Place::cuda(0), "cuda:0", "", 1536 << 10, 2 << 20, 16ull << 30, true});
  StorageInfo a;
  a.id = 1;
  a.place = Place::cuda(0);
  a.nbytes = a.block_bytes = 1 << 20;
  a.role = Role::Parameter;
  a.owner = "fc.weight";
  StorageInfo b = a;
  b.id = 2;
  b.nbytes = b.block_bytes = 512 << 10;
  b.role = Role::Buffer;
  b.owner = "bn.running_mean";
  s.storages = {a, b};
  SegmentInfo seg;
  seg.device = 0;
  seg.address = 0x1000000;
  seg.size = 2 << 20;
  seg.blocks = {{0x1000000, 1 << 20, true, 0, 1}, {0x1100000, 512 << 10, false, 0, 0}, {0x1180000, 512 << 10, true, 0, 2}};
  s.segments = {seg};
  return s;
}

TEST(MemoryLayout, BlocksFollowTheSegmentInAddressOrderSizedByBytes) {
  Snapshot s = small_device_snapshot();
  StorageIndex index;
  index.build(s);
  MemoryLayoutOptions o;
  o.row_height = 20;
  o.row_gap = 4;
  MemoryPaneLayout l = layout_memory_pane(s, index, 1, 400, 96, o);  // 4 rows of 400 px
  ASSERT_EQ(l.rows, 4);
  ASSERT_EQ(l.items.size(), 3u);
  EXPECT_EQ(l.blocks, 2u);
  EXPECT_EQ(l.free_blocks, 1u);
  EXPECT_EQ(l.segments, 1u);
  EXPECT_EQ(l.role_blocks[Role::Parameter], 1u);
  EXPECT_EQ(l.role_blocks[Role::Buffer], 1u);
  // Proportional: the parameter is twice the free block and the buffer.
  EXPECT_NEAR(l.items[0].length, 2 * l.items[1].length, 1e-6);
  EXPECT_NEAR(l.items[1].length, l.items[2].length, 1e-6);
  EXPECT_EQ(l.items[0].storage_id, 1u);
  EXPECT_EQ(l.items[1].storage_id, 0u);
  EXPECT_EQ(l.items[2].storage_id, 2u);
  // Fit: the used bytes fill nearly all of the 1600 linear pixels.
  EXPECT_GT(l.used_px, 1400);
  EXPECT_LE(l.used_px, 1600);
  // The parameter spans more than one row: its quads say where it continues.
  ASSERT_GE(l.quads.size(), 4u);
  EXPECT_EQ(l.quads[0].color, role_color(Role::Parameter));
  EXPECT_TRUE(l.quads[0].flags & kQuadOpenRight);
  EXPECT_TRUE(l.quads[1].flags & kQuadOpenLeft);
  // Hit testing: row 0, x 10 is the parameter; the last item is the buffer.
  EXPECT_EQ(l.item_at(10, 5), 0);
  EXPECT_EQ(l.item_at(10, 22), -1);  // in the gap between rows
  EXPECT_EQ(l.find_storage(2), 2);
  EXPECT_EQ(l.find_storage(99), -1);
  float x, y, w, h;
  ASSERT_TRUE(l.item_rect(2, &x, &y, &w, &h));
  EXPECT_EQ(l.item_at(x + 1, y + 1), 2);
}

TEST(MemoryLayout, TinyBlocksStayVisibleWithAMinimumWidth) {
  Snapshot s = small_device_snapshot();
  s.storages[1].nbytes = s.storages[1].block_bytes = 512;
  s.segments[0].blocks[2].size = 512;
  StorageIndex index;
  index.build(s);
  MemoryPaneLayout l = layout_memory_pane(s, index, 1, 400, 96);
  EXPECT_GE(l.items[2].length, 3.0);
}

// Lesson 000's cuda:0: two 512-byte blocks (a Linear's weight and bias) at the start of a 2 MiB segment.
Snapshot tiny_blocks_in_a_big_segment() {
  Snapshot s = small_device_snapshot();
  s.storages[0].nbytes = s.storages[0].block_bytes = 512;
  s.storages[0].owner = "model.weight";
  s.storages[1].nbytes = s.storages[1].block_bytes = 512;
  s.storages[1].owner = "model.bias";
  s.segments[0].blocks = {{0x1000000, 512, true, 0, 1}, {0x1000200, 512, true, 0, 2}, {0x1000400, (2 << 20) - 1024, false, 0, 0}};
  return s;
}

TEST(MemoryLayout, TinyBlocksBesideABigFreeSegmentAreAsWideAsTheirLabels) {
  Snapshot s = tiny_blocks_in_a_big_segment();
  StorageIndex index;
  index.build(s);
  MemoryLayoutOptions o;
  o.label_char_px = 7;
  o.label_min_px = 31;
  o.readable_min_px = 31;
  MemoryPaneLayout l = layout_memory_pane(s, index, 1, 400, 96, o);
  ASSERT_EQ(l.items.size(), 3u);
  // "model.weight": 12 characters at 7 px plus the 10 px pad; "model.bias": 10.
  EXPECT_GE(l.items[0].length, 12 * 7 + 10 - 1e-6);
  EXPECT_GE(l.items[1].length, 10 * 7 + 10 - 1e-6);
  EXPECT_NEAR(l.min_live_px, l.items[1].length, 1e-9);
  // Both blocks and the free block carry labels; the free one says its size.
  EXPECT_EQ(l.labelled_blocks, 2u);
  EXPECT_EQ(l.labelled_free, 1u);
  bool free_label = false;
  for (const MemoryLabel& lab : l.labels) free_label = free_label || (lab.storage_id == 0 && lab.bytes == (2u << 20) - 1024);
  EXPECT_TRUE(free_label);
  EXPECT_EQ(free_block_label((2u << 20) - 1024), "free 2 MiB");
  // The old minimum: a 3 px sliver with no label.
  MemoryPaneLayout old = layout_memory_pane(s, index, 1, 400, 96);
  EXPECT_LT(old.items[0].length, 4.0);
  EXPECT_EQ(old.labelled_blocks, 0u);
}

TEST(MemoryLayout, LongNamesGiveWayBeforeShortOnes) {
  Snapshot s = tiny_blocks_in_a_big_segment();
  s.storages[0].owner = "x";
  s.storages[1].owner = "dataset.tensors[0].a_very_long_attribute_name";
  StorageIndex index;
  index.build(s);
  MemoryLayoutOptions o;
  o.label_char_px = 7;
  o.readable_min_px = 24;
  o.readable_max_px = 1000;
  MemoryPaneLayout l = layout_memory_pane(s, index, 1, 200, 20, o);  // one row: 200 px for three labels
  ASSERT_EQ(l.items.size(), 3u);
  EXPECT_NEAR(l.items[0].length, 24, 1e-6);           // "x": the readable minimum, whole
  EXPECT_LT(l.items[1].length, 46 * 7 + 10);          // the long name is capped...
  EXPECT_GE(l.items[1].length, 24);                   // ...but stays readable
  EXPECT_LE(l.used_px, 200);
}

TEST(MemoryLayout, ReadableMinimumGivesWayWhenBlocksDoNotFit) {
  SyntheticOptions so;
  so.storages = 5000;
  so.transfers = 0;
  Snapshot s = make_synthetic_snapshot(so);
  StorageIndex index;
  index.build(s);
  MemoryLayoutOptions o;
  o.label_char_px = 7;
  for (size_t p = 0; p < s.places.size(); ++p) {
    MemoryPaneLayout l = layout_memory_pane(s, index, p, 300, 200, o);
    // Everything still fits the rows (nothing is pushed out) and is counted.
    EXPECT_LE(l.used_px, double(l.rows) * 300 + 1) << s.places[p].label;
  }
}

TEST(MemoryLayout, LabelsGoOnTheWidestRowPiece) {
  Snapshot s = small_device_snapshot();
  StorageIndex index;
  index.build(s);
  MemoryPaneLayout l = layout_memory_pane(s, index, 1, 400, 96);
  // The 1 MiB parameter fills row 0 and part of row 1: its label sits on row 0's full-width piece.
  float x, y, w;
  ASSERT_TRUE(l.widest_piece(0, &x, &y, &w));
  EXPECT_EQ(y, 0.0f);
  EXPECT_NEAR(w, 400.0f, 1e-3);
  // The buffer wraps from row 2 to row 3 or sits in one: its label piece is its widest.
  ASSERT_TRUE(l.widest_piece(2, &x, &y, &w));
  float fx, fy, fw, fh;
  ASSERT_TRUE(l.item_rect(2, &fx, &fy, &fw, &fh));
  EXPECT_GE(w, fw);
}

// Issue 24 items 4 and 5: a block wrapped over rows is marked where it continues, and the scale line
// says when small blocks are drawn wider than the scale.
TEST(MemoryLayout, WrappedBlocksCarryContinuationMarks) {
  Snapshot s = small_device_snapshot();
  StorageIndex index;
  index.build(s);
  MemoryPaneLayout l = layout_memory_pane(s, index, 1, 400, 96);
  // The parameter runs from row 0 into row 1: a mark at row 0's right end and one at row 1's start.
  bool right0 = false, left1 = false;
  for (const WrapMark& m : l.wrap_marks) {
    right0 = right0 || (m.right && m.y == 0.0f && std::abs(m.x - 400.0f) < 1e-3f);
    left1 = left1 || (!m.right && m.y == l.row_pitch && m.x == 0.0f);
  }
  EXPECT_TRUE(right0);
  EXPECT_TRUE(left1);
  // Marks come in pairs (an end and the next start).
  size_t rights = 0;
  for (const WrapMark& m : l.wrap_marks) rights += m.right;
  EXPECT_EQ(2 * rights, l.wrap_marks.size());
  // Proportional blocks: the scale line is only the scale.
  EXPECT_EQ(l.widened_blocks, 0u);
  ASSERT_EQ(scale_notes(l).size(), 1u);
  EXPECT_EQ(scale_notes(l)[0].rfind("1 px \xe2\x89\x88 ", 0), 0u);
}

TEST(MemoryLayout, ScaleNoteSaysWhenSmallBlocksAreWidened) {
  // A 40-byte bias beside a 1 MiB weight: at the weight's scale the bias is far under a pixel, so it is
  // drawn wider, and the scale line says so.
  Snapshot s = small_device_snapshot();
  s.storages[1].nbytes = s.storages[1].block_bytes = 40;
  s.segments[0].blocks[2].size = 40;
  StorageIndex index;
  index.build(s);
  MemoryLayoutOptions o;
  o.label_char_px = 7;
  MemoryPaneLayout l = layout_memory_pane(s, index, 1, 400, 96, o);
  EXPECT_EQ(l.widened_blocks, 1u);
  ASSERT_FALSE(scale_notes(l).empty());
  EXPECT_NE(scale_notes(l)[0].find("1 small block drawn wider"), std::string::npos) << scale_notes(l)[0];
  // Every shorter spelling still says it (none is a bare scale that the drawing contradicts).
  for (const std::string& n : scale_notes(l)) EXPECT_TRUE(n.find("wider") != std::string::npos || n.find("not to scale") != std::string::npos) << n;
}

TEST(MemoryLayout, CommonScaleShrinksAPaneToTheOthers) {
  Snapshot s = small_device_snapshot();
  StorageIndex index;
  index.build(s);
  MemoryPaneLayout own = layout_memory_pane(s, index, 1, 400, 96);
  MemoryLayoutOptions o;
  o.px_per_byte = own.fit_px_per_byte / 4;
  MemoryPaneLayout shared = layout_memory_pane(s, index, 1, 400, 96, o);
  // The 3 px gap after the segment does not scale.
  EXPECT_NEAR(shared.used_px - 3, (own.used_px - 3) / 4, 1e-6);
  EXPECT_NEAR(shared.bytes_per_px, 4.0 / own.fit_px_per_byte, 1e-6);
}

TEST(MemoryLayout, InstancesAreBoundedByPixelsNotByStorages) {
  SyntheticOptions o;
  o.storages = 200000;
  o.transfers = 0;
  Snapshot s = make_synthetic_snapshot(o);
  StorageIndex index;
  index.build(s);
  for (size_t p = 0; p < s.places.size(); ++p) {
    MemoryPaneLayout l = layout_memory_pane(s, index, p, 300, 200);
    const double linear = double(l.rows) * 300;
    // At most about one quad per 3 pixels of the rows (folding), plus row splits.
    EXPECT_LT(double(l.quads.size()), linear / 3 + 2 * l.rows) << s.places[p].label;
    EXPECT_GT(l.folded_quads, 0u) << s.places[p].label;
    size_t blocks = 0;
    for (const StorageInfo& st : s.storages) blocks += st.place == s.places[p].place;
    EXPECT_EQ(l.blocks, blocks) << s.places[p].label;  // every storage is accounted for
  }
}

TEST(MemoryLayout, StorageIndexFindsByIdInAnyOrder) {
  Snapshot s = small_device_snapshot();
  std::swap(s.storages[0], s.storages[1]);
  StorageIndex index;
  index.build(s);
  ASSERT_NE(index.find(1), nullptr);
  EXPECT_EQ(index.find(1)->owner, "fc.weight");
  EXPECT_EQ(index.find(3), nullptr);
}

}  // namespace
}  // namespace ds::gui

// Memory map layout without GL: blocks sized by bytes inside their segments, folding that bounds the
// instance count, hit testing, and the common scale.
#include <gtest/gtest.h>

#include "gui/model/memory_layout.h"
#include "gui/model/palette.h"
#include "gui/model/synthetic_snapshot.h"

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

// Memory over time's stacked area rasterized per pixel column (view_state/stacked_columns.h).
#include <gtest/gtest.h>

#include "gui/view_state/stacked_columns.h"

namespace ds::gui {
namespace {

constexpr uint32_t kA = 0xff0000ffu, kB = 0xff00ff00u, kPeak = 0xffffffffu;

uint32_t at(const StackedImage& img, int x, int y_from_bottom) {
  return img.pixels[size_t(img.height - 1 - y_from_bottom) * size_t(img.width) + size_t(x)];
}

TEST(StackedColumns, StacksBottomUpToScale) {
  // Two buckets over 4 columns: each bucket takes two columns. Bucket 0: A 25, B 25; bucket 1: A 50.
  const std::vector<std::vector<uint64_t>> rows = {{25, 50}, {25, 0}};
  const std::vector<uint64_t> high = {50, 50};
  StackedSource src{&rows, &high, {kA, kB}, kPeak};
  const StackedImage img = rasterize_stacked(src, 0, 1, 100.0, 4, 8);
  ASSERT_EQ(img.pixels.size(), 32u);
  for (int x : {0, 1}) {
    EXPECT_EQ(at(img, x, 0), kA);
    EXPECT_EQ(at(img, x, 1), kA);
    EXPECT_EQ(at(img, x, 2), kB);
    EXPECT_EQ(at(img, x, 3), kB);
    EXPECT_EQ(at(img, x, 4), 0u);  // above the stack: transparent
  }
  for (int x : {2, 3}) {
    EXPECT_EQ(at(img, x, 3), kA);
    EXPECT_EQ(at(img, x, 4), 0u);
  }
}

TEST(StackedColumns, AColumnOverManyBucketsShowsTheBusiestAndItsPeak) {
  // Four buckets in one column: bucket 2 reached the highest total inside it (80) but ends at 10.
  const std::vector<std::vector<uint64_t>> rows = {{10, 20, 10, 5}};
  const std::vector<uint64_t> high = {10, 20, 80, 5};
  StackedSource src{&rows, &high, {kA}, kPeak};
  const StackedImage img = rasterize_stacked(src, 0, 3, 100.0, 1, 10);
  EXPECT_EQ(at(img, 0, 0), kA);     // bucket 2's 10 bytes: one row
  EXPECT_EQ(at(img, 0, 1), 0u);
  EXPECT_EQ(at(img, 0, 8), kPeak);  // its in-bucket high, 80 of 100
  EXPECT_EQ(column_first_bucket(0, 3, 1, 0), 0u);
  EXPECT_EQ(column_first_bucket(0, 3, 1, 1), 4u);
}

TEST(StackedColumns, AZoomedStretchStartsAtItsFirstBucket) {
  const std::vector<std::vector<uint64_t>> rows = {{0, 0, 100, 100}};
  const std::vector<uint64_t> high = {0, 0, 100, 100};
  StackedSource src{&rows, &high, {kA}, kPeak};
  const StackedImage img = rasterize_stacked(src, 2, 3, 100.0, 2, 4);
  for (int x : {0, 1})
    for (int y = 0; y < 4; ++y) EXPECT_EQ(at(img, x, y), kA);
  EXPECT_TRUE(rasterize_stacked(src, 0, 3, 100.0, 0, 4).pixels.empty());  // no room: nothing
}

}  // namespace
}  // namespace ds::gui

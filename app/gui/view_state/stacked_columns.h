// Memory over time's stacked area as an image, one pixel column at a time (issue 24: 59 ms frames with a
// 1M-entry snapshot open, most of it llvmpipe filling thousands of one-pixel-wide rectangles every frame).
// The chart is rasterized here once per zoom, plot size and grouping, uploaded as a texture and drawn as one
// quad each frame. Each column shows the bucket with the highest total among those it covers (a peak never
// disappears between columns), its categories stacked from the bottom, and a one-pixel mark at the highest
// total reached inside that bucket when it is above the bucket's end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ds::gui {

struct StackedImage {
  int width = 0, height = 0;
  std::vector<uint32_t> pixels;  // RGBA8 as ImU32 (IM_COL32 byte order), top row first; 0: transparent
};

struct StackedSource {
  const std::vector<std::vector<uint64_t>>* rows = nullptr;  // [category][bucket]: bytes at the bucket's end
  const std::vector<uint64_t>* bucket_max = nullptr;          // the highest total inside each bucket
  std::vector<uint32_t> colors;                               // per category
  uint32_t peak_color = 0;                                    // the in-bucket highest mark
};

// Buckets [lo, hi] over `width` x `height` pixels, `top` bytes at the top row.
StackedImage rasterize_stacked(const StackedSource& src, size_t lo, size_t hi, double top, int width, int height);

// The first bucket pixel column x covers (buckets wider than a pixel span several columns).
size_t column_first_bucket(size_t lo, size_t hi, int width, int x);

}  // namespace ds::gui

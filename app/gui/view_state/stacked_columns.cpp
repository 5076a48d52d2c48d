// rasterize_stacked: per pixel column, the busiest bucket's stack filled bottom up.
#include "gui/view_state/stacked_columns.h"

#include <algorithm>
#include <cmath>

namespace ds::gui {

size_t column_first_bucket(size_t lo, size_t hi, int width, int x) {
  const size_t n = hi - lo + 1;
  return lo + size_t(double(x) * double(n) / double(std::max(width, 1)));
}

StackedImage rasterize_stacked(const StackedSource& src, size_t lo, size_t hi, double top, int width, int height) {
  StackedImage img;
  if (width <= 0 || height <= 0 || hi < lo || top <= 0 || !src.rows || !src.bucket_max) return img;
  img.width = width;
  img.height = height;
  img.pixels.assign(size_t(width) * size_t(height), 0);
  const auto& rows = *src.rows;
  const auto& high = *src.bucket_max;
  hi = std::min(hi, high.size() - 1);
  // Rows from the bottom: bytes -> the pixel row boundary (0 at the bottom edge, height at the top).
  auto level = [&](double bytes) { return std::clamp(int(std::lround(bytes / top * height)), 0, height); };
  auto put = [&](int x, int from, int to, uint32_t c) {  // bottom-based rows [from, to)
    for (int y = from; y < to; ++y) img.pixels[size_t(height - 1 - y) * size_t(width) + size_t(x)] = c;
  };
  for (int x = 0; x < width; ++x) {
    const size_t first = column_first_bucket(lo, hi, width, x);
    const size_t next = column_first_bucket(lo, hi, width, x + 1);  // the same bucket when buckets are wide
    const size_t last = next > first ? std::min(hi, next - 1) : first;
    size_t b = first;
    for (size_t k = first; k <= last && k < high.size(); ++k)
      if (high[k] >= high[b]) b = k;
    double cum = 0;
    for (size_t c = 0; c < rows.size(); ++c) {
      const double v = double(rows[c][b]);
      if (v > 0) put(x, level(cum), level(cum + v), c < src.colors.size() ? src.colors[c] : 0xffffffffu);
      cum += v;
    }
    if (double(high[b]) > cum) {
      const int y = std::min(level(double(high[b])), height - 1);
      put(x, y, y + 1, src.peak_color);
    }
  }
  return img;
}

}  // namespace ds::gui

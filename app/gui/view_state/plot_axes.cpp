// Binary size ticks, data ranges, hue distances and label placement for the log-log plots.
#include "gui/view_state/plot_axes.h"

#include <algorithm>
#include <cmath>

namespace ds::gui {

std::string binary_size_label(int p) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (p < 0) return "";
  const int unit = std::min(p / 10, 5);
  const long long mantissa = 1LL << (p - unit * 10);
  return std::to_string(mantissa) + " " + units[unit];
}

std::vector<AxisTick> binary_size_ticks(double lx_min, double lx_max, float width_px, float min_spacing_px) {
  std::vector<AxisTick> ticks;
  if (!(lx_max > lx_min) || width_px <= 0) return ticks;
  const double log2_10 = std::log2(10.0);
  const double p_min = lx_min * log2_10, p_max = lx_max * log2_10;  // the range in powers of two
  const double px_per_power = width_px / (p_max - p_min);
  // Steps that keep labels round: every power, every 2nd, ..., every 10th (one per unit), then more units.
  static const int steps[] = {1, 2, 5, 10, 20, 30};
  int step = 30;
  for (int s : steps)
    if (px_per_power * s >= min_spacing_px) {
      step = s;
      break;
    }
  for (int p = int(std::ceil(std::max(p_min, 0.0) / step)) * step; p <= p_max + 1e-9; p += step)
    if (p >= p_min - 1e-9) ticks.push_back({p / log2_10, binary_size_label(p)});
  return ticks;
}

void fit_log_range(double lo, double hi, double margin, double min_span, double* out_min, double* out_max) {
  double a = std::floor(lo - margin), b = std::ceil(hi + margin);
  while (b - a < min_span) {  // grow on the side with less room, so the data stays central
    if (lo - a <= b - hi) a -= 1;
    else b += 1;
  }
  *out_min = a, *out_max = b;
}

double hue_degrees(uint32_t c) {
  const double r = (c & 0xff) / 255.0, g = ((c >> 8) & 0xff) / 255.0, b = ((c >> 16) & 0xff) / 255.0;
  const double mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
  if (d <= 0) return 0;
  double h;
  if (mx == r) h = std::fmod((g - b) / d, 6.0);
  else if (mx == g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  h *= 60;
  return h < 0 ? h + 360 : h;
}

double hue_distance(double a, double b) {
  const double d = std::fabs(a - b);
  return std::min(d, 360 - d);
}

bool rects_overlap(const LabelRect& a, const LabelRect& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

bool segment_crosses(const LabelSegment& s, const LabelRect& r) {
  // Liang-Barsky: clip the segment's parameter range against the rectangle's four sides.
  const float dx = s.x1 - s.x0, dy = s.y1 - s.y0;
  float t0 = 0, t1 = 1;
  const float p[4] = {-dx, dx, -dy, dy};
  const float q[4] = {s.x0 - r.x0, r.x1 - s.x0, s.y0 - r.y0, r.y1 - s.y0};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;  // parallel and outside
      continue;
    }
    const float t = q[i] / p[i];
    if (p[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

LabelRect place_line_label(float y, float w, float h, float x_lo, float x_hi, float y_lo, float y_hi,
                           const std::vector<LabelRect>& placed, const std::vector<LabelSegment>& curves) {
  LabelRect best;
  int best_hits = -1;
  const float pad = 4, slide = std::max(w * 0.25f, 24.0f);
  for (float right = x_hi - pad;; right -= slide) {
    for (int side = 0; side < 2; ++side) {
      LabelRect r{right - w, side == 0 ? y - h - 1 : y + 2, right, side == 0 ? y - 1 : y + h + 2};
      if (r.y0 < y_lo || r.y1 > y_hi) continue;
      int hits = 0;
      for (const LabelRect& q : placed) hits += rects_overlap(r, q) ? 4 : 0;  // covering a label is worse
      for (const LabelSegment& s : curves) hits += segment_crosses(s, r) ? 1 : 0;
      if (hits == 0) return r;
      if (best_hits < 0 || hits < best_hits) best = r, best_hits = hits;
    }
    if (right - w < x_lo + pad) break;
  }
  if (best_hits < 0) best = {x_hi - pad - w, y - h - 1, x_hi - pad, y - 1};  // no room inside: above the line
  return best;
}

}  // namespace ds::gui

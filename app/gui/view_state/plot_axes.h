// GL-free helpers of the log-log plots (Transfers > Bandwidth vs size, Bench): size ticks in binary
// units (the app says KiB/MiB everywhere), data ranges that include every point, hue distances, and
// placing a line's label where it covers neither another label nor a curve.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ds::gui {

struct AxisTick {
  double value = 0;   // log10 units, as the plot maps them
  std::string label;  // "16 KiB"
};

// Ticks at powers of two (1 B, 2 B, ... 16 KiB, 1 MiB), every 2^step with the smallest step that keeps
// ticks at least `min_spacing_px` apart on an axis `width_px` wide spanning 10^lx_min .. 10^lx_max bytes.
std::vector<AxisTick> binary_size_ticks(double lx_min, double lx_max, float width_px, float min_spacing_px);
std::string binary_size_label(int power_of_two);  // 14 -> "16 KiB", 20 -> "1 MiB"

// A log10 range of whole decades holding [lo - margin, hi + margin], at least `min_span` decades wide.
void fit_log_range(double lo, double hi, double margin, double min_span, double* out_min, double* out_max);

// Hue of a packed 0xAABBGGRR colour in degrees [0, 360); the distance between two hues on the circle.
double hue_degrees(uint32_t rgba);
double hue_distance(double a, double b);

struct LabelRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
struct LabelSegment {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
bool rects_overlap(const LabelRect& a, const LabelRect& b);
bool segment_crosses(const LabelSegment& s, const LabelRect& r);

// Where the label (w x h) of a horizontal line at screen y goes: right-aligned just above the line,
// else just below it, sliding left in steps, inside [x_lo, x_hi] x [y_lo, y_hi]; the first spot that
// overlaps no label in `placed` and no segment of `curves`, else the spot with the fewest collisions.
LabelRect place_line_label(float y, float w, float h, float x_lo, float x_hi, float y_lo, float y_hi,
                           const std::vector<LabelRect>& placed, const std::vector<LabelSegment>& curves);

}  // namespace ds::gui

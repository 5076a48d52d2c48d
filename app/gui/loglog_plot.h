// The log-log "GB/s against size" plot frame shared by the Transfers view's bandwidth tab and the Bench
// view: background, decade grid, byte and rate labels, coordinate mapping and the hover read-out.
#pragma once

#include <imgui.h>

namespace ds::gui {

struct LogLogPlot {
  // Ranges in log10 units: bytes 10^x_min .. 10^x_max, GB/s 10^y_min .. 10^y_max.
  double x_min = 2, x_max = 10.5, y_min = -3, y_max = 3.5;
  ImVec2 p0, p1;          // the plot area (inside the axis labels), screen coordinates
  bool hovered = false;   // the mouse is over the plot's button this frame

  float X(double lx) const { return p0.x + float((lx - x_min) / (x_max - x_min)) * (p1.x - p0.x); }
  float Y(double ly) const { return p1.y - float((ly - y_min) / (y_max - y_min)) * (p1.y - p0.y); }
  double lx_at(float x) const { return x_min + (x - p0.x) / (p1.x - p0.x) * (x_max - x_min); }
  double ly_at(float y) const { return y_min + (p1.y - y) / (p1.y - p0.y) * (y_max - y_min); }
  bool inside(ImVec2 m) const { return m.x >= p0.x && m.x <= p1.x && m.y >= p0.y && m.y <= p1.y; }
};

// Takes `size` of the window (an invisible button `id`), draws the background, grid and labels, and
// pushes a clip rect onto the window's draw list. False (nothing pushed) when there is no room.
bool begin_loglog_plot(const char* id, ImVec2 size, LogLogPlot* plot);
// Pops the clip rect, draws the border, `empty_message` centred when not null, and the size/rate
// under the mouse as a tooltip unless `tooltip_taken` (a point's own tooltip wins).
void end_loglog_plot(const LogLogPlot& plot, const char* empty_message, bool tooltip_taken = false);

// A point's marker: 0 circle, 1 square, 2 triangle, 3 diamond, 4 down triangle, else a cross (bench_marker's
// shapes for route x memory), outlined so that it stands out from a line or a marker under it.
void draw_plot_marker(ImDrawList* dl, ImVec2 c, int marker, ImU32 col, float r);

}  // namespace ds::gui

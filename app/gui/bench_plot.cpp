// Bench window: the log-log GB/s-against-size plot (the shared LogLogPlot frame), its series legend and
// filters, and the tables of points and of the pinning cost for the selected run.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "gui/bench_view.h"
#include "gui/loglog_plot.h"
#include "gui/view_state/plot_axes.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

const char* const kRoutes[4] = {"h2d", "d2h", "d2d", "p2p"};
const char* const kMemory[2] = {"pinned", "pageable"};
const char* const kModes[2] = {"sync", "async"};

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thickness, float dash = 6, float gap = 4) {
  const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
  if (len <= 0) return;
  for (float t = 0; t < len; t += dash + gap) {
    const float e = std::min(t + dash, len);
    dl->AddLine(ImVec2(a.x + dx * t / len, a.y + dy * t / len), ImVec2(a.x + dx * e / len, a.y + dy * e / len), col, thickness);
  }
}

std::string vs_raw_text(const SweepPoint& p) {
  if (p.raw_ns <= 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.3f", p.vs_raw);
  return buf;
}

}  // namespace

void BenchView::draw_plot() {
  // Filters and colour mode.
  bool changed = false;
  ImGui::PushID("show");
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("Show");
  for (int i = 0; i < 4; ++i) ImGui::SameLine(), changed |= ImGui::Checkbox(kRoutes[i], &show_route_[i]);
  ImGui::SameLine(0, 14);
  for (int i = 0; i < 2; ++i) ImGui::SameLine(), changed |= ImGui::Checkbox(kMemory[i], &show_memory_[i]);
  ImGui::SameLine(0, 14);
  for (int i = 0; i < 2; ++i) ImGui::SameLine(), changed |= ImGui::Checkbox(i == 0 ? "sync (solid)" : "async (dashed)", &show_mode_[i]);
  ImGui::PopID();
  ImGui::SameLine(0, 14);
  ImGui::TextDisabled("Colour by");
  ImGui::SameLine();
  static const char* const kColorModes[] = {"auto", "series", "run"};
  int cm = color_mode_ + 1;
  ImGui::SetNextItemWidth(90);
  if (ImGui::Combo("##colour", &cm, kColorModes, 3)) color_mode_ = cm - 1, changed = true;
  if (changed) {
    BenchFilter f;
    for (int i = 0; i < 4; ++i) if (show_route_[i]) f.routes.push_back(kRoutes[i]);
    for (int i = 0; i < 2; ++i) if (show_memory_[i]) f.memory.push_back(kMemory[i]);
    for (int i = 0; i < 2; ++i) if (show_mode_[i]) f.modes.push_back(kModes[i]);
    // An emptied group shows nothing (an empty list would mean "everything").
    if (f.routes.empty()) f.routes.push_back("none");
    if (f.memory.empty()) f.memory.push_back("none");
    if (f.modes.empty()) f.modes.push_back("none");
    plot_.build(runs_, f, color_mode_);
  }

  // Series legend: one entry per route x memory x mode (of the first visible run when colours mean runs).
  const float legend_w = 230;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  LogLogPlot plot;
  plot.x_min = plot_.x_min, plot.x_max = plot_.x_max, plot.y_min = plot_.y_min, plot.y_max = plot_.y_max;
  const ImVec2 legend_pos(ImGui::GetCursorScreenPos().x + avail.x - legend_w, ImGui::GetCursorScreenPos().y);
  if (!begin_loglog_plot("##bench_plot", ImVec2(avail.x - legend_w - 8, avail.y), &plot)) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImFont* fs = fonts().small;
  // The link profile's nominal rate: one dotted line per distinct rate, naming the routes it is for
  // (in their colour when they share one, else neutral).
  struct Nominal {
    double gbps;
    std::string routes;
    ImU32 color;
  };
  std::vector<Nominal> nominal;
  for (const BenchSeries& s : plot_.series) {
    if (s.link_gbps <= 0) continue;
    auto it = std::find_if(nominal.begin(), nominal.end(), [&](const Nominal& n) { return std::abs(n.gbps - s.link_gbps) < 1e-9; });
    const std::string route = s.route == "h2d" || s.route == "d2h" ? s.route + " " + s.memory : s.route;
    if (it == nominal.end()) {
      nominal.push_back({s.link_gbps, route, s.color});
    } else {
      if (it->routes.find(route) == std::string::npos) it->routes += ", " + route;
      if (it->color != s.color) it->color = theme::kTextDim;
    }
  }
  // Labels sit on their line, clear of the series' lines and markers and of each other
  // (place_line_label slides them left, or below the line, until nothing is covered).
  std::vector<LabelSegment> curves;
  for (const BenchSeries& s : plot_.series)
    for (size_t k = 0; k < s.points.size(); ++k) {
      const ImVec2 b(plot.X(s.points[k].first), plot.Y(s.points[k].second));
      curves.push_back({b.x - 5, b.y - 5, b.x + 5, b.y + 5});  // the marker
      if (k) curves.push_back({plot.X(s.points[k - 1].first), plot.Y(s.points[k - 1].second), b.x, b.y});
    }
  // Every line first, then the labels on opaque backgrounds: lines a few pixels apart (22, 25 and
  // 26 GB/s) must not strike through each other's labels.
  for (const Nominal& n : nominal) {
    const float y = plot.Y(std::log10(n.gbps));
    dashed_line(dl, ImVec2(plot.p0.x, y), ImVec2(plot.p1.x, y), with_alpha(n.color, 0.6f), 1.0f, 3, 4);
  }
  std::vector<LabelRect> placed;
  for (const Nominal& n : nominal) {
    const ImU32 col = with_alpha(n.color, 0.6f);
    const float y = plot.Y(std::log10(n.gbps));
    const std::string label = "link " + fmt_rate(n.gbps) + " (" + n.routes + ")";
    const ImVec2 ts = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, label.c_str());
    const LabelRect r = place_line_label(y, ts.x, ts.y, plot.p0.x, plot.p1.x, plot.p0.y, plot.p1.y, placed, curves);
    placed.push_back(r);
    dl->AddRectFilled(ImVec2(r.x0 - 2, r.y0), ImVec2(r.x1 + 2, r.y1), IM_COL32(0x14, 0x17, 0x1d, 0xf0));
    dl->AddText(fs, fs->FontSize, ImVec2(r.x0, r.y0), lighten(col, 0.2f), label.c_str());
  }
  // Lines, then markers on top; the point nearest the mouse gets a tooltip.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const BenchSeries* near_s = nullptr;
  size_t near_k = 0;
  float near_d = 8 * 8;
  for (const BenchSeries& s : plot_.series)
    for (size_t k = 1; k < s.points.size(); ++k) {
      const ImVec2 a(plot.X(s.points[k - 1].first), plot.Y(s.points[k - 1].second));
      const ImVec2 b(plot.X(s.points[k].first), plot.Y(s.points[k].second));
      if (s.dashed) dashed_line(dl, a, b, with_alpha(s.color, 0.85f), 1.6f);
      else dl->AddLine(a, b, with_alpha(s.color, 0.85f), 2.0f);
    }
  for (const BenchSeries& s : plot_.series)
    for (size_t k = 0; k < s.points.size(); ++k) {
      const ImVec2 c(plot.X(s.points[k].first), plot.Y(s.points[k].second));
      draw_plot_marker(dl, c, s.marker, s.color, 3.5f);
      const float dx = c.x - mouse.x, dy = c.y - mouse.y;
      if (plot.hovered && dx * dx + dy * dy < near_d) near_d = dx * dx + dy * dy, near_s = &s, near_k = k;
    }
  const bool running_now = running();
  end_loglog_plot(plot, plot_.series.empty() ? (running_now ? "Measuring\xe2\x80\xa6" : runs_.empty() ? "No sweep yet." : "Nothing to show with these filters.") : nullptr,
                  near_s != nullptr);
  if (near_s) {
    const BenchRun& run = runs_[near_s->run];
    const SweepPoint& p = run.result.points[near_s->point_index[near_k]];
    ImGui::BeginTooltip();
    ImGui::Text("%s  %s  (run #%d)", near_s->name.c_str(), fmt_bytes(p.bytes).c_str(), run.number);
    ImGui::Text("median %s   p10 %s   p90 %s", fmt_duration(p.median_ns).c_str(), fmt_duration(p.p10_ns).c_str(),
                fmt_duration(p.p90_ns).c_str());
    ImGui::Text("%s  (link %s)", fmt_rate(p.gbps).c_str(), fmt_rate(p.link_gbps).c_str());
    if (p.raw_ns > 0) ImGui::Text("vs raw cudaMemcpyAsync: %.3f", p.vs_raw);
    ImGui::TextDisabled("%s", run.legend().c_str());
    ImGui::EndTooltip();
  }

  // Legend beside the plot.
  ImGui::SetCursorScreenPos(legend_pos);
  ImGui::BeginChild("##bench_legend", ImVec2(legend_w, avail.y), false);
  ImDrawList* ld = ImGui::GetWindowDrawList();
  size_t last_run = SIZE_MAX;
  for (const BenchSeries& s : plot_.series) {
    if (s.run != last_run) {
      last_run = s.run;
      const BenchRun& r = runs_[s.run];
      ImGui::PushFont(fonts().bold);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(plot_.color_by_run ? bench_run_color(r.number) : theme::kText), "Run #%d", r.number);
      ImGui::PopFont();
      ImGui::SameLine();
      ImGui::TextDisabled("%s, %s", r.result.backend.c_str(), r.result.link.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.legend().c_str());
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    if (s.dashed) dashed_line(ld, ImVec2(p.x, p.y + h * 0.5f), ImVec2(p.x + 26, p.y + h * 0.5f), s.color, 1.6f, 5, 3);
    else ld->AddLine(ImVec2(p.x, p.y + h * 0.5f), ImVec2(p.x + 26, p.y + h * 0.5f), s.color, 2.0f);
    draw_plot_marker(ld, ImVec2(p.x + 13, p.y + h * 0.5f), s.marker, s.color, 3.5f);
    ImGui::Dummy(ImVec2(32, h));
    ImGui::SameLine();
    ImGui::Text("%s", s.name.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%zu", s.points.size());
  }
  ImGui::EndChild();
}

void BenchView::draw_points_table() {
  if (!has_run()) return;
  const BenchRun& run = runs_[table_run_];
  const bool raw = !run.result.simulated;
  ImGui::TextDisabled("Run #%d: %zu points; durations %s.", run.number, run.result.points.size(),
                      run.result.simulated ? "modelled from the link profile (SIMULATED)" : "from CUDA events");
  const int cols = raw ? 11 : 10;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingStretchProp;
  ImGui::PushFont(fonts().mono);
  if (ImGui::BeginTable("##bench_points", cols, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"route", "memory", "mode", "size", "median", "p10", "p90", "GB/s", "link GB/s"}) ImGui::TableSetupColumn(h);
    if (raw) ImGui::TableSetupColumn("vs raw");
    ImGui::TableSetupColumn("host/call");
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(int(run.result.points.size()));
    while (clip.Step())
      for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
        const SweepPoint& p = run.result.points[size_t(i)];
        ImGui::TableNextRow();
        int c = 0;
        auto cell = [&](const std::string& t, ImU32 col = 0) {
          ImGui::TableSetColumnIndex(c++);
          if (col) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(col), "%s", t.c_str());
          else ImGui::TextUnformatted(t.c_str());
        };
        cell(p.route, bench_series_color(p.route, p.memory));
        cell(p.memory);
        cell(p.mode);
        cell(fmt_bytes(p.bytes));
        cell(fmt_duration(p.median_ns));
        cell(fmt_duration(p.p10_ns));
        cell(fmt_duration(p.p90_ns));
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f", p.gbps);
        cell(buf);
        std::snprintf(buf, sizeof buf, "%.1f", p.link_gbps);
        cell(buf, theme::kTextDim);
        if (raw) cell(vs_raw_text(p), p.raw_ns > 0 && p.vs_raw < 0.97 ? theme::kWarning : 0);
        cell(fmt_duration(p.host_ns), theme::kTextDim);
      }
    ImGui::EndTable();
  }
  ImGui::PopFont();
}

void BenchView::draw_pinning_table() {
  if (!has_run()) return;
  const BenchRun& run = runs_[table_run_];
  if (run.result.pinning.empty()) {
    ImGui::TextDisabled("No pinning figures: they need h2d with both pinned and pageable memory in sync mode.");
    return;
  }
  ImGui::TextDisabled("Cost of pinning a buffer (%s) and how many H2D copies repay it.",
                      run.result.pinning.front().measured ? "cudaHostRegister, measured"
                                                          : "host page-faulting measured here; devices SIMULATED");
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  ImGui::PushFont(fonts().mono);
  if (ImGui::BeginTable("##bench_pinning", 5, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"size", "pin cost", "pin GB/s", "saved per copy", "reuses to repay"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const PinningCost& c : run.result.pinning) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0), ImGui::TextUnformatted(fmt_bytes(c.bytes).c_str());
      ImGui::TableSetColumnIndex(1), ImGui::TextUnformatted(fmt_duration(c.pin_ns).c_str());
      ImGui::TableSetColumnIndex(2), ImGui::Text("%.2f", c.pin_gbps);
      ImGui::TableSetColumnIndex(3), ImGui::TextUnformatted(fmt_duration(c.saving_ns).c_str());
      ImGui::TableSetColumnIndex(4);
      if (c.reuses_to_repay > 0) ImGui::Text("%lld", static_cast<long long>(c.reuses_to_repay));  // as `devicescope bench` prints it
      else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "never");
    }
    ImGui::EndTable();
  }
  ImGui::PopFont();
}

}  // namespace ds::gui

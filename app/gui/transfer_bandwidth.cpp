// The log-log bandwidth-vs-size plot: binned transfers per series, median curves, the link model.
#include <algorithm>
#include <cmath>

#include "gui/loglog_plot.h"
#include "gui/view_state/bench_model.h"
#include "gui/view_state/palette.h"
#include "gui/view_state/plot_axes.h"
#include "gui/theme.h"
#include "gui/transfer_view.h"

namespace ds::gui {

namespace {

int series_marker(Series s) {
  switch (s) {
    case Series::H2DPinned: return bench_marker("h2d", "pinned");
    case Series::H2DPageable: return bench_marker("h2d", "pageable");
    case Series::D2HPinned: return bench_marker("d2h", "pinned");
    case Series::D2HPageable: return bench_marker("d2h", "pageable");
    default: return bench_marker("d2d", "device");
  }
}

}  // namespace

void TransferView::draw_bandwidth(const Snapshot& snap, UiState& ui) {
  using B = BandwidthModel;
  // Legend with toggles.
  for (size_t s = 0; s < size_t(Series::Count); ++s) {
    const Series se = Series(s);
    if (se == Series::H2H) continue;  // host memcpys cross no device link: not plotted (BandwidthModel::build)
    ImGui::PushStyleColor(ImGuiCol_CheckMark, ImGui::ColorConvertU32ToFloat4(series_color(se)));
    ImGui::Checkbox(series_name(se), &series_on_[s]);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      const auto& d = bandwidth_.series[s];
      ImGui::SetTooltip("%zu transfers, best %s", d.count, fmt_rate(d.peak_gbs).c_str());
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();

  LogLogPlot plot;
  const B& bw = bandwidth_;
  plot.x_min = bw.x_min, plot.x_max = bw.x_max, plot.y_min = bw.y_min, plot.y_max = bw.y_max;
  if (!begin_loglog_plot("##plot", ImGui::GetContentRegionAvail(), &plot)) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = plot.p0, p1 = plot.p1;
  auto X = [&](double lx) { return plot.X(lx); };
  auto Y = [&](double ly) { return plot.Y(ly); };
  ImFont* fs = fonts().small;
  // The link profile: the modelled curve per series and its peak as a dashed asymptote. The peaks'
  // labels are placed after everything else is known, clear of the curves, the points and each other.
  std::vector<LabelSegment> obstacles;
  struct PeakLabel {
    float y;
    ImU32 color;
    std::string text;
  };
  std::vector<PeakLabel> peaks;
  if (bw.link.known) {
    for (size_t s = 0; s < size_t(Series::Count); ++s) {
      if (!series_on_[s] || bw.series[s].count == 0) continue;
      const RouteRate& r = bw.link.rates[s];
      if (r.bandwidth_gbs <= 0) continue;
      const ImU32 col = with_alpha(series_color(Series(s)), 0.55f);
      ImVec2 prev;
      for (int k = 0; k <= 80; ++k) {
        const double lx = bw.x_min + (bw.x_max - bw.x_min) * k / 80.0;
        const double g = BandwidthModel::modelled_gbs(r, std::pow(10.0, lx));
        const ImVec2 p(X(lx), Y(std::log10(std::max(g, 1e-6))));
        if (k) {
          dl->AddLine(prev, p, col, 1.2f);
          obstacles.push_back({prev.x, prev.y, p.x, p.y});
        }
        prev = p;
      }
      const float y = Y(std::log10(r.bandwidth_gbs));
      for (float x = p0.x; x < p1.x; x += 10) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 5, p1.x), y), col, 1.0f);
      peaks.push_back({y, col, "peak " + std::string(series_name(Series(s))) + " " + fmt_rate(r.bandwidth_gbs)});
    }
  }
  // Measured/modelled transfers, binned: brighter where more copies fall.
  const float cw = (p1.x - p0.x) / B::x_bins, ch = (p1.y - p0.y) / B::y_bins;
  for (size_t s = 0; s < size_t(Series::Count); ++s) {
    if (!series_on_[s]) continue;
    const auto& d = bandwidth_.series[s];
    const ImU32 col = series_color(Series(s));
    // Few copies: a marker each; many: the bins, brighter where more copies fall.
    const bool markers = d.cells.size() < 400;
    for (const BandwidthModel::Cell& c : d.cells) {
      const float x = p0.x + (float(c.x) + 0.5f) * cw, y = p1.y - (float(c.y) + 0.5f) * ch;
      obstacles.push_back({x - 4, y - 4, x + 4, y + 4});  // a label must not hide a point either
      if (markers) {
        // The Bench view's shape per route x memory: H2D and D2H copies of one size at one rate (an
        // H100 moves pinned memory both ways at the same speed) stay visible one over the other.
        draw_plot_marker(dl, ImVec2(x, y), series_marker(Series(s)), col, 3.5f);
      } else {
        const float a = std::min(1.0f, 0.45f + 0.15f * std::log2(float(c.count)));
        dl->AddRectFilled(ImVec2(x - std::max(cw, 2.5f) * 0.5f, y - std::max(ch, 2.5f) * 0.5f),
                          ImVec2(x + std::max(cw, 2.5f) * 0.5f, y + std::max(ch, 2.5f) * 0.5f), with_alpha(col, a));
      }
    }
    // The median curve only says something once there are enough copies.
    if (d.count >= 20)
      for (size_t k = 1; k < d.median.size(); ++k)
      dl->AddLine(ImVec2(X(d.median[k - 1].first), Y(d.median[k - 1].second)), ImVec2(X(d.median[k].first), Y(d.median[k].second)),
                  lighten(col, 0.3f), 2.0f);
  }
  std::vector<LabelRect> placed;
  for (const PeakLabel& pk : peaks) {
    const ImVec2 ts = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, pk.text.c_str());
    const LabelRect r = place_line_label(pk.y, ts.x, ts.y, p0.x, p1.x, p0.y, p1.y, placed, obstacles);
    placed.push_back(r);
    dl->AddRectFilled(ImVec2(r.x0 - 2, r.y0), ImVec2(r.x1 + 2, r.y1), IM_COL32(0x14, 0x17, 0x1d, 0xf0));
    dl->AddText(fs, fs->FontSize, ImVec2(r.x0, r.y0), lighten(pk.color, 0.2f), pk.text.c_str());
  }
  end_loglog_plot(plot, snap.transfers.empty() ? "No transfers yet." : nullptr);
  (void)ui;
}

}  // namespace ds::gui

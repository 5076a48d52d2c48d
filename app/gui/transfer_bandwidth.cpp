// The log-log bandwidth-vs-size plot: binned transfers per series, median curves, the link model.
#include <algorithm>
#include <cmath>

#include "gui/model/palette.h"
#include "gui/theme.h"
#include "gui/transfer_view.h"

namespace ds::gui {
namespace {

const char* size_label(int decade) {
  static const char* labels[] = {"1 B", "10 B", "100 B", "1 kB", "10 kB", "100 kB", "1 MB", "10 MB", "100 MB", "1 GB", "10 GB", "100 GB"};
  return decade >= 0 && decade < 12 ? labels[decade] : "";
}

}  // namespace

void TransferView::draw_bandwidth(const Snapshot& snap, UiState& ui) {
  using B = BandwidthModel;
  // Legend with toggles.
  for (size_t s = 0; s < size_t(Series::Count); ++s) {
    const Series se = Series(s);
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

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 c0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##plot", ImVec2(std::max(avail.x, 1.0f), std::max(avail.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = 64, bottom = 22, top = 6, right = 10;
  const ImVec2 p0(c0.x + left, c0.y + top), p1(c0.x + avail.x - right, c0.y + avail.y - bottom);
  if (p1.x - p0.x < 40 || p1.y - p0.y < 40) return;
  dl->AddRectFilled(p0, p1, IM_COL32(0x14, 0x17, 0x1d, 0xff), 3);
  auto X = [&](double lx) { return p0.x + float((lx - B::x_min) / (B::x_max - B::x_min)) * (p1.x - p0.x); };
  auto Y = [&](double ly) { return p1.y - float((ly - B::y_min) / (B::y_max - B::y_min)) * (p1.y - p0.y); };
  ImFont* fs = fonts().small;
  // Decade grid and labels.
  for (int d = int(std::ceil(B::x_min)); d <= int(B::x_max); ++d) {
    const float x = X(d);
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(0xff, 0xff, 0xff, 0x12));
    const char* l = size_label(d);
    const float w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, l).x;
    dl->AddText(fs, fs->FontSize, ImVec2(x - w * 0.5f, p1.y + 4), theme::kTextDim, l);
  }
  for (int d = int(std::ceil(B::y_min)); d <= int(B::y_max); ++d) {
    const float y = Y(d);
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), IM_COL32(0xff, 0xff, 0xff, 0x12));
    char buf[32];
    if (d >= 0) std::snprintf(buf, sizeof buf, "%.0f GB/s", std::pow(10.0, d));
    else std::snprintf(buf, sizeof buf, "%.0f MB/s", std::pow(10.0, d + 3));
    const float w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, buf).x;
    dl->AddText(fs, fs->FontSize, ImVec2(p0.x - w - 6, y - fs->FontSize * 0.5f), theme::kTextDim, buf);
  }
  dl->PushClipRect(p0, p1, true);
  // The link profile: the modelled curve per series and its peak as a dashed asymptote.
  if (bandwidth_.link.known) {
    for (size_t s = 0; s < size_t(Series::Count); ++s) {
      if (!series_on_[s] || bandwidth_.series[s].count == 0) continue;
      const RouteRate& r = bandwidth_.link.rates[s];
      if (r.bandwidth_gbs <= 0) continue;
      const ImU32 col = with_alpha(series_color(Series(s)), 0.55f);
      ImVec2 prev;
      for (int k = 0; k <= 80; ++k) {
        const double lx = B::x_min + (B::x_max - B::x_min) * k / 80.0;
        const double g = BandwidthModel::modelled_gbs(r, std::pow(10.0, lx));
        const ImVec2 p(X(lx), Y(std::log10(std::max(g, 1e-6))));
        if (k) dl->AddLine(prev, p, col, 1.2f);
        prev = p;
      }
      const float y = Y(std::log10(r.bandwidth_gbs));
      for (float x = p0.x; x < p1.x; x += 10) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 5, p1.x), y), col, 1.0f);
      char buf[64];
      std::snprintf(buf, sizeof buf, "peak %s %s", series_name(Series(s)), fmt_rate(r.bandwidth_gbs).c_str());
      const float w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, buf).x;
      dl->AddText(fs, fs->FontSize, ImVec2(p1.x - w - 4, y - fs->FontSize - 1), col, buf);
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
      if (markers) {
        dl->AddCircleFilled(ImVec2(x, y), 4.0f, IM_COL32(0x10, 0x12, 0x16, 0xff), 8);
        dl->AddCircleFilled(ImVec2(x, y), 3.0f, col, 8);
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
  dl->PopClipRect();
  dl->AddRect(p0, p1, theme::kPaneBorder, 3);
  if (snap.transfers.empty()) {
    const char* msg = "No transfers yet.";
    const ImVec2 ts = ImGui::CalcTextSize(msg);
    dl->AddText(ImVec2((p0.x + p1.x - ts.x) * 0.5f, (p0.y + p1.y - ts.y) * 0.5f), theme::kTextDim, msg);
  }
  if (hovered) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (m.x >= p0.x && m.x <= p1.x && m.y >= p0.y && m.y <= p1.y) {
      const double lx = B::x_min + (m.x - p0.x) / (p1.x - p0.x) * (B::x_max - B::x_min);
      const double ly = B::y_min + (p1.y - m.y) / (p1.y - p0.y) * (B::y_max - B::y_min);
      ImGui::SetTooltip("%s at %s", fmt_bytes(uint64_t(std::pow(10.0, lx))).c_str(), fmt_rate(std::pow(10.0, ly)).c_str());
    }
  }
  (void)ui;
}

}  // namespace ds::gui

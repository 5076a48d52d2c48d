// The transfer timeline: ruler, lanes, instanced items (folded below 3 px, or when they start within
// 3 px of each other), zoom/pan, hover details.
#include <algorithm>
#include <cmath>

#include "gui/model/palette.h"
#include "gui/theme.h"
#include "gui/transfer_view.h"

namespace ds::gui {
namespace {

constexpr float kMinPx = 3;

// 1, 2, 5 x 10^k nanoseconds, about `target` pixels apart.
double nice_step(double ns_per_px, double target) {
  const double raw = ns_per_px * target;
  const double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-3))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (p * m >= raw) return p * m;
  return p * 10;
}

const char* route_text(Route r) {
  switch (r) {
    case Route::Direct: return "direct DMA";
    case Route::StagedPinned: return "staged through a pinned bounce buffer";
    case Route::Peer: return "peer-to-peer";
  }
  return "?";
}

}  // namespace

void TransferView::draw_timeline(const Snapshot& snap, UiState& ui) {
  if (timeline_.lanes.empty()) {
    ImGui::Spacing();
    ImGui::TextDisabled("No transfers yet. Move something: x.to(\"cuda:0\"), model.cuda(), y.cpu() ...");
    return;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 c0 = ImGui::GetCursorScreenPos();
  ImFont* fs = fonts().small;
  // Sizes from the fonts (presenter mode) and the label column from the widest lane name and count.
  const float kRulerH = std::max(22.0f, fs->FontSize + 8), kLaneH = std::max(24.0f, ImGui::GetFontSize() + 8);
  float kLabelW = 118;
  for (const TimelineLane& lane : timeline_.lanes) {
    const std::string count = std::to_string(lane.start.size());
    kLabelW = std::max(kLabelW, 18 + ImGui::CalcTextSize(lane.name.c_str()).x + 10 +
                                    fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, count.c_str()).x + 8);
  }
  const float lanes_h = float(timeline_.lanes.size()) * kLaneH;
  const float h = std::max(avail.y, 40.0f);
  ImGui::InvisibleButton("##timeline", ImVec2(std::max(avail.x, 1.0f), h));
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float ax0 = c0.x + kLabelW, ax1 = c0.x + avail.x - 6;
  const float width = std::max(ax1 - ax0, 10.0f);
  const float lanes_top = c0.y + kRulerH;

  // Visible range: fit to the data until the user zooms or pans.
  const double span = std::max<double>(double(timeline_.t_max - timeline_.t_min), 1000.0);
  if (ui.timeline_fit || ui.view_t1 <= ui.view_t0) {
    ui.view_t0 = double(timeline_.t_min) - span * 0.02;
    ui.view_t1 = double(timeline_.t_max) + span * 0.02;
  }
  const ImGuiIO& io = ImGui::GetIO();
  if (hovered && io.MouseWheel != 0 && io.MousePos.x >= ax0) {
    const double t = ui.view_t0 + (io.MousePos.x - ax0) / width * (ui.view_t1 - ui.view_t0);
    const double k = std::pow(0.8, io.MouseWheel);
    const double len = std::clamp((ui.view_t1 - ui.view_t0) * k, 50.0, span * 4);
    const double f = (t - ui.view_t0) / (ui.view_t1 - ui.view_t0);
    ui.view_t0 = t - f * len;
    ui.view_t1 = ui.view_t0 + len;
    ui.timeline_fit = false;
  }
  if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f)) {
    const double dt = -io.MouseDelta.x / width * (ui.view_t1 - ui.view_t0);
    ui.view_t0 += dt;
    ui.view_t1 += dt;
    ui.timeline_fit = false;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) ui.timeline_fit = true;
  const double t0 = ui.view_t0, t1 = ui.view_t1;
  const double px_per_ns = width / (t1 - t0);

  // Ruler: times relative to the first copy.
  dl->AddRectFilled(ImVec2(c0.x, c0.y), ImVec2(c0.x + avail.x, c0.y + kRulerH - 2), IM_COL32(0x1c, 0x21, 0x29, 0xff), 3);
  const double step = nice_step(1.0 / px_per_ns, 110);
  const double base = double(timeline_.t_min);
  for (double t = std::ceil((t0 - base) / step) * step + base; t <= t1; t += step) {
    const float x = ax0 + float((t - t0) * px_per_ns);
    dl->AddLine(ImVec2(x, c0.y + kRulerH - 7), ImVec2(x, c0.y + kRulerH - 2), theme::kTextDim);
    dl->AddLine(ImVec2(x, lanes_top), ImVec2(x, lanes_top + lanes_h), IM_COL32(0xff, 0xff, 0xff, 0x0c));
    const std::string label = fmt_duration(t - base);
    dl->AddText(fs, fs->FontSize, ImVec2(x + 3, c0.y + 3), theme::kTextDim, label.c_str());
  }

  // Lanes: background, label, items.
  quads_.clear();
  folded_ = 0;
  int hover_lane = -1;
  TimelineItem hover_item;
  bool have_hover = false;
  const ImVec2 m = io.MousePos;
  if (hovered && m.y >= lanes_top && m.y < lanes_top + lanes_h && m.x >= ax0) hover_lane = int((m.y - lanes_top) / kLaneH);
  struct Label {
    float x0, x1, y;
    uint32_t lane, item;
  };
  std::vector<Label> labels;
  for (size_t l = 0; l < timeline_.lanes.size(); ++l) {
    const TimelineLane& lane = timeline_.lanes[l];
    const float y = lanes_top + float(l) * kLaneH;
    if (l > 0) dl->AddLine(ImVec2(c0.x, y), ImVec2(c0.x + avail.x, y), IM_COL32(0xff, 0xff, 0xff, 0x10));
    dl->AddCircleFilled(ImVec2(c0.x + 8, y + kLaneH * 0.5f), 4, lane.color);
    dl->AddText(ImVec2(c0.x + 18, y + (kLaneH - ImGui::GetFontSize()) * 0.5f), theme::kText, lane.name.c_str());
    const std::string count = std::to_string(lane.start.size());
    const float cw = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, count.c_str()).x;
    dl->AddText(fs, fs->FontSize, ImVec2(ax0 - 8 - cw, y + (kLaneH - fs->FontSize) * 0.5f), theme::kTextDim, count.c_str());
    items_.clear();
    timeline_.visible(l, t0, t1, px_per_ns, kMinPx, items_);
    for (const TimelineItem& it : items_) {
      const float x0 = float(std::max(it.x0, -4.0)), x1 = float(std::min(it.x1, double(width) + 4));
      Quad q;
      q.x = std::floor(x0);
      q.y = float(l) * kLaneH + 3;
      q.w = std::max(std::floor(x1) - q.x, 1.0f);
      q.h = kLaneH - 6;
      q.color = lane.color;
      q.flags = (it.count > 1 ? uint32_t(kQuadFolded) : 0u) | (it.in_flight ? uint32_t(kQuadInFlight) : 0u);
      folded_ += it.count > 1;
      if (int(l) == hover_lane && m.x - ax0 >= x0 - 1 && m.x - ax0 <= x1 + 1) {
        hover_item = it;
        have_hover = true;
        q.flags |= kQuadHighlight;
      }
      quads_.push_back(q);
      if (it.count == 1 && x1 - x0 > 70 && labels.size() < 400) labels.push_back({x0, x1, q.y, uint32_t(l), it.first});
    }
  }
  if (!batch_) batch_ = std::make_unique<render::QuadBatch>(render::QuadStyle::Timeline);
  batch_->upload(quads_);
  dl->PushClipRect(ImVec2(ax0, lanes_top), ImVec2(ax1, lanes_top + lanes_h), true);
  batch_->draw(dl, ImVec2(ax0, lanes_top));
  for (const Label& lab : labels) {
    const TransferRecord& t = snap.transfers[timeline_.lanes[lab.lane].index[lab.item]];
    const std::string text = (t.owner.empty() ? t.src.str() + " \xe2\x86\x92 " + t.dst.str() : t.owner) + "  " + fmt_bytes(t.bytes);
    const ImVec4 clip(ax0 + lab.x0 + 3, lanes_top + lab.y, ax0 + lab.x1 - 3, lanes_top + lab.y + kLaneH);
    dl->AddText(fs, fs->FontSize, ImVec2(ax0 + lab.x0 + 5, lanes_top + lab.y + 2), IM_COL32(0x0e, 0x11, 0x16, 0xff),
                text.c_str(), nullptr, 0, &clip);
  }
  // "Now" on the session's clock (live only, not a recording's): where unfinished async copies end.
  if (snap.source.path.empty() && snap.time_ns) {
    const float x = ax0 + float((double(snap.time_ns) - t0) * px_per_ns);
    if (x >= ax0 && x <= ax1) dl->AddLine(ImVec2(x, lanes_top), ImVec2(x, lanes_top + lanes_h), with_alpha(theme::kWarning, 0.6f));
  }
  dl->PopClipRect();
  dl->AddLine(ImVec2(ax0 - 1, lanes_top), ImVec2(ax0 - 1, lanes_top + lanes_h), theme::kPaneBorder);
  if (lanes_top + lanes_h + 6 < c0.y + h)
    dl->AddText(fs, fs->FontSize, ImVec2(c0.x + 4, lanes_top + lanes_h + 6), theme::kTextDim,
                "wheel: zoom \xc2\xb7 drag: pan \xc2\xb7 double-click: fit \xc2\xb7 hatched bars: copies within 3 px folded (hover: count)");

  if (have_hover) {
    const TimelineLane& lane = timeline_.lanes[size_t(hover_lane)];
    ImGui::BeginTooltip();
    if (hover_item.count > 1) {
      ImGui::Text("%u copies folded here", hover_item.count);
      const uint64_t a = lane.start[hover_item.first], b = lane.end_max[hover_item.first + hover_item.count - 1];
      ImGui::TextDisabled("%s in total, %s .. %s", fmt_bytes(hover_item.bytes).c_str(), fmt_duration(double(a - timeline_.t_min)).c_str(),
                          fmt_duration(double(b - timeline_.t_min)).c_str());
      if (lane.start[hover_item.first] == lane.start[hover_item.first + hover_item.count - 1])
        ImGui::TextDisabled("They all start at the same instant: the Table tab lists them one by one.");
      else
        ImGui::TextDisabled("Zoom in (mouse wheel) to see them one by one.");
    } else {
      const TransferRecord& t = snap.transfers[lane.index[hover_item.first]];
      ui.hovered_transfer = t.id;
      ImGui::PushFont(fonts().bold);
      const std::string owner = transfer_owner(snap, t);
      const bool host_copy = t.src.is_host() && t.dst.is_host();
      ImGui::Text("%s", owner.empty() ? ("transfer #" + std::to_string(t.id)).c_str() : owner.c_str());
      ImGui::PopFont();
      ImGui::Text("%s \xe2\x86\x92 %s   %s", t.src.str().c_str(), t.dst.str().c_str(), fmt_bytes(t.bytes).c_str());
      if (host_copy)
        ImGui::TextUnformatted("a CPU memcpy: the host did the copy itself");
      else
        ImGui::Text("%s, %s", route_text(t.route), t.non_blocking ? (t.async ? "non_blocking: the host did not wait" : "non_blocking requested, but synchronous for the host") : "blocking: the host waited");
      if (t.complete)
        ImGui::Text("%s  at %s%s", fmt_duration(t.duration_ns()).c_str(), fmt_rate(t.gbps()).c_str(), t.simulated ? "  (modelled)" : "");
      else
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "still in flight: reading the destination now may see stale data");
      if (t.simulated && t.measured_ns > 0) ImGui::TextDisabled("host memcpy behind the model took %s", fmt_duration(t.measured_ns).c_str());
      if (host_copy && snap.simulated)  // Note [Host copies and the modelled clock]
        ImGui::TextDisabled("a real host memcpy, measured; the simulated clock does not advance for host work,\n"
                            "so copies issued after it are drawn from the same instant");
      if (host_copy)
        ImGui::TextDisabled("on the host (no stream)  \xc2\xb7  storage #%llu \xe2\x86\x92 #%llu",
                            static_cast<unsigned long long>(t.src_storage), static_cast<unsigned long long>(t.dst_storage));
      else
        ImGui::TextDisabled("stream %d on cuda:%d  \xc2\xb7  storage #%llu \xe2\x86\x92 #%llu", t.stream, t.stream_device,
                            static_cast<unsigned long long>(t.src_storage), static_cast<unsigned long long>(t.dst_storage));
    }
    ImGui::EndTooltip();
  }
}

}  // namespace ds::gui

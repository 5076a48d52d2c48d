// The transfer timeline: ruler, lanes, instanced items (folded below 3 px, or when they start within
// 3 px of each other), zoom/pan, hover details. On simulated devices measured host work is drawn as
// shaded breaks in the modelled axis (Note [Two clocks on one timeline]); copies in flight run striped to
// their modelled end, with a marker where the host read their destination too early.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/view_state/palette.h"
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
  const char* kMeasuredTag = "measured";
  const float tag_w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, kMeasuredTag).x + 8;
  for (const TimelineLane& lane : timeline_.lanes) {
    const std::string count = std::to_string(lane.start.size());
    kLabelW = std::max(kLabelW, 18 + ImGui::CalcTextSize(lane.name.c_str()).x + 10 + (lane.measured ? tag_w : 0) +
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

  // Ruler: times relative to the first copy, on the modelled clock when there are two (ticks skip the
  // breaks: no modelled time passes while the host works).
  dl->AddRectFilled(ImVec2(c0.x, c0.y), ImVec2(c0.x + avail.x, c0.y + kRulerH - 2), IM_COL32(0x1c, 0x21, 0x29, 0xff), 3);
  const double step = nice_step(1.0 / px_per_ns, 110);
  const double base = timeline_.modelled_at(double(timeline_.t_min));
  const double m0 = timeline_.modelled_at(t0), m1 = timeline_.modelled_at(t1);
  float last_label_x = -1e9f;
  // Pixel spans of the breaks (their measured time is written there, so tick labels keep out).
  std::vector<std::pair<float, float>> break_px;
  for (const ClockBreak& b : timeline_.breaks) {
    const float x0 = ax0 + float((b.display_start - t0) * px_per_ns), x1 = ax0 + float((b.display_start + b.width - t0) * px_per_ns);
    if (x1 >= ax0 && x0 <= ax1) break_px.emplace_back(x0, x1);
  }
  for (double t = std::ceil((m0 - base) / step) * step + base; t <= m1; t += step) {
    const double d = timeline_.display(uint64_t(std::max(t, 0.0)), UINT64_MAX);
    const float x = ax0 + float((d - t0) * px_per_ns);
    if (x < ax0 || x > ax1) continue;
    dl->AddLine(ImVec2(x, c0.y + kRulerH - 7), ImVec2(x, c0.y + kRulerH - 2), theme::kTextDim);
    dl->AddLine(ImVec2(x, lanes_top), ImVec2(x, lanes_top + lanes_h), IM_COL32(0xff, 0xff, 0xff, 0x0c));
    const std::string label = fmt_duration(t - base);
    const float lw = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, label.c_str()).x + 6;
    if (x < last_label_x) continue;  // a tick just after a break: its label would overlap
    bool covered = false;
    for (const auto& [bx0, bx1] : break_px) covered |= x + lw > bx0 && x < bx1;
    if (covered) continue;
    last_label_x = x + lw;
    dl->AddText(fs, fs->FontSize, ImVec2(x + 3, c0.y + 3), theme::kTextDim, label.c_str());
  }
  if (timeline_.two_clocks)  // which clock the ruler reads, in the label column
    dl->AddText(fs, fs->FontSize, ImVec2(c0.x + 6, c0.y + 3), theme::kWarning, "modelled: SIMULATED");

  // Breaks: measured host work, shaded across every lane, with its measured time in the ruler. Drawn
  // under the bars: a device copy running through one (issued before it) passes under the shading.
  const ImU32 break_fill = IM_COL32(0xb0, 0x8c, 0xff, 0x16), break_edge = IM_COL32(0xb0, 0x8c, 0xff, 0x70);
  for (const ClockBreak& b : timeline_.breaks) {
    const double bx0 = (b.display_start - t0) * px_per_ns, bx1 = (b.display_start + b.width - t0) * px_per_ns;
    if (bx1 < 0 || bx0 > width) continue;
    const float x0 = ax0 + float(std::max(bx0, 0.0)), x1 = ax0 + float(std::min(bx1, double(width)));
    dl->AddRectFilled(ImVec2(x0, c0.y), ImVec2(std::max(x1, x0 + 1), lanes_top + lanes_h), break_fill);
    dl->AddLine(ImVec2(x0, c0.y), ImVec2(x0, lanes_top + lanes_h), break_edge);
    dl->AddLine(ImVec2(x1, c0.y), ImVec2(x1, lanes_top + lanes_h), break_edge);
    const std::string text = "host " + fmt_duration(b.measured_ns) + " measured";
    const float tw = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, text.c_str()).x;
    if (x1 - x0 > tw + 6) {
      dl->AddRectFilled(ImVec2(x0 + 1, c0.y), ImVec2(x1 - 1, c0.y + kRulerH - 2), IM_COL32(0x1c, 0x21, 0x29, 0xff));
      dl->AddRectFilled(ImVec2(x0 + 1, c0.y), ImVec2(x1 - 1, c0.y + kRulerH - 2), break_fill);
      dl->AddText(fs, fs->FontSize, ImVec2(x0 + (x1 - x0 - tw) * 0.5f, c0.y + 3), IM_COL32(0xd8, 0xc8, 0xff, 0xff), text.c_str());
    }
  }

  // Lanes: background, label, items.
  quads_.clear();
  drawn_.clear();
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
    if (lane.measured)  // its bars are wall time on this machine, not the modelled clock the ruler reads
      dl->AddText(fs, fs->FontSize, ImVec2(c0.x + 18 + ImGui::CalcTextSize(lane.name.c_str()).x + 8, y + (kLaneH - fs->FontSize) * 0.5f),
                  IM_COL32(0xd8, 0xc8, 0xff, 0xff), kMeasuredTag);
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
      if (it.count == 1 && drawn_.size() < 256) drawn_.push_back({snap.transfers[lane.index[it.first]].id, x0, x1, it.in_flight});
      if (it.count == 1 && x1 - x0 > 70 && labels.size() < 400) labels.push_back({x0, x1, q.y, uint32_t(l), it.first});
    }
  }
  if (!batch_) batch_ = std::make_unique<render::QuadBatch>(render::QuadStyle::Timeline);
  batch_->upload(quads_);
  dl->PushClipRect(ImVec2(ax0, lanes_top), ImVec2(ax1, lanes_top + lanes_h), true);
  batch_->draw(dl, ImVec2(ax0, lanes_top));
  const char* kReadText = "host read (stale)";
  const float read_label_w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, kReadText).x;
  for (const Label& lab : labels) {
    const TransferRecord& t = snap.transfers[timeline_.lanes[lab.lane].index[lab.item]];
    // Bytes and time on the bar, so two copies' durations read without hovering (lesson 018). What does
    // not fit gives way in order: the owner's leading module parts, then the owner; the size stays whole
    // (not "pageable \xe2\x86\x92 pinned 1024.00" cut by the bar's end).
    const std::string who = t.owner.empty() ? t.src.str() + " \xe2\x86\x92 " + t.dst.str() : t.owner;
    const std::string size = fmt_bytes(t.bytes);
    const std::string when = t.complete && !timeline_.lanes[lab.lane].measured ? fmt_duration(t.duration_ns()) + "  \xc2\xb7  " : "";
    auto width = [&](const std::string& s) { return fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, s.c_str()).x; };
    std::string text = when + who + "  " + size;
    const ImVec4 clip(ax0 + lab.x0 + 3, lanes_top + lab.y, ax0 + lab.x1 - 3, lanes_top + lab.y + kLaneH);
    // Keep clear of a "host read" marker and its label on this bar (drawn over it afterwards).
    float tx = ax0 + lab.x0 + 5;
    const float text_w = width(text);
    for (const HostReadMarker& r : timeline_.host_reads) {
      const float rx = ax0 + float((r.at - t0) * px_per_ns);
      if (r.lane == lab.lane && rx + 8 + read_label_w >= tx && rx - 8 <= tx + text_w) tx = rx + 8 + read_label_w + 8;
    }
    const float room = clip.z - tx;
    if (text_w > room) {
      const std::string short_who = fit_owner(fs, who, room - width(when + "  " + size));
      text = short_who.empty() ? fit_text(fs, when + size, room) : when + short_who + "  " + size;
    }
    dl->AddText(fs, fs->FontSize, ImVec2(tx, lanes_top + lab.y + 2), IM_COL32(0x0e, 0x11, 0x16, 0xff),
                text.c_str(), nullptr, 0, &clip);
  }
  // "Now" on the session's clock (live only, not a recording's): where the host is; copies in flight
  // run on past it to their modelled end.
  if (snap.source.path.empty() && snap.time_ns) {
    const float x = ax0 + float((timeline_.now - t0) * px_per_ns);
    if (x >= ax0 && x <= ax1) {
      dl->AddLine(ImVec2(x, lanes_top), ImVec2(x, lanes_top + lanes_h), with_alpha(theme::kWarning, 0.6f));
      if (x < ax1 - 30)  // room for the word
        dl->AddText(fs, fs->FontSize, ImVec2(x + 3, lanes_top + lanes_h - fs->FontSize - 1), with_alpha(theme::kWarning, 0.8f), "now");
    }
  }
  // Where the host read a copy's destination before the copy landed (lesson 016's hazard).
  host_reads_drawn_ = 0;
  for (const HostReadMarker& r : timeline_.host_reads) {
    const float x = ax0 + float((r.at - t0) * px_per_ns);
    if (x < ax0 - 4 || x > ax1 + 4) continue;
    ++host_reads_drawn_;
    const float y = lanes_top + float(r.lane) * kLaneH;
    dl->AddLine(ImVec2(x, y + 1), ImVec2(x, y + kLaneH - 1), theme::kWarning, 2);
    dl->AddTriangleFilled(ImVec2(x - 6, y), ImVec2(x + 6, y), ImVec2(x, y + 8), theme::kWarning);
    const char* text = kReadText;
    const float tw = read_label_w;
    const float tx = x + 8 + tw < ax1 ? x + 8 : x - 8 - tw;
    dl->AddRectFilled(ImVec2(tx - 2, y + kLaneH - fs->FontSize - 3), ImVec2(tx + tw + 2, y + kLaneH - 1), IM_COL32(0x0e, 0x11, 0x16, 0xe0), 2);
    dl->AddText(fs, fs->FontSize, ImVec2(tx, y + kLaneH - fs->FontSize - 2), theme::kWarning, text);
  }
  dl->PopClipRect();
  dl->AddLine(ImVec2(ax0 - 1, lanes_top), ImVec2(ax0 - 1, lanes_top + lanes_h), theme::kPaneBorder);
  // Legend: what each kind of bar means, then the controls.
  float ly = lanes_top + lanes_h + 6;
  const float row = fs->FontSize + 4;
  const float wrap = std::max(avail.x - 12, 100.0f);
  auto legend_line = [&](const std::string& text, ImU32 color) {
    const float th = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, wrap, text.c_str()).y;
    if (ly + th > c0.y + h) return;
    dl->AddText(fs, fs->FontSize, ImVec2(c0.x + 4, ly), color, text.c_str(), nullptr, wrap);
    ly += th + row - fs->FontSize;
  };
  legend_line("hatched: copies within 3 px folded (hover: count) \xc2\xb7 striped: in flight, not synchronised yet "
              "(drawn to its modelled end) \xc2\xb7 \xe2\x96\xbc host read before the copy landed",
              theme::kTextDim);
  if (timeline_.two_clocks) {
    char scale[48];
    std::snprintf(scale, sizeof scale, "1:%.0f", 1.0 / timeline_.host_scale);
    legend_line(std::string("shaded: host work measured on this machine (drawn at ") + (timeline_.host_scale < 1 ? scale : "1:1") +
                    "); copies: modelled, SIMULATED - the modelled clock stands still while the host works",
                IM_COL32(0xd8, 0xc8, 0xff, 0xff));
  }
  legend_line("wheel: zoom \xc2\xb7 drag: pan \xc2\xb7 double-click: fit", theme::kTextDim);

  if (have_hover) {
    const TimelineLane& lane = timeline_.lanes[size_t(hover_lane)];
    ImGui::BeginTooltip();
    if (hover_item.count > 1) {
      ImGui::Text("%u copies folded here", hover_item.count);
      const uint64_t a = lane.start[hover_item.first], b = lane.end_max[hover_item.first + hover_item.count - 1];
      ImGui::TextDisabled("%s in total, %s .. %s", fmt_bytes(hover_item.bytes).c_str(), fmt_duration(timeline_.modelled_at(double(a)) - base).c_str(),
                          fmt_duration(timeline_.modelled_at(double(b)) - base).c_str());
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
        ImGui::Text("%s  at %s%s", fmt_duration(t.duration_ns()).c_str(), fmt_rate(t.gbps()).c_str(),
                    t.simulated ? "  (modelled)" : lane.measured ? "  (measured on this machine)" : "");
      else
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "still in flight: reading the destination now may see stale data");
      if (!t.complete && t.simulated && t.end_ns > t.start_ns)
        ImGui::TextDisabled("modelled to land %s after it started; a sync point (torch.cuda.synchronize(), an event) folds it",
                            fmt_duration(double(t.end_ns - t.start_ns)).c_str());
      if (t.host_read_ns)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "the host read the destination %s after the copy was issued, before it was known to have landed: %s",
                           fmt_duration(double(t.host_read_ns > t.enqueue_ns ? t.host_read_ns - t.enqueue_ns : 0)).c_str(),
                           t.simulated ? "it saw stale bytes" : "it may have seen stale bytes (a race on a real GPU)");
      if (lane.measured && timeline_.host_scale < 1)
        ImGui::TextDisabled("drawn at 1:%.0f beside the modelled copies, as a break in their clock", 1.0 / timeline_.host_scale);
      if (t.simulated && t.measured_ns > 0) ImGui::TextDisabled("host memcpy behind the model took %s", fmt_duration(t.measured_ns).c_str());
      if (host_copy && snap.simulated)  // Note [Host copies and the modelled clock]
        ImGui::TextDisabled("a real host memcpy, measured; the simulated clock does not advance for host work,\n"
                            "so it is drawn as a shaded break and copies issued after it start after the break");
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

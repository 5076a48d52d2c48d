// MemoryTimelineView: stacked bars, one per bucket, drawn with ImGui's draw list (1,024 buckets at most).
#include "gui/memory_timeline_view.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "gui/theme.h"
#include "gui/view_state/owner_rows.h"
#include "gui/view_state/palette.h"
#include "gui/view_state/stacked_columns.h"

namespace ds::gui {
namespace {

// Owner categories: a role's own hue when the category is a role ("parameter"), so a colour means one
// thing in every view; source lines (a snapshot's owners) in shades of one slate hue, lightest first, so
// they never borrow a role's colour; "other" (the last) dim grey.
ImU32 category_color(const std::vector<std::string>& categories, size_t c) {
  if ((c + 1 == categories.size() && categories[c] == "other") || categories[c] == "unknown") return IM_COL32(0x5a, 0x62, 0x6e, 0xff);
  for (Role r : kAllRoles)
    if (categories[c] == role_label(r) || categories[c] == role_name(r)) return role_color(r);
  const float t = categories.size() > 2 ? float(c) / float(categories.size() - 2) : 0.0f;  // 0 .. 1
  const auto ch = [&](float hi, float lo) { return int(hi + (lo - hi) * t); };
  return IM_COL32(ch(0xb4, 0x48), ch(0xc2, 0x5a), ch(0xd6, 0x76), 0xff);
}

// Round tick steps for the y axis: 1, 2 or 5 times a power of 1024-ish byte units.
double nice_step(double range, int ticks) {
  const double raw = range / std::max(ticks, 1);
  double p = 1;
  while (p * 10 <= raw) p *= 10;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (p * m >= raw) return p * m;
  return p * 10;
}

}  // namespace

void MemoryTimelineView::draw(const std::vector<snapshot::MemoryTimeline>& timelines, UiState& ui, Commands& cmds) {
  if (!ImGui::Begin("Memory over time###Transfers", &ui.show_transfers)) {
    ImGui::End();
    return;
  }
  badge("SNAPSHOT", theme::kAccent);
  ImGui::SameLine();
  const std::string name = ui.recording_path.substr(ui.recording_path.find_last_of('/') + 1);
  ImGui::TextUnformatted(name.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ui.recording_path.c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("back to live")) cmds.push(Commands::Kind::CloseTrace);
  if (timelines.empty()) {
    ImGui::TextDisabled("This snapshot has no trace (record it with torch.cuda.memory._record_memory_history()).");
    ImGui::End();
    return;
  }
  // Stack by source line or by category; until the user picks, by category when the file names roles.
  if (ui.memory_by_category < 0)
    ui.memory_by_category = std::any_of(timelines.begin(), timelines.end(), [](const snapshot::MemoryTimeline& t) { return t.roles_known; });
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Stack by");
  ImGui::SameLine();
  if (ImGui::RadioButton("source line", ui.memory_by_category == 0)) ui.memory_by_category = 0;
  ImGui::SameLine();
  if (ImGui::RadioButton("category", ui.memory_by_category == 1)) ui.memory_by_category = 1;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("parameter, gradient, optimizer state, activation, ...: the roles a DeviceScope snapshot names;\n"
                      "a PyTorch-written snapshot names none (\"unknown\")");
  // Where the panes' moment comes from, when the line has room (the chart's "shown" mark says it too).
  const char* hint = ui.memory_moment_bucket < 0 ? "the panes show the snapshot's moment; click the chart for another"
                                                 : "the panes show the marked moment";
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(hint).x) ImGui::TextDisabled("%s", hint);
  else ImGui::NewLine();
  const float changes_h = ui.memory_mark_bucket >= 0 ? ImGui::GetTextLineHeightWithSpacing() * 8 : 0;
  // The devices that allocated anything share the height; an empty one takes a line.
  size_t drawn = 0;
  for (const snapshot::MemoryTimeline& t : timelines) drawn += t.peak > 0 && !t.x.empty();
  const float empty_h = ImGui::GetTextLineHeightWithSpacing() * float(timelines.size() - drawn);
  const float each = std::max(90.0f, (ImGui::GetContentRegionAvail().y - 4 - changes_h - empty_h) / float(std::max<size_t>(drawn, 1)));
  for (const snapshot::MemoryTimeline& t : timelines) draw_device(t, each, ui, cmds);
  if (ui.memory_mark_bucket >= 0) draw_changes(ui);
  ImGui::End();
}

void MemoryTimelineView::draw_device(const snapshot::MemoryTimeline& t, float height, UiState& ui, Commands& cmds) {
  ImGui::PushID(t.device);
  const float start_y = ImGui::GetCursorScreenPos().y;  // the plot takes what the title and legend leave
  const size_t n = t.x.size();
  if (t.peak == 0 || n == 0) {  // an empty device: a sentence, not a chart scaled to "1 byte"
    ImGui::Text("cuda:%d", t.device);
    ImGui::SameLine();
    ImGui::TextDisabled("nothing allocated in this trace");
    ImGui::PopID();
    return;
  }
  ImGui::Text("cuda:%d  peak %s", t.device, fmt_bytes(t.peak).c_str());
  const bool by_role = ui.memory_by_category == 1;
  const std::vector<std::string>& cats = by_role ? t.roles : t.categories;
  const std::vector<std::vector<uint64_t>>& rows = by_role ? t.role_bytes : t.bytes;
  // The legend: one swatch per owner, in the stacking order, wrapping onto more lines as needed.
  const float sw = ImGui::GetTextLineHeight() * 0.7f;
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float room = std::min(ImGui::GetFontSize() * 16, right - ImGui::GetStyle().WindowPadding.x - sw - 12);
  for (size_t c = 0; c < cats.size(); ++c) {
    const std::string& name = cats[c];
    const std::string shown = fit_owner(ImGui::GetFont(), name, room);
    const float w = sw + 3 + ImGui::CalcTextSize(shown.c_str()).x;
    ImGui::SameLine();
    if (ImGui::GetCursorPosX() + w > right) ImGui::NewLine();
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + sw * 0.25f), ImVec2(p.x + sw, p.y + sw * 1.25f),
                                              category_color(cats, c));
    ImGui::Dummy(ImVec2(sw, sw));
    ImGui::SameLine(0, 3);
    ImGui::TextUnformatted(shown.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
  }
  // The plot: a y axis of sizes on the left, a time (or entry) axis below.
  ImFont* fs = fonts().small;
  const float axis_w = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, "1023 MiB").x + 8;
  const float axis_h = fs->FontSize + 6;
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const ImVec2 full(std::max(100.0f, ImGui::GetContentRegionAvail().x), std::max(60.0f, height - (cursor.y - start_y) - 6));
  const ImVec2 origin(std::floor(cursor.x + axis_w), std::floor(cursor.y));  // whole pixels: the chart image maps one texel a pixel
  const ImVec2 size(full.x - axis_w, full.y - axis_h);
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("plot", size);
  ImGui::SetCursorScreenPos(ImVec2(cursor.x, cursor.y + full.y));
  ImGui::Dummy(ImVec2(1, 1));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // An outline, not a fill: with a software renderer a filled plot is one more full layer of pixels.
  dl->AddRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), theme::kPaneBorder);
  auto [lo, hi] = zoom_.count(t.device) ? zoom_[t.device] : std::make_pair(size_t(0), n - 1);
  hi = std::min(hi, n - 1);
  lo = std::min(lo, hi);
  const size_t shown_n = hi - lo + 1;
  const double top = double(t.peak) * 1.05;
  auto y_of = [&](double bytes) { return origin.y + size.y - float(bytes / top) * size.y; };
  const float bw = size.x / float(shown_n);
  auto x_of = [&](size_t b) { return origin.x + bw * float(b - lo); };
  // Y ticks: round byte values in the unit of the peak.
  const double unit = t.peak >= (1ull << 30) ? double(1ull << 30) : t.peak >= (1u << 20) ? double(1u << 20) : t.peak >= 1024 ? 1024.0 : 1.0;
  const double step = nice_step(top / unit, std::max(2, int(size.y / (fs->FontSize * 3)))) * unit;
  for (double v = 0; v <= top; v += step) {
    const float y = y_of(v);
    dl->AddLine(ImVec2(origin.x, y), ImVec2(origin.x + size.x, y), IM_COL32(0xff, 0xff, 0xff, 0x14));
    const std::string label = fmt_bytes(uint64_t(v));
    const float lw = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, label.c_str()).x;
    dl->AddText(fs, fs->FontSize, ImVec2(origin.x - lw - 4, std::max(origin.y, y - fs->FontSize * 0.5f)), theme::kTextDim, label.c_str());
  }
  // The stacked area: an image rasterized when the zoom, plot size or grouping changes, one quad a frame
  // (a software renderer pays per triangle and per pixel; thousands of thin rectangles cost 20 ms a frame).
  Chart& chart = charts_[t.device];
  const int pw = std::max(1, int(size.x)), ph = std::max(1, int(size.y));
  const Chart::Key key{&rows, lo, hi, pw, ph, top};
  if (chart.tex.empty() || !(chart.key == key)) {
    StackedSource src;
    src.rows = &rows;
    src.bucket_max = &t.bucket_max;
    for (size_t c = 0; c < cats.size(); ++c) src.colors.push_back(category_color(cats, c));
    src.peak_color = theme::kText;
    const StackedImage img = rasterize_stacked(src, lo, hi, top, pw, ph);
    chart.tex.upload(img.width, img.height, img.pixels.data());
    chart.key = key;
  }
  dl->AddImage(chart.tex.id(), origin, ImVec2(origin.x + float(pw), origin.y + float(ph)));
  // X ticks: a few moments, in time units when the trace is timed, else entry numbers.
  const int xticks = std::max(2, int(size.x / 140));
  for (int k = 0; k <= xticks; ++k) {
    const size_t b = lo + size_t(double(shown_n - 1) * k / xticks);
    const float x = x_of(b) + bw * 0.5f;
    dl->AddLine(ImVec2(x, origin.y + size.y), ImVec2(x, origin.y + size.y + 3), theme::kTextDim);
    const std::string label = t.timed ? fmt_duration(double(t.x[b] - t.x.front()) * 1000.0)
                                      : "entry " + std::to_string(b < t.entries.size() ? t.entries[b] : 0);
    const float lw = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, label.c_str()).x;
    const float lx = std::clamp(x - lw * 0.5f, origin.x, origin.x + size.x - lw);
    dl->AddText(fs, fs->FontSize, ImVec2(lx, origin.y + size.y + 4), theme::kTextDim, label.c_str());
  }
  // Marks the trace carries (annotations, user metadata, compile context): a dotted line and a short label
  // where it does not run into the previous one; the whole text on hover.
  float label_end = -FLT_MAX;
  std::string hovered_mark;
  for (const snapshot::TimelineMark& m : t.marks) {
    const size_t b = size_t(std::lower_bound(t.x.begin(), t.x.end(), m.x) - t.x.begin());
    if (b < lo || b > hi) continue;
    const float x = x_of(b) + bw * 0.5f;
    for (float y = origin.y + fs->FontSize + 4; y < origin.y + size.y; y += 6)
      dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 2, origin.y + size.y)), with_alpha(theme::kAccent, 0.7f));
    if (x > label_end + 4) {
      const std::string label = fit_text(fs, m.text, 110);
      dl->AddText(fs, fs->FontSize, ImVec2(x + 2, origin.y + fs->FontSize + 4), theme::kAccent, label.c_str());
      label_end = x + 2 + fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, label.c_str()).x;
    }
    if (ImGui::IsItemHovered() && std::fabs(ImGui::GetIO().MousePos.x - x) < 3) hovered_mark = m.text;
  }
  // The moment the panes show (or the snapshot's own, the end, before one is picked).
  const size_t moment = ui.memory_moment_bucket >= 0 ? size_t(ui.memory_moment_bucket) : n - 1;
  if (moment >= lo && moment <= hi) {
    const float x = x_of(moment) + bw * 0.5f;
    dl->AddLine(ImVec2(x, origin.y), ImVec2(x, origin.y + size.y), theme::kWarning, 2.0f);
    const char* what = ui.memory_moment_bucket >= 0 ? "shown" : "shown (snapshot)";
    const float lw = fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, what).x;
    dl->AddText(fs, fs->FontSize, ImVec2(x + lw + 6 < origin.x + size.x ? x + 3 : x - lw - 3, origin.y + 2), theme::kWarning, what);
  }
  // The marked moment (A) the panes' moment is compared with.
  if (ui.memory_mark_bucket >= 0 && size_t(ui.memory_mark_bucket) >= lo && size_t(ui.memory_mark_bucket) <= hi) {
    const float x = x_of(size_t(ui.memory_mark_bucket)) + bw * 0.5f;
    for (float y = origin.y; y < origin.y + size.y; y += 8) dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 4, origin.y + size.y)), theme::kText, 2.0f);
    dl->AddText(ImVec2(x + 3, origin.y + fs->FontSize + 4), theme::kText, "A");
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  auto bucket_at = [&](float mx) { return std::min(hi, lo + size_t(std::max(0.0f, (mx - origin.x) / bw))); };
  // Drag: a stretch to zoom into, drawn while the button is down.
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 6.0f)) {
    if (drag_device_ != t.device) drag_from_x_ = ImGui::GetIO().MouseClickedPos[0].x, drag_device_ = t.device;
    dl->AddRectFilled(ImVec2(std::min(drag_from_x_, mouse.x), origin.y), ImVec2(std::max(drag_from_x_, mouse.x), origin.y + size.y),
                      with_alpha(theme::kAccent, 0.25f));
  } else if (drag_device_ == t.device && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
    const size_t a = bucket_at(std::min(drag_from_x_, mouse.x)), b = bucket_at(std::max(drag_from_x_, mouse.x));
    if (b > a) zoom_[t.device] = {a, b};
    drag_device_ = -1;
  } else if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    zoom_.erase(t.device);
  } else if (ImGui::IsItemHovered()) {
    const size_t b = bucket_at(mouse.x);
    std::string tip = timeline_moment_text(t, b) + (t.timed ? " into the trace\n" : " done\n");
    uint64_t total = 0;
    for (size_t c = 0; c < cats.size(); ++c) total += rows[c][b];
    tip += "active " + fmt_bytes(total) + " (highest in this stretch " + fmt_bytes(t.bucket_max[b]) + ")\n";
    for (size_t c = 0; c < cats.size(); ++c)
      if (rows[c][b]) tip += "  " + fmt_bytes(rows[c][b]) + "  " + cats[c] + "\n";
    if (!hovered_mark.empty()) tip += "mark: " + hovered_mark + "\n";
    tip += "click: show this moment in the memory panes; right click: mark it (A) to compare with;\ndrag: zoom into a stretch; double-click: the whole trace";
    ImGui::SetTooltip("%s", tip.c_str());
    auto moment_arg = [&](size_t i) { return (t.timed ? "t:" : "e:") + std::to_string(t.timed ? t.x[i] : int64_t(t.entries[i])); };
    const bool marked = ImGui::IsMouseClicked(ImGuiMouseButton_Right);
    if (marked) ui.memory_mark_bucket = int(b);
    if (marked || ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
      if (!marked) ui.memory_moment_bucket = int(b);
      const size_t shown = ui.memory_moment_bucket >= 0 ? size_t(ui.memory_moment_bucket) : n - 1;
      std::string arg = moment_arg(std::min(shown, n - 1));
      if (ui.memory_mark_bucket >= 0) arg += "|" + moment_arg(std::min(size_t(ui.memory_mark_bucket), n - 1));
      cmds.push(Commands::Kind::SeekMoment, arg);
    }
  }
  ImGui::PopID();
}

void MemoryTimelineView::draw_changes(UiState& ui) {
  if (!ui.memory_changes_known) {
    ImGui::TextDisabled("comparing with the marked moment\xe2\x80\xa6");
    return;
  }
  ImGui::Text("Since the mark A: allocated %s, freed %s", fmt_bytes(ui.memory_changes_allocated).c_str(),
              fmt_bytes(ui.memory_changes_freed).c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("clear mark")) ui.memory_mark_bucket = -1;
  if (ImGui::BeginTable("##changes", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp,
                        ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 6))) {
    ImGui::TableSetupColumn("owner", ImGuiTableColumnFlags_WidthStretch, 4.0f);
    ImGui::TableSetupColumn("place");
    ImGui::TableSetupColumn("allocated");
    ImGui::TableSetupColumn("freed");
    ImGui::TableSetupColumn("A \xe2\x86\x92 now");
    ImGui::TableHeadersRow();
    for (const UiState::MomentChange& c : ui.memory_changes) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.owner.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.place.c_str());
      ImGui::TableNextColumn();
      if (c.allocated) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kOk), "+%s", fmt_bytes(c.allocated).c_str());
      ImGui::TableNextColumn();
      if (c.freed) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "-%s", fmt_bytes(c.freed).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%s \xe2\x86\x92 %s", fmt_bytes(c.bytes_a).c_str(), fmt_bytes(c.bytes_b).c_str());
    }
    ImGui::EndTable();
  }
}

}  // namespace ds::gui

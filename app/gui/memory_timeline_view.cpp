// MemoryTimelineView: stacked bars, one per bucket, drawn with ImGui's draw list (1,024 buckets at most).
#include "gui/memory_timeline_view.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "gui/theme.h"

namespace ds::gui {
namespace {

// One hue per owner category, "other" grey (the last).
ImU32 category_color(size_t c, size_t count) {
  static const ImU32 kHues[] = {IM_COL32(0x4c, 0x9a, 0xff, 0xff), IM_COL32(0xff, 0x8c, 0x42, 0xff),
                                IM_COL32(0x5c, 0xd6, 0x8a, 0xff), IM_COL32(0xd0, 0x6c, 0xe8, 0xff),
                                IM_COL32(0xff, 0xd8, 0x4d, 0xff), IM_COL32(0x3e, 0xc9, 0xd6, 0xff),
                                IM_COL32(0xff, 0x6b, 0x8b, 0xff), IM_COL32(0xa3, 0xd9, 0x4c, 0xff)};
  if (c + 1 == count) return IM_COL32(0x6b, 0x74, 0x82, 0xff);
  return kHues[c % (sizeof kHues / sizeof kHues[0])];
}

std::string moment_text(const snapshot::MemoryTimeline& t, size_t bucket) {
  if (t.timed) return fmt_duration(double(t.x[bucket] - t.x.front()) * 1000.0) + " into the trace";
  return "after entry " + std::to_string(t.entries[bucket]);
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
  ImGui::SameLine();
  ImGui::TextDisabled(ui.memory_moment_bucket < 0 ? "the panes show the snapshot's moment; click one below"
                                                  : "the panes show the marked moment");
  if (timelines.empty()) {
    ImGui::TextDisabled("This snapshot has no trace (record it with torch.cuda.memory._record_memory_history()).");
    ImGui::End();
    return;
  }
  const float changes_h = ui.memory_mark_bucket >= 0 ? ImGui::GetTextLineHeightWithSpacing() * 8 : 0;
  const float each = std::max(90.0f, (ImGui::GetContentRegionAvail().y - 4 - changes_h) / float(timelines.size()));
  for (const snapshot::MemoryTimeline& t : timelines) draw_device(t, each, ui, cmds);
  if (ui.memory_mark_bucket >= 0) draw_changes(ui);
  ImGui::End();
}

void MemoryTimelineView::draw_device(const snapshot::MemoryTimeline& t, float height, UiState& ui, Commands& cmds) {
  ImGui::PushID(t.device);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  ImGui::Text("cuda:%d  peak %s", t.device, fmt_bytes(t.peak).c_str());
  // The legend: one swatch per owner, in the stacking order.
  for (size_t c = 0; c < t.categories.size(); ++c) {
    ImGui::SameLine();
    ImVec2 p = ImGui::GetCursorScreenPos();
    const float sw = ImGui::GetTextLineHeight() * 0.7f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + sw * 0.25f), ImVec2(p.x + sw, p.y + sw * 1.25f),
                                              category_color(c, t.categories.size()));
    ImGui::Dummy(ImVec2(sw, sw));
    ImGui::SameLine(0, 3);
    const std::string& name = t.categories[c];
    const std::string shown = fit_owner(ImGui::GetFont(), name, ImGui::GetFontSize() * 14);
    ImGui::TextUnformatted(shown.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(std::max(100.0f, ImGui::GetContentRegionAvail().x), std::max(40.0f, height - 2 * line));
  ImGui::InvisibleButton("plot", size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), theme::kPane);
  const size_t n = t.x.size();
  const double top = std::max<double>(1.0, double(t.peak) * 1.05);
  auto y_of = [&](double bytes) { return origin.y + size.y - float(bytes / top) * size.y; };
  const float bw = size.x / float(std::max<size_t>(n, 1));
  for (size_t b = 0; b < n; ++b) {
    const float x0 = origin.x + bw * float(b), x1 = std::max(x0 + 1.0f, x0 + bw);
    double cum = 0;
    for (size_t c = 0; c < t.categories.size(); ++c) {
      const double v = double(t.bytes[c][b]);
      if (v > 0) dl->AddRectFilled(ImVec2(x0, y_of(cum + v)), ImVec2(x1, y_of(cum)), category_color(c, t.categories.size()));
      cum += v;
    }
    // The highest total inside the bucket: a peak between two bucket ends still shows.
    if (double(t.bucket_max[b]) > cum) dl->AddLine(ImVec2(x0, y_of(double(t.bucket_max[b]))), ImVec2(x1, y_of(double(t.bucket_max[b]))), theme::kText);
  }
  dl->AddText(ImVec2(origin.x + 4, origin.y + 2), theme::kTextDim, fmt_bytes(uint64_t(top)).c_str());
  // The moment the panes show.
  if (ui.memory_moment_bucket >= 0 && size_t(ui.memory_moment_bucket) < n) {
    const float x = origin.x + bw * (float(ui.memory_moment_bucket) + 0.5f);
    dl->AddLine(ImVec2(x, origin.y), ImVec2(x, origin.y + size.y), theme::kWarning, 2.0f);
  }
  // The marked moment (A) the panes' moment is compared with.
  if (ui.memory_mark_bucket >= 0 && size_t(ui.memory_mark_bucket) < n) {
    const float x = origin.x + bw * (float(ui.memory_mark_bucket) + 0.5f);
    for (float y = origin.y; y < origin.y + size.y; y += 8) dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 4, origin.y + size.y)), theme::kText, 2.0f);
    dl->AddText(ImVec2(x + 3, origin.y + 2), theme::kText, "A");
  }
  if (ImGui::IsItemHovered() && n > 0) {
    const size_t b = std::min(n - 1, size_t(std::max(0.0f, (ImGui::GetIO().MousePos.x - origin.x) / bw)));
    std::string tip = moment_text(t, b) + "\n";
    uint64_t total = 0;
    for (size_t c = 0; c < t.categories.size(); ++c) total += t.bytes[c][b];
    tip += "active " + fmt_bytes(total) + " (highest in this stretch " + fmt_bytes(t.bucket_max[b]) + ")\n";
    for (size_t c = 0; c < t.categories.size(); ++c)
      if (t.bytes[c][b]) tip += "  " + fmt_bytes(t.bytes[c][b]) + "  " + t.categories[c] + "\n";
    tip += "click: show this moment in the memory panes; right click: mark it (A) to compare with";
    ImGui::SetTooltip("%s", tip.c_str());
    auto moment = [&](size_t i) { return (t.timed ? "t:" : "e:") + std::to_string(t.timed ? t.x[i] : int64_t(t.entries[i])); };
    const bool marked = ImGui::IsMouseClicked(ImGuiMouseButton_Right);
    if (marked) ui.memory_mark_bucket = int(b);
    if (marked || ImGui::IsMouseClicked(ImGuiMouseButton_Left) ||
        (ImGui::IsMouseDragging(ImGuiMouseButton_Left) && int(b) != ui.memory_moment_bucket)) {
      if (!marked) ui.memory_moment_bucket = int(b);
      const size_t shown = ui.memory_moment_bucket >= 0 ? size_t(ui.memory_moment_bucket) : n - 1;
      std::string line = moment(std::min(shown, n - 1));
      if (ui.memory_mark_bucket >= 0) line += "|" + moment(std::min(size_t(ui.memory_mark_bucket), n - 1));
      cmds.push(Commands::Kind::SeekMoment, line);
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

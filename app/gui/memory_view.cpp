// Memory window: legend, pane grid, pane headers with allocated/reserved/capacity, the instanced block
// map, owner labels on wide blocks, hover tooltips and the migration overlay.
#include "gui/memory_view.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gui/model/palette.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

constexpr float kGap = 8;

// Pane header rows (title; figures; capacity bar), measured from the fonts so that presenter mode's large
// fonts push the block map down instead of drawing the rows over each other.
struct HeaderRows {
  float title_y, figures_y, bar_y, height;
};
HeaderRows header_rows() {
  HeaderRows r;
  r.title_y = 7;
  r.figures_y = r.title_y + fonts().bold->FontSize + 3;
  r.bar_y = r.figures_y + fonts().small->FontSize + 4;
  r.height = r.bar_y + 4 + 2;
  return r;
}


std::string holders_text(const StorageInfo& s) {
  std::string out;
  for (const std::string& h : s.holders) out += (out.empty() ? "" : ", ") + h;
  return out;
}

}  // namespace

std::vector<MemoryView::PaneInfo> MemoryView::panes() const {
  std::vector<PaneInfo> out;
  for (const Pane& p : panes_)
    if (p.drawn) out.push_back({&p.layout, p.origin, ImVec2(p.origin.x + p.w, p.origin.y + p.h)});
  return out;
}

bool MemoryView::storage_rect(uint64_t id, ImVec2* min, ImVec2* max) const {
  for (const Pane& p : panes_) {
    if (!p.drawn) continue;
    const int item = p.layout.find_storage(id);
    float x, y, w, h;
    if (item >= 0 && p.layout.item_rect(size_t(item), &x, &y, &w, &h)) {
      *min = ImVec2(p.origin.x + x, p.origin.y + y);
      *max = ImVec2(p.origin.x + x + w, p.origin.y + y + h);
      return true;
    }
  }
  return false;
}

void MemoryView::legend(const Snapshot& snap, UiState& ui) {
  // Swatches wrap onto more lines as needed; the scale choice and SIMULATED sit at the right of the first.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float h = ImGui::GetTextLineHeight();
  // Widths from the text, so presenter mode's large fonts fit too.
  const ImGuiStyle& st = ImGui::GetStyle();
  const float combo_w = ImGui::CalcTextSize("Scale: allocated").x + ImGui::GetFrameHeight() + st.FramePadding.x * 2 + 4;
  ImFont* small = fonts().small;
  const float badge_w =
      snap.simulated ? small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, "SIMULATED").x + 10 + st.ItemSpacing.x + 4 : 0.0f;
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float start_y = ImGui::GetCursorPosY();
  ImGui::SetCursorPosX(right - combo_w - badge_w);
  ImGui::SetNextItemWidth(combo_w);
  int scale = int(ui.memory_scale);
  if (ImGui::Combo("##scale", &scale, "Scale: reserved\0Scale: allocated\0Scale: capacity\0")) ui.memory_scale = MemoryScale(scale);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("One scale for every pane, so equal bytes take equal room.\n"
                      "Reserved: live and cached free blocks fill the panes.\n"
                      "Allocated: live blocks fill them; cached free blocks are thin markers.\n"
                      "Capacity: drawn to the scale of the whole device.");
  if (snap.simulated) {
    ImGui::SameLine();
    simulated_badge("capacities and figures");
  }
  ImGui::SetCursorPosY(start_y + (ImGui::GetFrameHeight() - h) * 0.5f);
  float limit = right - combo_w - badge_w - 12;  // first line: keep clear of the combo
  float x = ImGui::GetCursorPosX();
  const float x0 = x;
  auto item = [&](const char* text, auto draw_swatch, float swatch_w) {
    const float w = swatch_w + 4 + ImGui::CalcTextSize(text).x;
    if (x > x0 && x + w > limit) {
      // Wrap: the previous item's text already ended its line, so no NewLine (that would leave a blank one).
      limit = right;
      x = x0;
    } else if (x > x0) {
      ImGui::SameLine(x);
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    draw_swatch(p);
    ImGui::Dummy(ImVec2(swatch_w, h));
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(text);
    x += w + 14;
  };
  for (Role r : kAllRoles)
    item(role_label(r), [&](ImVec2 p) { dl->AddRectFilled(ImVec2(p.x, p.y + 3), ImVec2(p.x + 12, p.y + h - 2), role_color(r), 2); }, 12);
  item("reserved, free (cached)", [&](ImVec2 p) {
    dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + 16, p.y + h - 1), IM_COL32(0x20, 0x27, 0x31, 0xff), 2);
    dl->AddRect(ImVec2(p.x, p.y + 2), ImVec2(p.x + 16, p.y + h - 1), lighten(kSegmentFrame, 0.35f), 2);
  }, 16);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A segment the caching allocator got from the driver. Freed blocks stay cached inside it,\n"
                      "so memory_reserved() stays above memory_allocated() until torch.cuda.empty_cache().");
}

void MemoryView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  if (!ImGui::Begin("Memory", &ui.show_memory)) {
    ImGui::End();
    return;
  }
  const double real_now = ImGui::GetTime();
  if (index_version_ != ui.snapshot_version) epoch_ = real_now;
  const double now = frozen_ && frozen_at_ >= 0 ? epoch_ + frozen_at_ : real_now;
  if (index_version_ != ui.snapshot_version) {
    // A new picture: find the moved storages while the old layout (and its positions) still stands.
    index_.build(snap);
    const uint64_t since = have_previous_ && snap.seq >= previous_seq_ ? previous_seq_ : 0;
    migration_.on_snapshot(since, snap, index_, [this](uint64_t id, ImVec2* a, ImVec2* b) { return storage_rect(id, a, b); }, epoch_);
    previous_seq_ = snap.seq;
    have_previous_ = true;
    index_version_ = ui.snapshot_version;
  }
  legend(snap, ui);
  ImGui::Spacing();

  // Pane grid: two columns (one when only one place), rows share the height.
  const size_t n = snap.places.size();
  if (panes_.size() != n) {
    panes_.clear();
    panes_.resize(n);
  }
  for (Pane& p : panes_) p.drawn = false;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  if (n == 0 || avail.x < 60 || avail.y < 60) {
    ImGui::TextDisabled("No places to show.");
    ImGui::End();
    return;
  }
  const size_t cols = n == 1 ? 1 : 2;
  const size_t rows = (n + cols - 1) / cols;
  const float pw = (avail.x - kGap * float(cols - 1)) / float(cols);
  const float ph = (avail.y - kGap * float(rows - 1)) / float(rows);
  hovered_this_frame_ = 0;
  std::vector<ImVec2> mins(n), maxs(n), bodies(n);
  const float header_h = header_rows().height;
  bool stale = false;
  for (size_t i = 0; i < n; ++i) {
    const size_t r = i / cols, c = i % cols;
    mins[i] = ImVec2(std::floor(top.x + float(c) * (pw + kGap)), std::floor(top.y + float(r) * (ph + kGap)));
    maxs[i] = ImVec2(std::floor(mins[i].x + pw), std::floor(mins[i].y + ph));
    bodies[i] = ImVec2(std::floor(maxs[i].x - mins[i].x - 20), std::floor(maxs[i].y - mins[i].y - header_h - 14));
    const Pane& p = panes_[i];
    stale = stale || p.version != ui.snapshot_version || p.w != bodies[i].x || p.h != bodies[i].y || p.scale != ui.memory_scale;
  }
  if (stale) relayout(snap, ui, bodies);
  for (size_t i = 0; i < n; ++i) draw_pane(snap, ui, panes_[i], i, mins[i], maxs[i]);
  ImGui::Dummy(avail);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(top, ImVec2(top.x + avail.x, top.y + avail.y), true);
  migration_.draw(dl, [this](uint64_t id, ImVec2* a, ImVec2* b) { return storage_rect(id, a, b); }, now, frozen_ && frozen_at_ < 0);
  dl->PopClipRect();
  if (migration_.more() > 0) {
    ImGui::SetCursorScreenPos(ImVec2(top.x + 4, top.y + avail.y - ImGui::GetTextLineHeight() - 2));
    ImGui::TextDisabled("+%zu more storages moved in this step", migration_.more());
  }
  if (hovered_this_frame_) ui.hovered_storage = hovered_this_frame_;
  ImGui::End();
}

void MemoryView::relayout(const Snapshot& snap, UiState& ui, const std::vector<ImVec2>& bodies) {
  // Each pane first finds the scale it would like; then all use the smallest, so that equal bytes
  // take equal room everywhere. Runs once per picture or pane size, never per frame.
  MemoryLayoutOptions o;
  o.scale = ui.memory_scale;
  double common = 0;
  for (size_t i = 0; i < panes_.size(); ++i) {
    Pane& p = panes_[i];
    p.layout = layout_memory_pane(snap, index_, i, bodies[i].x, bodies[i].y, o);
    if (p.layout.fit_px_per_byte > 0) common = common > 0 ? std::min(common, p.layout.fit_px_per_byte) : p.layout.fit_px_per_byte;
  }
  o.px_per_byte = common;
  for (size_t i = 0; i < panes_.size(); ++i) {
    Pane& p = panes_[i];
    if (p.layout.fit_px_per_byte > common * 1.0000001) p.layout = layout_memory_pane(snap, index_, i, bodies[i].x, bodies[i].y, o);
    if (!p.batch) p.batch = std::make_unique<render::QuadBatch>(render::QuadStyle::MemoryBlocks);
    p.batch->upload(p.layout.quads);
    p.version = ui.snapshot_version;
    p.w = bodies[i].x;
    p.h = bodies[i].y;
    p.scale = ui.memory_scale;
  }
}

void MemoryView::draw_pane(const Snapshot& snap, UiState& ui, Pane& pane, size_t place_index, ImVec2 min, ImVec2 max) {
  const PlaceInfo& place = snap.places[place_index];
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Outline only: a filled pane would be one more full layer for a software renderer to shade.
  dl->AddRect(min, max, theme::kPaneBorder, 5);

  // Header: title, detail, SIMULATED; then the figures and the capacity bar. Clipped to the pane, so a
  // narrow pane (or presenter fonts) never writes into its neighbour.
  const HeaderRows rows = header_rows();
  dl->PushClipRect(min, max, true);
  const ImVec2 tp(min.x + 10, min.y + rows.title_y);
  const uint32_t pc = place_color(place.place);
  ImFont* bold = fonts().bold;
  ImFont* small = fonts().small;
  dl->AddCircleFilled(ImVec2(tp.x + 4, tp.y + bold->FontSize * 0.5f), 4.5f, pc);
  dl->AddText(bold, bold->FontSize, ImVec2(tp.x + 14, tp.y), theme::kText, place.label.c_str());
  const float title_w = bold->CalcTextSizeA(bold->FontSize, FLT_MAX, 0, place.label.c_str()).x;
  float right = max.x - 10;
  if (place.simulated) {
    const float bw = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, "SIMULATED").x + 10;
    badge_at(dl, ImVec2(right - bw, tp.y + 1), "SIMULATED", theme::kSimulated);
    right -= bw + 8;
  }
  // The detail (device name, link) with an ellipsis when it does not fit.
  const std::string detail = fit_text(small, place.detail, right - (tp.x + 24 + title_w));
  dl->AddText(small, small->FontSize, ImVec2(tp.x + 24 + title_w, tp.y + (bold->FontSize - small->FontSize)), theme::kTextDim,
              detail.c_str());

  const MemoryPaneLayout& L = pane.layout;
  std::string figures;
  if (place.place.kind == MemoryKind::Device)
    figures = "allocated " + fmt_bytes(place.allocated) + "  \xc2\xb7  reserved " + fmt_bytes(place.reserved) +
              "  \xc2\xb7  capacity " + fmt_bytes(place.capacity);
  else if (place.place.kind == MemoryKind::Pinned)
    figures = "allocated " + fmt_bytes(place.allocated) + "  \xc2\xb7  cached " + fmt_bytes(place.reserved);
  else
    figures = fmt_bytes(place.allocated) + " in use";
  const float fy = min.y + rows.figures_y;
  figures = fit_text(small, figures, max.x - 10 - tp.x);
  dl->AddText(small, small->FontSize, ImVec2(tp.x, fy), theme::kText, figures.c_str());
  if (L.bytes_per_px > 0 && !L.items.empty()) {
    // The map's scale, where there is room for it beside the figures.
    const std::string scale = "1 px \xe2\x89\x88 " + fmt_bytes(uint64_t(std::max(1.0, L.bytes_per_px)));
    const float sw = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, scale.c_str()).x;
    const float fw = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, figures.c_str()).x;
    if (tp.x + fw + 16 < max.x - 10 - sw) dl->AddText(small, small->FontSize, ImVec2(max.x - 10 - sw, fy), theme::kTextDim, scale.c_str());
  }
  // Capacity bar: reserved (light) and allocated (accent) against capacity, or against reserved on hosts.
  const ImVec2 b0(min.x + 10, min.y + rows.bar_y), b1(max.x - 10, min.y + rows.bar_y + 4);
  dl->AddRectFilled(b0, b1, IM_COL32(0x26, 0x2d, 0x38, 0xff), 2);
  const double whole = place.capacity > 0 ? double(place.capacity) : double(std::max<uint64_t>(place.reserved, 1));
  auto frac_x = [&](uint64_t v) { return b0.x + float(std::min(1.0, double(v) / whole)) * (b1.x - b0.x); };
  if (place.reserved) dl->AddRectFilled(b0, ImVec2(std::max(frac_x(place.reserved), b0.x + 2), b1.y), IM_COL32(0x5a, 0x6a, 0x82, 0xff), 2);
  if (place.allocated) dl->AddRectFilled(b0, ImVec2(std::max(frac_x(place.allocated), b0.x + 2), b1.y), pc, 2);
  dl->PopClipRect();

  // Body: the block map.
  const ImVec2 bmin(min.x + 10, min.y + rows.height + 6);
  const float bw = pane.w, bh = pane.h;
  if (bw < 10 || bh < 10) return;
  pane.origin = bmin;
  pane.drawn = true;
  if (pane.layout.items.empty()) {
    const std::string empty = fit_text(ImGui::GetFont(), place.place.kind == MemoryKind::Device ? "no memory reserved on this device" : "empty", bw);
    const ImVec2 ts = ImGui::CalcTextSize(empty.c_str());
    dl->AddText(ImVec2(bmin.x + (bw - ts.x) * 0.5f, bmin.y + (bh - ts.y) * 0.5f), theme::kTextDim, empty.c_str());
    return;
  }
  dl->PushClipRect(bmin, ImVec2(bmin.x + bw, bmin.y + bh), true);
  pane.batch->draw(dl, bmin);

  // Owner names on blocks wide enough to hold them.
  ImFont* f = fonts().small;
  for (const MemoryLabel& lab : pane.layout.labels) {
    const StorageInfo* st = index_.find(lab.storage_id);
    if (!st) continue;
    const std::string text = display_name(*st);
    const ImVec2 p(bmin.x + lab.x + 5, bmin.y + lab.y + (pane.layout.row_height - f->FontSize) * 0.5f);
    const ImVec4 clip(bmin.x + lab.x + 2, bmin.y + lab.y, bmin.x + lab.x + lab.w - 3, bmin.y + lab.y + pane.layout.row_height);
    dl->AddText(f, f->FontSize, p, IM_COL32(0x0e, 0x11, 0x16, 0xff), text.c_str(), nullptr, 0, &clip);
  }

  // Hover (here) and the storage another view points at (names graph).
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool inside = mouse.x >= bmin.x && mouse.y >= bmin.y && mouse.x < bmin.x + bw && mouse.y < bmin.y + bh &&
                      ImGui::IsWindowHovered();
  int hovered = inside ? pane.layout.item_at(mouse.x - bmin.x, mouse.y - bmin.y) : -1;
  auto outline = [&](int item, ImU32 col) {
    float x, y, w, h;
    if (item >= 0 && pane.layout.item_rect(size_t(item), &x, &y, &w, &h))
      dl->AddRect(ImVec2(bmin.x + x - 1, bmin.y + y - 1), ImVec2(bmin.x + x + w + 1, bmin.y + y + h + 1), col, 2, 0, 2);
  };
  if (ui.pointed_storage && (hovered < 0 || pane.layout.items[size_t(hovered)].storage_id != ui.pointed_storage))
    outline(pane.layout.find_storage(ui.pointed_storage), theme::kChanged);
  dl->PopClipRect();
  if (hovered >= 0) {
    outline(hovered, IM_COL32(255, 255, 255, 255));
    hovered_this_frame_ = pane.layout.items[size_t(hovered)].storage_id;
    tooltip(snap, pane, hovered);
  }
}

void MemoryView::tooltip(const Snapshot& snap, const Pane& pane, int item_index) {
  const MemoryItem& it = pane.layout.items[size_t(item_index)];
  ImGui::BeginTooltip();
  if (it.storage_id == 0) {
    ImGui::TextUnformatted("Cached free block");
    ImGui::TextDisabled("%s reserved by the caching allocator, not allocated", fmt_bytes(it.bytes).c_str());
    ImGui::TextDisabled("Reused by the next allocation that fits; returned by torch.cuda.empty_cache().");
    ImGui::EndTooltip();
    return;
  }
  const StorageInfo* s = index_.find(it.storage_id);
  if (!s) {
    ImGui::Text("Allocated block, %s (storage %llu not in the picture)", fmt_bytes(it.bytes).c_str(),
                static_cast<unsigned long long>(it.storage_id));
    ImGui::EndTooltip();
    return;
  }
  ImGui::PushFont(fonts().bold);
  ImGui::TextUnformatted(display_name(*s).c_str());
  ImGui::PopFont();
  ImGui::SameLine();
  badge(role_label(s->role), role_color(s->role));
  if (ImGui::BeginTable("storage", 2, ImGuiTableFlags_SizingFixedFit)) {
    auto row = [](const char* k, const std::string& v) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", k);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(v.c_str());
    };
    const std::string holders = holders_text(*s);
    row("held by", holders.empty() ? "nothing named (a temporary)" : holders);
    row("shape", fmt_shape(s->shape) + "  " + s->dtype);
    row("bytes", fmt_bytes(s->nbytes) + (s->block_bytes && s->block_bytes != s->nbytes ? "  (block " + fmt_bytes(s->block_bytes) + ")" : ""));
    row("place", s->place.str() + (s->virtual_bytes ? "  (virtual: accounted, no bytes behind it)" : ""));
    row("storage", "#" + std::to_string(s->id));
    if (s->moved_from) row("moved from", "#" + std::to_string(s->moved_from) + (index_.find(s->moved_from) ? " (still alive)" : " (freed)"));
    if (it.segment >= 0 && size_t(it.segment) < snap.segments.size()) {
      const SegmentInfo& seg = snap.segments[size_t(it.segment)];
      row("segment", fmt_bytes(seg.size) + (seg.small_pool ? " (small pool)" : " (large pool)") + ", " + std::to_string(seg.blocks.size()) + " blocks");
    }
    ImGui::EndTable();
  }
  if (s->role == Role::PlainAttribute)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "A plain tensor attribute: Module.to() does not move it (use register_buffer).");
  if (it.length < 2) ImGui::TextDisabled("Many small blocks share these pixels (folded); hover nearby for the others.");
  ImGui::EndTooltip();
}

}  // namespace ds::gui

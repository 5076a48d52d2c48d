// Memory window: legend, pane grid, pane headers with allocated/reserved/capacity, the instanced block
// map, owner labels on wide blocks, hover tooltips and the migration overlay.
#include "gui/memory_view.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "gui/in_flight_badge.h"
#include "gui/view_state/palette.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

constexpr float kGap = 8;

std::string holders_text(const StorageInfo& s) {
  std::string out;
  for (const std::string& h : s.holders) out += (out.empty() ? "" : ", ") + h;
  return out;
}

}  // namespace

std::vector<MemoryView::PaneInfo> MemoryView::panes() const {
  std::vector<PaneInfo> out;
  for (const Pane& p : panes_)
    if (p.drawn) out.push_back({&p.layout, p.origin, ImVec2(p.origin.x + p.w, p.origin.y + p.h), &p.header});
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

bool MemoryView::legend(const Snapshot& snap, UiState& ui, const std::string& empty_places) {
  // Swatches wrap onto more lines as needed; the scale choice and SIMULATED sit at the right of the first.
  // Presenter mode (no title bar, no mouse) names the window and lists only the roles on screen.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float h = ImGui::GetTextLineHeight();
  // Widths from the text, so presenter mode's large fonts fit too.
  const ImGuiStyle& st = ImGui::GetStyle();
  const bool compact = ui.presenter;
  // A short window (800x600) lists only the roles on screen too: the full legend would take the panes' room.
  const bool only_present = compact || ImGui::GetContentRegionAvail().y < 20 * h;
  const float combo_w = compact ? 0.0f : ImGui::CalcTextSize("Scale: allocated").x + ImGui::GetFrameHeight() + st.FramePadding.x * 2 + 4;
  ImFont* small = fonts().small;
  const float badge_w =
      snap.simulated ? small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, "SIMULATED").x + 10 + st.ItemSpacing.x + 4 : 0.0f;
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float start_y = ImGui::GetCursorPosY();
  ImGui::SetCursorPosX(right - combo_w - badge_w);
  if (!compact) {
    ImGui::SetNextItemWidth(combo_w);
    int scale = int(ui.memory_scale);
    if (ImGui::Combo("##scale", &scale, "Scale: reserved\0Scale: allocated\0Scale: capacity\0")) ui.memory_scale = MemoryScale(scale);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("One scale for every pane, so equal bytes take equal room.\n"
                        "Reserved: live and cached free blocks fill the panes.\n"
                        "Allocated: live blocks fill them; cached free blocks are thin markers.\n"
                        "Capacity: drawn to the scale of the whole device.");
  }
  if (snap.simulated) {
    if (!compact) ImGui::SameLine();
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
  for (Role r : kAllRoles) {
    // Allocator-only blocks come only from a real GPU's allocator snapshot (devicescope record): listed where shown.
    const bool listed_if_present = only_present || r == Role::AllocatorOnly;
    if (listed_if_present && std::find(roles_present_.begin(), roles_present_.end(), r) == roles_present_.end()) continue;
    item(role_label(r), [&](ImVec2 p) { dl->AddRectFilled(ImVec2(p.x, p.y + 3), ImVec2(p.x + 12, p.y + h - 2), role_color(r), 2); }, 12);
  }
  if (!only_present || free_present_) {
    item(only_present ? "free (cached)" : "reserved, free (cached)", [&](ImVec2 p) {
      dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + 16, p.y + h - 1), kFreeBlockFill, 2);
      dl->AddRect(ImVec2(p.x, p.y + 2), ImVec2(p.x + 16, p.y + h - 1), kFreeBlockOutline, 2, 0, 1.5f);
    }, 16);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A segment the caching allocator got from the driver. Freed blocks stay cached inside it,\n"
                        "so memory_reserved() stays above memory_allocated() until torch.cuda.empty_cache().");
  }
  if (only_present && roles_present_.empty() && !free_present_) {
    ImGui::SameLine(x);
    ImGui::TextDisabled("nothing allocated yet");
  }
  // The empty places go at the end of the last line when they fit there (else on the footer line).
  if (empty_places.empty()) return false;
  const std::string text = "empty: " + empty_places;
  if (x > x0 && x + ImGui::CalcTextSize(text.c_str()).x > limit) return false;
  if (x > x0) ImGui::SameLine(x);
  ImGui::TextDisabled("%s", text.c_str());
  return true;
}

void MemoryView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  // Presenter mode: no title bar (the legend names the window), nothing to close.
  if (!ImGui::Begin("Memory", ui.presenter ? nullptr : &ui.show_memory, ui.presenter ? ImGuiWindowFlags_NoTitleBar : 0)) {
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
    place_used_.assign(snap.places.size(), false);
    roles_present_.clear();
    for (size_t i = 0; i < snap.places.size(); ++i) place_used_[i] = snap.places[i].allocated || snap.places[i].reserved;
    place_virtual_.assign(snap.places.size(), 0);
    for (const StorageInfo& st : snap.storages) {
      for (size_t i = 0; i < snap.places.size(); ++i)
        if (snap.places[i].place == st.place) {
          place_used_[i] = true;
          if (st.virtual_bytes) place_virtual_[i] += st.nbytes;
        }
      if (std::find(roles_present_.begin(), roles_present_.end(), st.role) == roles_present_.end()) roles_present_.push_back(st.role);
    }
    free_present_ = false;
    for (const SegmentInfo& seg : snap.segments)
      for (const BlockInfo& b : seg.blocks) free_present_ = free_present_ || !b.allocated;
  }
  const size_t n = snap.places.size();
  std::vector<size_t> shown;
  std::string empty_places;
  for (size_t i = 0; i < n; ++i) {
    const bool used = i < place_used_.size() && place_used_[i];
    if (!ui.presenter || used) shown.push_back(i);
    else empty_places += (empty_places.empty() ? "" : ", ") + snap.places[i].label;
  }
  if (shown.empty()) {
    for (size_t i = 0; i < n; ++i) shown.push_back(i);
    empty_places.clear();
  }
  if (legend(snap, ui, empty_places)) empty_places.clear();
  ImGui::Spacing();

  // Pane grid: two columns (one when only one pane). A row whose places hold nothing shrinks to its
  // headers and one line, so the panes with blocks get the height; presenter mode (1280x720 has little)
  // draws only the places that hold something and names the empty ones in the legend.
  if (panes_.size() != n) {
    panes_.clear();
    panes_.resize(n);
  }
  for (Pane& p : panes_) p.drawn = false;
  // A footer line under the panes: empty places (presenter mode), sources whose "still held" label found no
  // room, moves beyond the animated ones.
  const bool footer = !empty_places.empty() || migration_.more() > 0 || migration_.any_held_that_matters();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  if (footer) avail.y -= ImGui::GetTextLineHeight() + 4;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  if (n == 0 || avail.x < 60 || avail.y < 60) {
    ImGui::TextDisabled("No places to show.");
    ImGui::End();
    return;
  }
  const size_t m = shown.size();
  const size_t cols = m == 1 ? 1 : 2;
  const size_t rows = (m + cols - 1) / cols;
  const float pw = std::floor((avail.x - kGap * float(cols - 1)) / float(cols));
  int lines = 1;
  auto virtual_of = [&](size_t i) { return i < place_virtual_.size() ? place_virtual_[i] : 0; };
  for (size_t i : shown) lines = std::max(lines, pane_header_lines(snap.places[i], pw, virtual_of(i)));
  const float header_h = pane_header_height(lines);
  std::vector<float> row_h(rows, 0);
  {
    const float share = (avail.y - kGap * float(rows - 1)) / float(rows);
    const float empty_h = header_h + ImGui::GetTextLineHeight() + 16;
    const float row_pitch = fonts().small->FontSize + 12;
    size_t used = 0;
    std::vector<bool> row_used(rows, false);
    for (size_t k = 0; k < m; ++k)
      if (shown[k] < place_used_.size() && place_used_[shown[k]]) row_used[k / cols] = true;
    for (bool u : row_used) used += u;
    const float rest = avail.y - kGap * float(rows - 1) - empty_h * float(rows - used);
    const bool shrink = used > 0 && used < rows && empty_h < share && rest / float(used) >= header_h + 2 * row_pitch + 20;
    for (size_t r = 0; r < rows; ++r) row_h[r] = !shrink ? share : row_used[r] ? rest / float(used) : empty_h;
  }
  hovered_this_frame_ = 0;
  std::vector<ImVec2> mins(n), maxs(n), bodies(n, ImVec2(0, 0));
  bool stale = false;
  const float font = fonts().small->FontSize;
  float y = top.y;
  for (size_t k = 0; k < m; ++k) {
    const size_t i = shown[k], r = k / cols, c = k % cols;
    if (c == 0 && r > 0) y += row_h[r - 1] + kGap;
    // An odd last pane takes the whole row rather than leave half of it empty.
    const float w = cols == 2 && k + 1 == m && c == 0 ? avail.x : pw;
    mins[i] = ImVec2(std::floor(top.x + float(c) * (pw + kGap)), std::floor(y));
    maxs[i] = ImVec2(std::floor(mins[i].x + w), std::floor(y + row_h[r]));
    panes_[i].header = fit_pane_header(snap.places[i], w, lines, virtual_of(i));
    const float own_header_h = pane_header_height(int(panes_[i].header.figures.size()));
    bodies[i] = ImVec2(std::floor(maxs[i].x - mins[i].x - 20), std::floor(maxs[i].y - mins[i].y - own_header_h - 10));
  }
  for (size_t i = 0; i < n; ++i) {
    const Pane& p = panes_[i];
    stale = stale || p.version != ui.snapshot_version || p.w != bodies[i].x || p.h != bodies[i].y || p.scale != ui.memory_scale ||
            p.font != font;
  }
  if (stale) relayout(snap, ui, bodies);
  for (size_t i : shown) draw_pane(snap, ui, panes_[i], i, mins[i], maxs[i]);
  ImGui::Dummy(avail);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(top, ImVec2(top.x + avail.x, top.y + avail.y), true);
  // "old copy stays" labels keep off the pane headers, the blocks' own labels and the blocks (a label box
  // over the row below hid its colours); arrows stay below the headers.
  std::vector<ImVec4> avoid, headers;
  for (size_t i : shown) {
    avoid.push_back(ImVec4(mins[i].x, mins[i].y, maxs[i].x, mins[i].y + header_h));
    headers.push_back(avoid.back());
    const Pane& p = panes_[i];
    if (!p.drawn) continue;
    for (const MemoryLabel& lab : p.layout.labels)
      avoid.push_back(ImVec4(p.origin.x + lab.x, p.origin.y + lab.y, p.origin.x + lab.x + lab.w, p.origin.y + lab.y + p.layout.row_height));
    // Live blocks too (where there are few enough to check): a label over them hides their colours; with
    // no free place the holder goes to the footer line instead.
    if (p.layout.items.size() <= 2000)
      for (size_t k = 0; k < p.layout.items.size(); ++k) {
        float x, y, w, h;
        if (p.layout.item_rect(k, &x, &y, &w, &h))
          avoid.push_back(ImVec4(p.origin.x + x, p.origin.y + y, p.origin.x + x + w, p.origin.y + y + h));
      }
  }
  migration_.draw(dl, [this](uint64_t id, ImVec2* a, ImVec2* b) { return storage_rect(id, a, b); }, now, frozen_ && frozen_at_ < 0,
                  avoid, headers);
  dl->PopClipRect();
  if (footer) {
    std::string text;
    auto part = [&](const std::string& s) { text += (text.empty() ? "" : "   \xc2\xb7   ") + s; };
    if (!empty_places.empty()) part("empty: " + empty_places);
    if (!migration_.left_out_holders().empty()) {
      std::string held;
      for (const std::string& h : migration_.left_out_holders()) held += (held.empty() ? "" : "; ") + h;
      part(migration_.left_out_holders().size() == 1 ? MigrationView::held_text(held)
                                                      : "old copies stay: " + held + " still name them");
    }
    if (migration_.more() > 0)
      part("+" + std::to_string(migration_.more()) + (migration_.more() == 1 ? " more storage" : " more storages") + " moved in this step");
    footer_text_ = fit_text(ImGui::GetFont(), text, avail.x - 8);
    ImGui::SetCursorScreenPos(ImVec2(top.x + 4, top.y + avail.y + 4));
    ImGui::TextDisabled("%s", footer_text_.c_str());
  } else {
    footer_text_.clear();
  }
  if (hovered_this_frame_) ui.hovered_storage = hovered_this_frame_;
  ImGui::End();
}

void MemoryView::relayout(const Snapshot& snap, UiState& ui, const std::vector<ImVec2>& bodies) {
  // Each pane first finds the scale it would like; then all use the smallest, so that equal bytes
  // take equal room everywhere. Runs once per picture or pane size, never per frame.
  MemoryLayoutOptions o;
  o.scale = ui.memory_scale;
  // Rows as tall as a label, blocks as wide as their label while there is room (presenter fonts too).
  ImFont* small = fonts().small;
  const char* sample = "abcdefghijklmnopqrstuvwxyz.0123456789_[]";
  o.label_char_px = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, sample).x / float(std::strlen(sample));
  o.row_height = std::max(20.0f, small->FontSize + 6);
  o.row_gap = 3;
  o.label_min_px = std::max(24.0f, o.label_char_px * 2.5f + 8);
  o.readable_min_px = o.label_min_px;
  o.readable_max_px = o.label_char_px * 16 + o.label_pad_px;
  double common = 0;
  for (size_t i = 0; i < panes_.size(); ++i) {
    Pane& p = panes_[i];
    if (bodies[i].x <= 0) {  // not shown (an empty place in presenter mode)
      p.layout = MemoryPaneLayout();
      continue;
    }
    p.layout = layout_memory_pane(snap, index_, i, bodies[i].x, bodies[i].y, o);
    if (p.layout.fit_px_per_byte > 0) common = common > 0 ? std::min(common, p.layout.fit_px_per_byte) : p.layout.fit_px_per_byte;
  }
  o.px_per_byte = common;
  for (size_t i = 0; i < panes_.size(); ++i) {
    Pane& p = panes_[i];
    if (bodies[i].x > 0 && p.layout.fit_px_per_byte > common * 1.0000001)
      p.layout = layout_memory_pane(snap, index_, i, bodies[i].x, bodies[i].y, o);
    if (!p.batch) p.batch = std::make_unique<render::QuadBatch>(render::QuadStyle::MemoryBlocks);
    p.batch->upload(p.layout.quads);
    p.version = ui.snapshot_version;
    p.w = bodies[i].x;
    p.h = bodies[i].y;
    p.scale = ui.memory_scale;
    p.font = small->FontSize;
  }
}

void MemoryView::draw_pane(const Snapshot& snap, UiState& ui, Pane& pane, size_t place_index, ImVec2 min, ImVec2 max) {
  const PlaceInfo& place = snap.places[place_index];
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Outline only: a filled pane would be one more full layer for a software renderer to shade.
  dl->AddRect(min, max, theme::kPaneBorder, 5);

  // Header: fitted to the pane (memory_pane_header.h), clipped to it.
  const MemoryPaneLayout& L = pane.layout;
  draw_pane_header(dl, place, pane.header, min, max, scale_notes(L));
  const float header_h = pane_header_height(int(pane.header.figures.size()));

  // Body: the block map.
  const ImVec2 bmin(min.x + 10, min.y + header_h + 6);
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

  // Continuation notches: a dark wedge cut into the end of a piece that goes on at the next row's start,
  // and into the start of the piece that goes on from the row above.
  const float rh = pane.layout.row_height, notch = std::min(6.0f, rh * 0.35f);
  for (const WrapMark& w : pane.layout.wrap_marks) {
    const ImVec2 e(bmin.x + w.x, bmin.y + w.y);
    const float mid = e.y + rh * 0.5f;
    if (w.right)
      dl->AddTriangleFilled(ImVec2(e.x - notch, mid), ImVec2(e.x, mid - notch), ImVec2(e.x, mid + notch), IM_COL32(0x0e, 0x11, 0x16, 0xc0));
    else
      dl->AddTriangleFilled(ImVec2(e.x, mid - notch), ImVec2(e.x + notch, mid), ImVec2(e.x, mid + notch), IM_COL32(0x0e, 0x11, 0x16, 0xc0));
  }

  // Owner names on live blocks, sizes on cached free ones (memory_layout.cpp gives them the room).
  ImFont* f = fonts().small;
  for (const MemoryLabel& lab : pane.layout.labels) {
    const StorageInfo* st = lab.storage_id ? index_.find(lab.storage_id) : nullptr;
    if (lab.storage_id && !st) continue;
    const std::string text = st ? fit_owner(f, display_name(*st), lab.w - 8) : fit_text(f, free_block_label(lab.bytes), lab.w - 8);
    if (text.empty()) continue;
    const ImVec2 p(bmin.x + lab.x + 4, bmin.y + lab.y + (pane.layout.row_height - f->FontSize) * 0.5f);
    const ImVec4 clip(bmin.x + lab.x + 2, bmin.y + lab.y, bmin.x + lab.x + lab.w - 2, bmin.y + lab.y + pane.layout.row_height);
    dl->AddText(f, f->FontSize, p, st ? IM_COL32(0x0e, 0x11, 0x16, 0xff) : kFreeBlockText, text.c_str(), nullptr, 0, &clip);
    if (st && st->in_flight)  // issue 17 item 3: stale until a sync point folds the copy into it
      draw_in_flight_badge(dl, f, f->FontSize, bmin.x + lab.x + lab.w - 2, bmin.y + lab.y, pane.layout.row_height);
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
  if (s->in_flight) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "IN FLIGHT: %s", kInFlightExplained);
  if (s->role == Role::PlainAttribute)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "A plain tensor attribute: Module.to() does not move it (use register_buffer).");
  if (it.length < 2) ImGui::TextDisabled("Many small blocks share these pixels (folded); hover nearby for the others.");
  ImGui::EndTooltip();
}

}  // namespace ds::gui

// Drawing the names graph: frame column, object boxes with device badges, bezier arrows with labels.
#include "gui/names_view.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "gui/in_flight_badge.h"
#include "gui/view_state/palette.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

ImU32 kind_color(ObjectKind k) {
  switch (k) {
    case ObjectKind::Module: return IM_COL32(0x3a, 0x4a, 0x66, 0xff);
    case ObjectKind::Parameter: return with_alpha(role_color(Role::Parameter), 0.55f);
    case ObjectKind::Buffer: return with_alpha(role_color(Role::Buffer), 0.55f);
    case ObjectKind::Tensor: return IM_COL32(0x3a, 0x42, 0x4e, 0xff);
    case ObjectKind::List:
    case ObjectKind::Tuple:
    case ObjectKind::Dict: return IM_COL32(0x44, 0x3a, 0x5a, 0xff);
    case ObjectKind::Optimizer: return with_alpha(role_color(Role::OptimizerState), 0.55f);
    default: return IM_COL32(0x33, 0x38, 0x40, 0xff);
  }
}

const char* kind_title(ObjectKind k) {
  switch (k) {
    case ObjectKind::Module: return "module";
    case ObjectKind::Parameter: return "Parameter";
    case ObjectKind::Buffer: return "buffer";
    case ObjectKind::Tensor: return "tensor";
    case ObjectKind::List: return "list";
    case ObjectKind::Tuple: return "tuple";
    case ObjectKind::Dict: return "dict";
    case ObjectKind::Optimizer: return "optimizer";
    default: return "object";
  }
}

// A device badge that scales with the graph (theme's badge_at is drawn at the font's own size).
void zoomed_badge(ImDrawList* dl, ImFont* f, float size, ImVec2 pos, const char* text, ImU32 bg, float z) {
  const ImVec2 ts = f->CalcTextSizeA(size, FLT_MAX, 0, text);
  dl->AddRectFilled(pos, ImVec2(pos.x + ts.x + 10 * z, pos.y + ts.y + 2 * z), bg, 3 * z);
  dl->AddText(f, size, ImVec2(pos.x + 5 * z, pos.y + z), IM_COL32(0x10, 0x12, 0x16, 0xff), text);
}

}  // namespace

void NamesView::replan(const Snapshot& snap, float view_w, float view_h, float min_zoom) {
  ImFont* fs = fonts().small;
  options_.line_height = fs->FontSize + 5;
  options_.column_gap = 40;
  options_.pad_x = 8;
  options_.row_gap = 3;
  options_.name_gap = 2;
  // Boxes no wider than about half the view at the readable zoom, so that names, objects and storages
  // fit side by side; what is longer is cut with "…" and shown whole on hover.
  // (Three columns - names, objects, storages - and their two gaps share the width.)
  options_.max_box_w = std::max(110.0f, 0.4f * (view_w / min_zoom - 2 * options_.column_gap));
  auto width = [fs](const std::string& s) { return fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, s.c_str()).x; };
  // Open: what the user unfolded, and the way to what the search or the focused storage found.
  std::unordered_set<uint64_t> open = user_open_;
  open.insert(found_.begin(), found_.end());
  auto plan = [&] {
    return plan_folds(
        snap.objects, &snap.storages, user_folded_, open,
        [&](const ObjectGraph& g) { return layout_graph(g, width, options_, &snap.storages); },
        [&](const GraphLayout& l) { return l.width * min_zoom <= view_w + 0.5f && l.height * min_zoom <= view_h + 0.5f; });
  };
  options_.storage_layer = true;
  plan_ = plan();
  if (plan_.names_kept != SIZE_MAX || !plan_.fits) {
    // Names matter more than the storage column: without it, do more names fit?
    options_.storage_layer = false;
    FoldPlan narrow = plan();
    if ((narrow.fits && !plan_.fits) || narrow.names_kept > plan_.names_kept) plan_ = std::move(narrow);
    else options_.storage_layer = true;
  }
  names_hidden_ = 0;
  if (plan_.names_kept != SIZE_MAX)
    for (const ObjectNode& n : snap.objects.nodes) names_hidden_ += n.kind == ObjectKind::Name;
  if (names_hidden_) names_hidden_ -= plan_.names_kept;
  planned_w_ = view_w;
  planned_h_ = view_h;
  planned_zoom_ = min_zoom;
  dirty_ = false;
}

void NamesView::handle_click(const Snapshot& snap, int box) {
  const GraphBox& b = plan_.layout.boxes[size_t(box)];
  if (b.is_storage()) {  // focus: who refers to these bytes (a second click lets go)
    focus_storage_ = focus_storage_ == b.storage_id ? 0 : b.storage_id;
    dirty_ = true;
    return;
  }
  const uint64_t id = plan_.graph.nodes[b.node].id;
  // Fold state is asked of the whole graph: a folded box has no references left in plan_.graph.
  const auto children = out_edges(snap.objects);
  for (size_t i = 0; i < snap.objects.nodes.size(); ++i) {
    if (snap.objects.nodes[i].id != id || !foldable(snap.objects, i, children)) continue;
    if (plan_.folded.count(id)) {
      user_folded_.erase(id);
      user_open_.insert(id);
    } else {
      user_open_.erase(id);
      user_folded_.insert(id);
    }
    dirty_ = true;
    return;
  }
}

void NamesView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  if (!ImGui::Begin("Names", &ui.show_names)) {
    ImGui::End();
    return;
  }
  ImFont* fs = fonts().small;
  if (version_ != ui.snapshot_version) {
    version_ = ui.snapshot_version;
    dirty_ = true;
  }
  size_t names = 0;
  for (const ObjectNode& n : snap.objects.nodes) names += n.kind == ObjectKind::Name;
  const GraphLayout& shown = plan_.layout;
  ImGui::TextDisabled("%zu names, %zu objects, %zu storages", names, snap.objects.nodes.size() - names, snap.storages.size());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Names (left) refer to objects; tensors look at storages (right): views, .data and .detach()\n"
                      "of one tensor share its storage box. Plain values are written beside their names.\n"
                      "\xe2\x96\xb8 marks a folded module or container: click it to open it, click an open one to fold it.\n"
                      "Click a storage to see who refers to it.");
  if (shown.changed) {
    ImGui::SameLine();
    badge((std::to_string(shown.changed) + " changed").c_str(), theme::kChanged);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Outlined in yellow: new or different since the previous step.");
  }
  // Search: matching names, objects and references light up, and the folds on the way to them open.
  const float fit_w = ImGui::CalcTextSize("Fit").x + ImGui::GetStyle().FramePadding.x * 2;
  const float search_w = std::min(ImGui::GetFontSize() * 9, ImGui::GetContentRegionAvail().x * 0.4f);
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float text_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;  // after the figures (or badge)
  if (!ui.presenter && right - search_w - fit_w - 16 > text_end + 8) {
    ImGui::SameLine(right - search_w - fit_w - 8);
    ImGui::SetNextItemWidth(search_w);
    if (ImGui::InputTextWithHint("##find", "find a name", search_, sizeof search_)) dirty_ = true;
  }
  ImGui::SameLine(right - fit_w);
  if (ImGui::SmallButton("Fit")) ui.graph_fit = true;

  ImGui::BeginChild("##graph", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const ImVec2 c0 = ImGui::GetCursorScreenPos(), size = ImGui::GetContentRegionAvail();
  ImGui::InvisibleButton("##canvas", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)), ImGuiButtonFlags_MouseButtonLeft);
  const bool hovered = ImGui::IsItemHovered();
  const float heading = fs->FontSize + 10;  // "Global frame", "Objects", "Storages" above the boxes
  const ImVec2 margin(12, 8 + heading);
  const float view_w = std::max(1.0f, size.x - 2 * margin.x), view_h = std::max(1.0f, size.y - margin.y - 10);
  // Text never under 12 px (14 px presenting): below that zoom the graph folds instead (issue 24 item 2).
  const float min_zoom = (ui.presenter ? 14.0f : 12.0f) / fs->FontSize;
  if (dirty_ || planned_w_ != view_w || planned_h_ != view_h || planned_zoom_ != min_zoom) {
    // The search's matches and the focused storage's referrers, and the way to them, stay open.
    found_.clear();
    std::string query = search_;
    std::transform(query.begin(), query.end(), query.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    const ObjectGraph& og = snap.objects;
    if (!query.empty() || focus_storage_) {
      std::unordered_set<uint64_t> edge_hit;
      for (const ObjectEdge& e : og.edges) {
        std::string l = e.label;
        std::transform(l.begin(), l.end(), l.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
        if (!query.empty() && l.find(query) != std::string::npos) edge_hit.insert(e.to);
      }
      found_ = paths_to(og, [&](size_t i) {
        const ObjectNode& n = og.nodes[i];
        if (focus_storage_ && n.storage_id == focus_storage_) return true;
        if (query.empty()) return false;
        std::string l = n.label;
        std::transform(l.begin(), l.end(), l.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
        return l.find(query) != std::string::npos || edge_hit.count(n.id) > 0;
      });
    }
    replan(snap, view_w, view_h, min_zoom);
  }
  const ObjectGraph& g = plan_.graph;
  const GraphLayout& layout_ = plan_.layout;
  if (ui.graph_fit) {
    // The whole graph in view until the user pans or zooms: magnified up to 1.6 when small, never below
    // the readable zoom (the plan folded until it fits there).
    ui.graph_zoom = std::clamp(std::min(view_w / std::max(layout_.width, 1.0f), view_h / std::max(layout_.height, 1.0f)), min_zoom, 1.6f);
    ui.graph_pan_x = ui.graph_pan_y = 0;
  }
  last_zoom_ = ui.graph_zoom;
  last_view_w_ = view_w, last_view_h_ = view_h;
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f)) {
    ui.graph_pan_x += ImGui::GetIO().MouseDelta.x;
    ui.graph_pan_y += ImGui::GetIO().MouseDelta.y;
    ui.graph_fit = false;
  }
  if (hovered && ImGui::GetIO().MouseWheel != 0 && !ImGui::GetIO().KeyCtrl) {
    // Wheel scrolls (Shift: sideways); Ctrl+wheel zooms.
    const float d = ImGui::GetIO().MouseWheel * 40;
    if (ImGui::GetIO().KeyShift) ui.graph_pan_x += d;
    else ui.graph_pan_y += d;
    ui.graph_fit = false;
  } else if (hovered && ImGui::GetIO().MouseWheel != 0) {
    const float old = ui.graph_zoom;
    ui.graph_zoom = std::clamp(ui.graph_zoom * std::pow(1.12f, ImGui::GetIO().MouseWheel), min_zoom, 2.5f);
    const ImVec2 m = ImGui::GetIO().MousePos;  // zoom about the mouse
    const float k = ui.graph_zoom / old;
    ui.graph_pan_x = (m.x - c0.x - margin.x) - (m.x - c0.x - margin.x - ui.graph_pan_x) * k;
    ui.graph_pan_y = (m.y - c0.y - margin.y) - (m.y - c0.y - margin.y - ui.graph_pan_y) * k;
    ui.graph_fit = false;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) ui.graph_fit = true;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(c0, ImVec2(c0.x + size.x, c0.y + size.y), true);
  dl->AddRect(c0, ImVec2(c0.x + size.x, c0.y + size.y), theme::kPaneBorder, 4);
  if (g.nodes.empty()) {
    const char* msg = !snap.source.path.empty() ? "No names in an opened file: see Owners."
                                                : "No names yet: run or step the script.";
    const std::string shown_msg = fit_text(ImGui::GetFont(), msg, size.x - 16);
    const ImVec2 ts = ImGui::CalcTextSize(shown_msg.c_str());
    dl->AddText(ImVec2(c0.x + (size.x - ts.x) * 0.5f, c0.y + (size.y - ts.y) * 0.5f), theme::kTextDim, shown_msg.c_str());
    dl->PopClipRect();
    min_text_px_ = 0;
    cut_off_ = 0;
    ImGui::EndChild();
    ImGui::End();
    return;
  }
  const float z = ui.graph_zoom;
  const ImVec2 o(c0.x + margin.x + ui.graph_pan_x, c0.y + margin.y + ui.graph_pan_y);
  auto P = [&](float x, float y) { return ImVec2(std::floor(o.x + x * z), std::floor(o.y + y * z)); };
  const float ssz = fs->FontSize * z;

  // The frame: all names in one box, like Python Tutor's "Global frame".
  float frame_w = 0, frame_h = 0;
  for (const GraphBox& b : layout_.boxes)
    if (b.column == 0) {
      frame_w = std::max(frame_w, b.w);
      frame_h = std::max(frame_h, b.y + b.h);
    }
  dl->AddRectFilled(P(-6, -6), P(frame_w + 6, frame_h + 6), IM_COL32(0x1b, 0x20, 0x28, 0xff), 5 * z);
  dl->AddText(fs, ssz, ImVec2(P(0, 0).x, c0.y + 6), theme::kTextDim, "Global frame");
  // "Objects" heads the first object column, but never runs into "Global frame" (narrow names, big fonts).
  const float frame_label_end = P(0, 0).x + fs->CalcTextSizeA(ssz, FLT_MAX, 0, "Global frame").x + 8;
  for (const GraphBox& b : layout_.boxes)
    if (b.column == 1 && !b.is_storage()) {
      dl->AddText(fs, ssz, ImVec2(std::max(P(b.x, 0).x, frame_label_end), c0.y + 6), theme::kTextDim, "Objects");
      break;
    }
  for (const GraphBox& b : layout_.boxes)
    if (b.is_storage()) {
      dl->AddText(fs, ssz, ImVec2(P(b.x, 0).x, c0.y + 6), theme::kTextDim, "Storages");
      break;
    }

  const ImVec4 view(c0.x, c0.y, c0.x + size.x, c0.y + size.y);
  auto visible = [&](const GraphBox& b) {
    const ImVec2 a = P(b.x, b.y), c = P(b.x + b.w, b.y + b.h);
    return c.x >= view.x && a.x <= view.z && c.y >= view.y && a.y <= view.w;
  };
  int hovered_box = -1;
  const ImVec2 m = ImGui::GetIO().MousePos;
  // Readability figures for the view-model JSON: the text size drawn, and boxes not wholly in view.
  min_text_px_ = ssz;
  cut_off_ = 0;
  const ImVec4 inner(c0.x + 1, c0.y + 1, c0.x + size.x - 1, c0.y + size.y - 1);
  for (size_t i = 0; i < layout_.boxes.size(); ++i) {
    const GraphBox& b = layout_.boxes[i];
    const ImVec2 a = P(b.x, b.y), c = P(b.x + b.w, b.y + b.h);
    cut_off_ += a.x < inner.x || a.y < inner.y || c.x > inner.z || c.y > inner.w;
    if (hovered && m.x >= a.x && m.x <= c.x && m.y >= a.y && m.y <= c.y) hovered_box = int(i);
  }
  // A click (not a drag) folds or opens a container, or focuses a storage.
  if (hovered_box >= 0 && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && ImGui::GetIO().MouseDragMaxDistanceSqr[0] < 9.0f)
    handle_click(snap, hovered_box);
  // Found by the search or referring to the focused storage: outlined; the rest is dimmed a little.
  const bool finding = search_[0] != 0 || focus_storage_ != 0;
  auto found = [&](const GraphBox& b) {
    if (b.is_storage()) return focus_storage_ != 0 && b.storage_id == focus_storage_;
    return found_.count(g.nodes[b.node].id) > 0;
  };

  // The storage a hovered tensor or storage box stands for: every tensor on it lights up with it.
  const uint64_t hot_storage = hovered_box >= 0 ? layout_.boxes[size_t(hovered_box)].storage_id : 0;
  // Tensor -> storage arrows under the boxes (they may cross object columns), reference arrows on top.
  for (const GraphArrow& ar : layout_.arrows) {
    if (ar.edge != kNoNode) continue;
    const GraphBox& from = layout_.boxes[ar.from];
    const GraphBox& to = layout_.boxes[ar.to];
    if (!visible(from) && !visible(to)) continue;
    float x0, y0, x1, y1;
    arrow_points(layout_, ar, options_, &x0, &y0, &x1, &y1);
    const bool hot = hot_storage && to.storage_id == hot_storage;
    const ImVec2 p0 = P(x0, y0), p1 = P(x1, y1);
    const ImU32 col = hot ? IM_COL32(0xff, 0xff, 0xff, 0xf0) : with_alpha(device_color(to.device), 0.55f);
    const float dx = std::max(24.0f * z, (p1.x - p0.x) * 0.5f);
    dl->AddBezierCubic(p0, ImVec2(p0.x + dx, p0.y), ImVec2(p1.x - dx, p1.y), p1, col, hot ? 2.0f : 1.0f, 16);
    dl->AddTriangleFilled(p1, ImVec2(p1.x - 6 * z, p1.y - 3.5f * z), ImVec2(p1.x - 6 * z, p1.y + 3.5f * z), col);
  }
  for (size_t i = 0; i < layout_.boxes.size(); ++i) {
    const GraphBox& b = layout_.boxes[i];
    if (!visible(b)) continue;
    const ImVec2 a = P(b.x, b.y), c = P(b.x + b.w, b.y + b.h);
    if (b.is_storage()) {
      // The bytes themselves: outlined in the colour of where they live, the tensor count when shared.
      const ImU32 pc = device_color(b.device);
      dl->AddRectFilled(a, c, IM_COL32(0x1a, 0x1e, 0x25, 0xff), 2 * z);
      dl->AddRectFilled(a, ImVec2(a.x + 4 * z, c.y), pc, 2 * z, ImDrawFlags_RoundCornersLeft);
      dl->AddRect(a, c, with_alpha(pc, 0.7f), 2 * z, 0, b.tensors > 1 ? 2.0f : 1.0f);
      const float sbadge_w = b.device.empty() ? 0.0f : fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, b.device.c_str()).x;
      const bool in_flight = storage_in_flight(snap, b.storage_id);
      // In flight (issue 17 item 3: stale until a sync point folds the copy): the badge takes the size's
      // place (the tooltip has it) and the place badge follows it only where the box has room for both.
      const float ifw = in_flight ? in_flight_badge_width(fs, ssz) : 0.0f;
      const std::string slabel = in_flight ? "" : fit_text(fs, b.label, label_room(options_, b.w, sbadge_w));
      if (!in_flight) dl->AddText(fs, ssz, ImVec2(a.x + 9 * z, a.y + 3.5f * z), theme::kText, slabel.c_str());
      const float lw = in_flight ? ifw - 2 * z : fs->CalcTextSizeA(ssz, FLT_MAX, 0, slabel.c_str()).x;
      const float bx = a.x + 9 * z + lw + 8 * z;
      if (!b.device.empty() && (!in_flight || bx + (sbadge_w + 10) * z <= c.x - 2))
        zoomed_badge(dl, fs, ssz, ImVec2(bx, a.y + 2.5f * z), b.device.c_str(), pc, z);
      if (in_flight) {
        dl->AddRect(a, c, theme::kWarning, 2 * z, 0, 2.0f);
        draw_in_flight_badge(dl, fs, ssz, a.x + 7 * z + ifw, a.y, c.y - a.y);
      }
      if ((hot_storage && b.storage_id == hot_storage) || (b.storage_id && b.storage_id == ui.pointed_storage))
        dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(c.x + 1, c.y + 1), IM_COL32_WHITE, 3 * z, 0, 1.5f);
      if (finding && found(b)) dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(c.x + 3, c.y + 3), theme::kAccent, 4 * z, 0, 2.0f);
      continue;
    }
    const ObjectNode& n = g.nodes[b.node];
    const bool pointed = n.storage_id && (n.storage_id == ui.pointed_storage || n.storage_id == hot_storage);
    if (n.kind == ObjectKind::Name) {
      dl->AddRectFilled(a, c, IM_COL32(0x26, 0x2d, 0x38, 0xff), 3 * z);
      const std::string line = fit_text(fs, b.label, label_room(options_, b.w, 0));
      dl->AddText(fs, ssz, ImVec2(a.x + 8 * z, a.y + 3 * z), theme::kText, line.c_str());
    } else {
      const ImU32 kc = kind_color(n.kind);
      dl->AddRectFilled(a, c, IM_COL32(0x1f, 0x24, 0x2d, 0xff), 4 * z);
      dl->AddRectFilled(a, P(b.x + b.w, b.y + b.header_h), with_alpha(kc, 0.45f), 4 * z, ImDrawFlags_RoundCornersTop);
      dl->AddRect(a, c, lighten(kc, 0.1f), 4 * z);
      // The label's lines (a folded container has two), each cut to the box (max_box_w) where needed;
      // the device badge beside the last.
      const std::string label = display_label(n);
      const float badge_w = n.device.empty() ? 0.0f : fs->CalcTextSizeA(fs->FontSize, FLT_MAX, 0, n.device.c_str()).x;
      float line_y = 3.5f, lw = 0;
      for (size_t from = 0; from <= label.size();) {
        size_t nl = label.find('\n', from);
        if (nl == std::string::npos) nl = label.size();
        const bool last_line = nl == label.size();
        const std::string line = fit_text(fs, label.substr(from, nl - from), label_room(options_, b.w, last_line ? badge_w : 0));
        dl->AddText(fs, ssz, ImVec2(a.x + 8 * z, a.y + line_y * z), theme::kText, line.c_str());
        lw = fs->CalcTextSizeA(ssz, FLT_MAX, 0, line.c_str()).x;
        if (!last_line) line_y += options_.line_height;
        from = nl + 1;
      }
      if (!n.device.empty())
        zoomed_badge(dl, fs, ssz, ImVec2(a.x + 8 * z + lw + 8 * z, a.y + (line_y - 1) * z), n.device.c_str(), device_color(n.device), z);
      // Reference rows: attribute / index names, each with the dot its arrow leaves from.
      int row = 0;
      for (const GraphArrow& ar : layout_.arrows) {
        if (ar.from != i || ar.row < 0) continue;
        const float ry = b.y + b.header_h + float(ar.row) * options_.line_height;
        if (row++ % 2 == 1) dl->AddRectFilled(P(b.x + 1, ry + 2), P(b.x + b.w - 1, ry + 2 + options_.line_height), IM_COL32(0xff, 0xff, 0xff, 0x06));
        if (z >= 0.5f) dl->AddText(fs, ssz, ImVec2(P(b.x + 8, ry + 3).x, P(0, ry + 3).y), theme::kTextDim, g.edges[ar.edge].label.c_str());
      }
    }
    if (n.changed) {
      dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(c.x + 2, c.y + 2), with_alpha(theme::kChanged, 0.85f), 5 * z, 0, 1.5f);
      dl->AddCircleFilled(ImVec2(c.x - 1, a.y + 1), 3.5f, theme::kChanged);
    }
    if (pointed || int(i) == hovered_box) dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(c.x + 1, c.y + 1), IM_COL32_WHITE, 5 * z, 0, 1.5f);
    if (finding && found(b)) dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(c.x + 3, c.y + 3), theme::kAccent, 5 * z, 0, 2.0f);
    else if (finding) dl->AddRectFilled(a, c, IM_COL32(0x12, 0x15, 0x1b, 0x90), 4 * z);
  }
  for (const GraphArrow& ar : layout_.arrows) {
    if (ar.edge == kNoNode) continue;  // tensor -> storage: drawn under the boxes
    const GraphBox& from = layout_.boxes[ar.from];
    const GraphBox& to = layout_.boxes[ar.to];
    if (!visible(from) && !visible(to)) continue;
    float x0, y0, x1, y1;
    arrow_points(layout_, ar, options_, &x0, &y0, &x1, &y1);
    const bool hot = int(ar.from) == hovered_box || int(ar.to) == hovered_box;
    const ImVec2 p0 = P(ar.row < 0 ? x0 : x0 - 6, y0), p1 = P(x1, y1);
    const ImU32 col = hot ? IM_COL32(0xff, 0xff, 0xff, 0xf0) : IM_COL32(0x9a, 0xa8, 0xbc, 0xb0);
    if (p1.x > p0.x + 10) {
      const float dx = std::max(24.0f * z, (p1.x - p0.x) * 0.5f);
      dl->AddBezierCubic(p0, ImVec2(p0.x + dx, p0.y), ImVec2(p1.x - dx, p1.y), p1, col, hot ? 2.0f : 1.2f, 14);
    } else {
      // The target is in an earlier column (a cycle or a shared object): loop around the right.
      const float r = 40 * z;
      dl->AddBezierCubic(p0, ImVec2(p0.x + r, p0.y), ImVec2(p1.x - r, p1.y - r), p1, col, hot ? 2.0f : 1.2f, 14);
    }
    dl->AddTriangleFilled(p1, ImVec2(p1.x - 7 * z, p1.y - 4 * z), ImVec2(p1.x - 7 * z, p1.y + 4 * z), col);
    dl->AddCircleFilled(p0, 2.6f * z, col);
  }
  dl->PopClipRect();

  if (hovered_box >= 0 && layout_.boxes[size_t(hovered_box)].is_storage()) {
    const GraphBox& b = layout_.boxes[size_t(hovered_box)];
    ui.hovered_storage = b.storage_id;
    ImGui::BeginTooltip();
    ImGui::Text("storage #%llu: %s on %s", static_cast<unsigned long long>(b.storage_id), b.label.c_str(), b.device.c_str());
    ImGui::TextDisabled(b.tensors > 1 ? "%d tensors share these bytes: writing through one changes the others"
                                      : "%d tensor looks at these bytes", b.tensors);
    for (const StorageHolders& h : snap.objects.holders)
      if (h.storage_id == b.storage_id)
        for (const std::string& name : h.names) ImGui::BulletText("%s", name.c_str());
    ImGui::TextDisabled(focus_storage_ == b.storage_id ? "click: let go" : "click: outline everything that refers to it");
    if (storage_in_flight(snap, b.storage_id))
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "IN FLIGHT: %s", kInFlightExplained);
    ImGui::EndTooltip();
  } else if (hovered_box >= 0) {
    const ObjectNode& n = g.nodes[layout_.boxes[size_t(hovered_box)].node];
    ui.hovered_storage = n.storage_id;  // the memory panes outline this block
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(n.label.c_str());
    ImGui::TextDisabled("%s%s%s", n.kind == ObjectKind::Name ? "name" : kind_title(n.kind), n.device.empty() ? "" : " on ",
                        n.device.c_str());
    if (n.storage_id) ImGui::TextDisabled("storage #%llu", static_cast<unsigned long long>(n.storage_id));
    if (n.changed) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kChanged), "changed in the last step");
    if (plan_.folded.count(n.id)) ImGui::TextDisabled("folded: click to open it");
    else if (n.kind != ObjectKind::Name && !layout_.boxes[size_t(hovered_box)].is_storage() && layout_.boxes[size_t(hovered_box)].rows > 0)
      ImGui::TextDisabled("click to fold it");
    ImGui::EndTooltip();
  }
  ImGui::EndChild();
  (void)cmds;
  ImGui::End();
}

}  // namespace ds::gui

// Pane header fitting: candidates from the longest to the shortest, the first that fits wins.
#include "gui/memory_pane_header.h"

#include <algorithm>

#include "gui/view_state/palette.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

constexpr float kPad = 10;            // left and right inside the pane
constexpr float kTitleY = 5;          // the title's top
constexpr const char* kDot = "  \xc2\xb7  ";

float text_w(ImFont* f, const std::string& s) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, s.c_str()).x; }
float badge_w(const std::string& b) { return b.empty() ? 0 : text_w(fonts().small, b) + 10 + 8; }
float title_room(float width) { return width - 2 * kPad - 14; }  // after the colour dot

// Figures from the most to the least complete: each entry is a list of lines. Every pane that has a
// caching allocator (GPUs and pinned host memory) says "reserved", as torch.cuda.memory_reserved() does; a
// device whose capacity is not known (an opened file that does not record it) says so, not "0 bytes".
std::vector<std::vector<std::string>> figure_candidates(const PlaceInfo& p, uint64_t virtual_bytes) {
  const std::string a = "allocated " + fmt_bytes(p.allocated);
  const std::string v = virtual_bytes ? fmt_bytes(virtual_bytes) + " virtual (no bytes behind it)" : "";
  const std::string v_short = virtual_bytes ? fmt_bytes(virtual_bytes) + " virtual" : "";
  auto with_virtual = [&](std::vector<std::vector<std::string>> c) {
    if (!virtual_bytes) return c;
    std::vector<std::vector<std::string>> out;
    for (const auto& lines : c) out.push_back({lines[0] + kDot + v});
    for (const auto& lines : c) out.push_back({lines[0] + kDot + v_short});
    for (const auto& lines : c) out.push_back({lines[0], v_short});
    return out;
  };
  if (p.place.kind == MemoryKind::Device) {
    const std::string r = "reserved " + fmt_bytes(p.reserved);
    const std::string cap = p.capacity ? fmt_bytes(p.capacity) : "capacity unknown";
    const std::string c = p.capacity ? "capacity " + cap : cap;
    if (virtual_bytes) return with_virtual({{a + kDot + r}, {a}});
    return {{a + kDot + r + kDot + c}, {a + kDot + r}, {a, p.capacity ? r + " of " + cap : r + kDot + cap}, {a, r}};
  }
  if (p.place.kind == MemoryKind::Pinned) {
    const std::string r = "reserved " + fmt_bytes(p.reserved);
    if (virtual_bytes) return with_virtual({{a + kDot + r}, {a}});
    return {{a + kDot + r}, {a, r}};
  }
  return with_virtual({{fmt_bytes(p.allocated) + " in use"}});
}

bool lines_fit(const std::vector<std::string>& lines, float room) {
  for (const std::string& l : lines)
    if (text_w(fonts().small, l) > room) return false;
  return true;
}

}  // namespace

int pane_header_lines(const PlaceInfo& place, float width, uint64_t virtual_bytes) {
  const auto candidates = figure_candidates(place, virtual_bytes);
  for (const auto& c : candidates)
    if (lines_fit(c, width - 2 * kPad)) return int(c.size());
  return int(candidates.back().size());
}

PaneHeader fit_pane_header(const PlaceInfo& place, float width, int max_lines, uint64_t virtual_bytes) {
  PaneHeader h;
  h.title = place.label;
  ImFont* bold = fonts().bold;
  ImFont* small = fonts().small;
  const float tw = text_w(bold, h.title);
  float room = title_room(width);
  if (tw > room) {
    h.title = fit_text(bold, h.title, room);
    h.clipped = true;
  }
  room -= text_w(bold, h.title);
  if (place.simulated)
    for (const char* b : {"SIMULATED", "SIM"})
      if (badge_w(b) <= room) {
        h.badge = b;
        room -= badge_w(b);
        break;
      }
  // The detail only when it fits whole or nearly (a few letters and an ellipsis say nothing).
  const float gap = 10;
  if (!place.detail.empty() && room - gap > text_w(small, "ordinary\xe2\x80\xa6")) h.detail = fit_text(small, place.detail, room - gap);

  const float fig_room = width - 2 * kPad;
  const auto candidates = figure_candidates(place, virtual_bytes);
  for (const auto& c : candidates)
    if (int(c.size()) <= max_lines && lines_fit(c, fig_room)) {
      h.figures = c;
      return h;
    }
  // Nothing fits: the shortest that has the lines allowed, each line with an ellipsis.
  for (auto it = candidates.rbegin(); it != candidates.rend(); ++it)
    if (int(it->size()) <= max_lines) {
      for (const std::string& l : *it) h.figures.push_back(fit_text(small, l, fig_room));
      break;
    }
  h.clipped = true;
  return h;
}

float pane_header_height(int lines) {
  const float title_y = kTitleY;
  const float figures_y = title_y + fonts().bold->FontSize + 3;
  const float bar_y = figures_y + float(std::max(lines, 1)) * (fonts().small->FontSize + 2);
  return bar_y + 4 + 2;
}

void draw_pane_header(ImDrawList* dl, const PlaceInfo& place, const PaneHeader& h, ImVec2 min, ImVec2 max,
                      const std::vector<std::string>& scale_notes) {
  ImFont* bold = fonts().bold;
  ImFont* small = fonts().small;
  dl->PushClipRect(min, max, true);
  const ImVec2 tp(min.x + kPad, min.y + kTitleY);
  const uint32_t pc = place_color(place.place);
  dl->AddCircleFilled(ImVec2(tp.x + 4, tp.y + bold->FontSize * 0.5f), 4.5f, pc);
  dl->AddText(bold, bold->FontSize, ImVec2(tp.x + 14, tp.y), theme::kText, h.title.c_str());
  float x = tp.x + 14 + text_w(bold, h.title) + 8;
  if (!h.badge.empty()) {
    badge_at(dl, ImVec2(x, tp.y + (bold->FontSize - small->FontSize) * 0.5f), h.badge.c_str(), theme::kSimulated);
    x += badge_w(h.badge);
  }
  if (!h.detail.empty())
    dl->AddText(small, small->FontSize, ImVec2(x + 2, tp.y + (bold->FontSize - small->FontSize)), theme::kTextDim, h.detail.c_str());

  float fy = tp.y + bold->FontSize + 3;
  for (size_t i = 0; i < h.figures.size(); ++i) {
    dl->AddText(small, small->FontSize, ImVec2(tp.x, fy), theme::kText, h.figures[i].c_str());
    if (i + 1 == h.figures.size())
      for (const std::string& note : scale_notes) {
        const float sw = text_w(small, note);
        if (tp.x + text_w(small, h.figures[i]) + 16 < max.x - kPad - sw) {
          dl->AddText(small, small->FontSize, ImVec2(max.x - kPad - sw, fy), theme::kTextDim, note.c_str());
          break;
        }
      }
    fy += small->FontSize + 2;
  }
  // Capacity bar: reserved (light) and allocated (the place's colour) against capacity, or against
  // reserved on hosts.
  const float bar_y = min.y + pane_header_height(int(h.figures.size())) - 6;
  const ImVec2 b0(min.x + kPad, bar_y), b1(max.x - kPad, bar_y + 4);
  dl->AddRectFilled(b0, b1, IM_COL32(0x26, 0x2d, 0x38, 0xff), 2);
  const double whole = place.capacity > 0 ? double(place.capacity) : double(std::max<uint64_t>(place.reserved, 1));
  auto frac_x = [&](uint64_t v) { return b0.x + float(std::min(1.0, double(v) / whole)) * (b1.x - b0.x); };
  if (place.reserved) dl->AddRectFilled(b0, ImVec2(std::max(frac_x(place.reserved), b0.x + 2), b1.y), IM_COL32(0x5a, 0x6a, 0x82, 0xff), 2);
  if (place.allocated) dl->AddRectFilled(b0, ImVec2(std::max(frac_x(place.allocated), b0.x + 2), b1.y), pc, 2);
  dl->PopClipRect();
}

}  // namespace ds::gui

// The "in flight" badge: one look for Memory and Names.
#include "gui/in_flight_badge.h"

#include <algorithm>

#include "gui/theme.h"

namespace ds::gui {

bool storage_in_flight(const Snapshot& snap, uint64_t storage_id) {
  // Storages are sorted by id (Runtime::snapshot).
  auto it = std::lower_bound(snap.storages.begin(), snap.storages.end(), storage_id,
                             [](const StorageInfo& s, uint64_t id) { return s.id < id; });
  return it != snap.storages.end() && it->id == storage_id && it->in_flight;
}

float in_flight_badge_width(ImFont* font, float font_size) {
  return font->CalcTextSizeA(font_size, FLT_MAX, 0, kInFlightText).x + 8;
}

float draw_in_flight_badge(ImDrawList* dl, ImFont* font, float font_size, float right, float top, float height) {
  const ImVec2 ts = font->CalcTextSizeA(font_size, FLT_MAX, 0, kInFlightText);
  const float w = ts.x + 8, h = std::min(height, ts.y + 2);
  const ImVec2 a(right - w, top + (height - h) * 0.5f), b(right, top + (height + h) * 0.5f);
  dl->AddRectFilled(a, b, theme::kWarning, 3);
  dl->AddText(font, font_size, ImVec2(a.x + 4, a.y + (h - ts.y) * 0.5f), IM_COL32(0x10, 0x12, 0x16, 0xff), kInFlightText);
  return w;
}

}  // namespace ds::gui

// A memory pane's header: title (with the place's colour dot), SIMULATED badge, detail, the figures and
// the capacity bar. Fitted to the pane's width instead of cut: the title is never shortened, the badge
// shrinks to "SIM" or goes (the window's legend keeps one), the detail goes first, and the figures drop
// the capacity, then take two lines. Sizes follow the fonts, so presenter mode's large fonts fit too.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "trace/snapshot.h"

namespace ds::gui {

struct PaneHeader {
  std::string title;
  std::string badge;                 // "SIMULATED", "SIM" or "" (no room, or not simulated)
  std::string detail;                // device name / link, "" when there is no room for it
  std::vector<std::string> figures;  // one or two lines
  bool clipped = false;              // the title or a figures line had to be cut (ellipsis)
};

// The header as it fits `width` pixels, its figures on at most `max_lines` lines.
// `virtual_bytes`: bytes of the place's storages that are accounted with nothing behind them (a model
// built on the meta/virtual path); the figures count them apart ("0 bytes in use · 128 GiB virtual").
PaneHeader fit_pane_header(const PlaceInfo& place, float width, int max_lines, uint64_t virtual_bytes = 0);
// Figure lines the header needs at `width` (1 or 2).
int pane_header_lines(const PlaceInfo& place, float width, uint64_t virtual_bytes = 0);
// Height of a header with `lines` figures lines (title, figures, capacity bar).
float pane_header_height(int lines);
// Draws it at the pane's top-left `min` (clipped to the pane); `scale_note` ("1 px = 4.0 KiB") goes at
// the right of the last figures line when there is room.
// (`scale_notes`: spellings longest first, the first that fits is drawn.)
void draw_pane_header(ImDrawList* dl, const PlaceInfo& place, const PaneHeader& h, ImVec2 min, ImVec2 max,
                      const std::vector<std::string>& scale_notes);

}  // namespace ds::gui

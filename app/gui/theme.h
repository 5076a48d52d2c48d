// The app's look: one dark theme, DejaVu fonts (Debian's fonts-dejavu-core; ImGui's font as fallback),
// and small shared widgets (badges, the SIMULATED badge, help markers, number formatting).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <imgui.h>

namespace ds::gui {

struct Fonts {
  ImFont* ui = nullptr;     // body text
  ImFont* bold = nullptr;   // pane titles
  ImFont* mono = nullptr;   // editor, console, tables
  ImFont* small = nullptr;  // labels on blocks, axis ticks
  bool dejavu = false;      // false: ImGui's built-in font is used
};
const Fonts& fonts();

// Loads the fonts into ImGui's atlas and sets the style; `scale` for HiDPI.
void apply_theme(float scale = 1.0f);

namespace theme {
inline constexpr ImU32 kBackground = IM_COL32(0x12, 0x15, 0x1b, 0xff);
inline constexpr ImU32 kPane = IM_COL32(0x19, 0x1d, 0x24, 0xff);
inline constexpr ImU32 kPaneBorder = IM_COL32(0x2e, 0x35, 0x40, 0xff);
inline constexpr ImU32 kText = IM_COL32(0xdd, 0xe3, 0xea, 0xff);
inline constexpr ImU32 kTextDim = IM_COL32(0x8a, 0x94, 0xa2, 0xff);
inline constexpr ImU32 kAccent = IM_COL32(0x4c, 0x9a, 0xff, 0xff);
inline constexpr ImU32 kWarning = IM_COL32(0xff, 0xb0, 0x3b, 0xff);
inline constexpr ImU32 kError = IM_COL32(0xff, 0x5c, 0x5c, 0xff);
inline constexpr ImU32 kOk = IM_COL32(0x5c, 0xd6, 0x8a, 0xff);
inline constexpr ImU32 kSimulated = IM_COL32(0xe0, 0x8a, 0x1e, 0xff);
inline constexpr ImU32 kChanged = IM_COL32(0xff, 0xd8, 0x4d, 0xff);
inline constexpr float kClear[3] = {0x17 / 255.0f, 0x1a / 255.0f, 0x21 / 255.0f};  // = the windows' background
}  // namespace theme

// Small widgets.
void badge(const char* text, ImU32 background, ImU32 foreground = IM_COL32(0x10, 0x12, 0x16, 0xff));
// Draws a badge at `pos` into `dl`; returns its width.
float badge_at(ImDrawList* dl, ImVec2 pos, const char* text, ImU32 background, ImU32 foreground = IM_COL32(0x10, 0x12, 0x16, 0xff));
void simulated_badge(const char* what = "figures");  // "SIMULATED" with a tooltip saying what it means
void help_marker(const char* text);
// `text` shortened with an ellipsis (whole UTF-8 characters) to fit `room` pixels in font `f`.
std::string fit_text(ImFont* f, std::string text, float room);
// An owner name in `room`: leading module parts dropped before anything is cut, down to the leaf and
// its role ("0.weight.grad", "exp_avg_sq[2]"; view_state/text_fit.h). Show the full name on hover.
std::string fit_owner(ImFont* f, const std::string& name, float room);
// Glyphs drawn in the current frame's draw data that are U+FFFD: bytes that were not UTF-8 or characters
// the fonts lack (ImGui's fallback). Screenshot tests require 0.
int replacement_glyphs_drawn();
ImU32 with_alpha(ImU32 color, float alpha);
ImU32 lighten(ImU32 color, float amount);

std::string fmt_bytes(uint64_t bytes);       // "20 MiB", "1.5 KiB", "1 byte" (view_state/size_text.h)
std::string fmt_duration(double ns);         // "1.25 ms", "830 ns"
std::string fmt_rate(double gbs);            // "11.8 GB/s"
std::string fmt_shape(const std::vector<int64_t>& shape);  // "[64, 512]"

}  // namespace ds::gui

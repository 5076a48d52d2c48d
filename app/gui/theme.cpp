// Theme colours, fonts and the shared widgets.
#include "gui/theme.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/format.h"
#include "gui/view_state/size_text.h"
#include "gui/view_state/text_fit.h"

namespace ds::gui {
namespace {

Fonts g_fonts;

ImFont* load(const char* path, float size, const ImWchar* ranges) {
  if (!std::filesystem::exists(path)) return nullptr;
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  return ImGui::GetIO().Fonts->AddFontFromFileTTF(path, size, &cfg, ranges);
}

}  // namespace

const Fonts& fonts() { return g_fonts; }

void apply_theme(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  // Latin-1, general punctuation, arrows, box drawing, geometric shapes, symbols, and U+FFFD: with it in
  // the atlas ImGui draws it (not '?') for bytes that are not UTF-8 and for glyphs it lacks, so a test can
  // count such characters on screen without mistaking a real '?' for one (replacement_glyphs_drawn).
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF,
                                   0x2500, 0x25FF, 0x2600, 0x26FF, 0x2700, 0x27BF, 0xFFFD, 0xFFFD, 0};
  const char* dir = "/usr/share/fonts/truetype/dejavu/";
  const std::string sans = std::string(dir) + "DejaVuSans.ttf", bold = std::string(dir) + "DejaVuSans-Bold.ttf",
                    mono = std::string(dir) + "DejaVuSansMono.ttf";
  g_fonts.ui = load(sans.c_str(), 15.0f * scale, ranges);
  if (g_fonts.ui) {
    g_fonts.dejavu = true;
    g_fonts.bold = load(bold.c_str(), 15.0f * scale, ranges);
    g_fonts.mono = load(mono.c_str(), 14.0f * scale, ranges);
    g_fonts.small = load(sans.c_str(), 12.0f * scale, ranges);
  }
  if (!g_fonts.ui) {  // fonts-dejavu-core missing: ImGui's own font, scaled up a little for legibility
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    g_fonts.ui = io.Fonts->AddFontDefault(&cfg);
  }
  if (!g_fonts.bold) g_fonts.bold = g_fonts.ui;
  if (!g_fonts.mono) g_fonts.mono = g_fonts.ui;
  if (!g_fonts.small) g_fonts.small = g_fonts.ui;
  io.FontDefault = g_fonts.ui;

  ImGuiStyle& s = ImGui::GetStyle();
  ImGui::StyleColorsDark(&s);
  s.WindowRounding = 5;
  s.ChildRounding = 4;
  s.FrameRounding = 3;
  s.PopupRounding = 4;
  s.TabRounding = 3;
  s.GrabRounding = 3;
  s.ScrollbarRounding = 6;
  s.WindowPadding = ImVec2(9, 8);
  s.FramePadding = ImVec2(7, 4);
  s.ItemSpacing = ImVec2(8, 6);
  s.ItemInnerSpacing = ImVec2(6, 4);
  s.CellPadding = ImVec2(6, 3);
  s.ScrollbarSize = 12;
  s.WindowBorderSize = 1;
  s.FrameBorderSize = 0;
  s.WindowTitleAlign = ImVec2(0.0f, 0.5f);
  // Rounded corners with fewer segments: a software renderer pays per triangle.
  s.CircleTessellationMaxError = 0.9f;
  s.CurveTessellationTol = 2.0f;
  s.ScaleAllSizes(scale);

  ImVec4* c = s.Colors;
  auto rgb = [](int r, int g, int b, float a = 1.0f) { return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, a); };
  c[ImGuiCol_Text] = rgb(0xdd, 0xe3, 0xea);
  c[ImGuiCol_TextDisabled] = rgb(0x7d, 0x88, 0x96);
  // Transparent over a clear colour of the same shade (theme::kClear): see opaque_if_overlapping().
  c[ImGuiCol_WindowBg] = rgb(0x17, 0x1a, 0x21, 0.0f);
  c[ImGuiCol_ChildBg] = rgb(0x17, 0x1a, 0x21, 0.0f);
  c[ImGuiCol_PopupBg] = rgb(0x1d, 0x22, 0x2b, 0.98f);
  c[ImGuiCol_Border] = rgb(0x2b, 0x31, 0x3c);
  c[ImGuiCol_FrameBg] = rgb(0x22, 0x28, 0x32);
  c[ImGuiCol_FrameBgHovered] = rgb(0x2b, 0x33, 0x40);
  c[ImGuiCol_FrameBgActive] = rgb(0x32, 0x3c, 0x4c);
  c[ImGuiCol_TitleBg] = rgb(0x12, 0x15, 0x1b);
  c[ImGuiCol_TitleBgActive] = rgb(0x1a, 0x22, 0x2f);
  c[ImGuiCol_TitleBgCollapsed] = rgb(0x12, 0x15, 0x1b);
  c[ImGuiCol_MenuBarBg] = rgb(0x12, 0x15, 0x1b, 0.0f);  // the clear colour shows through (one fill less)
  c[ImGuiCol_ScrollbarBg] = rgb(0x14, 0x17, 0x1d);
  c[ImGuiCol_ScrollbarGrab] = rgb(0x34, 0x3c, 0x4a);
  c[ImGuiCol_ScrollbarGrabHovered] = rgb(0x42, 0x4c, 0x5e);
  c[ImGuiCol_ScrollbarGrabActive] = rgb(0x4c, 0x58, 0x6c);
  c[ImGuiCol_CheckMark] = rgb(0x4c, 0x9a, 0xff);
  c[ImGuiCol_SliderGrab] = rgb(0x4c, 0x9a, 0xff);
  c[ImGuiCol_SliderGrabActive] = rgb(0x6c, 0xb0, 0xff);
  c[ImGuiCol_Button] = rgb(0x27, 0x31, 0x40);
  c[ImGuiCol_ButtonHovered] = rgb(0x33, 0x44, 0x5c);
  c[ImGuiCol_ButtonActive] = rgb(0x3d, 0x55, 0x78);
  c[ImGuiCol_Header] = rgb(0x26, 0x31, 0x42);
  c[ImGuiCol_HeaderHovered] = rgb(0x30, 0x40, 0x58);
  c[ImGuiCol_HeaderActive] = rgb(0x38, 0x4c, 0x6a);
  c[ImGuiCol_Separator] = rgb(0x2b, 0x31, 0x3c);
  c[ImGuiCol_SeparatorHovered] = rgb(0x4c, 0x9a, 0xff, 0.6f);
  c[ImGuiCol_SeparatorActive] = rgb(0x4c, 0x9a, 0xff);
  c[ImGuiCol_ResizeGrip] = rgb(0x4c, 0x9a, 0xff, 0.15f);
  c[ImGuiCol_ResizeGripHovered] = rgb(0x4c, 0x9a, 0xff, 0.5f);
  c[ImGuiCol_ResizeGripActive] = rgb(0x4c, 0x9a, 0xff, 0.8f);
  c[ImGuiCol_Tab] = rgb(0x1d, 0x24, 0x2f);
  c[ImGuiCol_TabHovered] = rgb(0x33, 0x4a, 0x68);
  c[ImGuiCol_TabActive] = rgb(0x2a, 0x3a, 0x52);
  c[ImGuiCol_TabUnfocused] = rgb(0x1a, 0x1f, 0x28);
  c[ImGuiCol_TabUnfocusedActive] = rgb(0x24, 0x2f, 0x40);
  c[ImGuiCol_TableHeaderBg] = rgb(0x1f, 0x26, 0x31);
  c[ImGuiCol_TableBorderStrong] = rgb(0x2e, 0x35, 0x41);
  c[ImGuiCol_TableBorderLight] = rgb(0x26, 0x2c, 0x36);
  c[ImGuiCol_TableRowBg] = rgb(0, 0, 0, 0);
  c[ImGuiCol_TableRowBgAlt] = rgb(0xff, 0xff, 0xff, 0.025f);
  c[ImGuiCol_TextSelectedBg] = rgb(0x4c, 0x9a, 0xff, 0.35f);
  c[ImGuiCol_PlotHistogram] = rgb(0x4c, 0x9a, 0xff);
  c[ImGuiCol_NavHighlight] = rgb(0x4c, 0x9a, 0xff);
  c[ImGuiCol_ModalWindowDimBg] = rgb(0, 0, 0, 0.55f);
}

float badge_at(ImDrawList* dl, ImVec2 pos, const char* text, ImU32 bg, ImU32 fg) {
  ImFont* f = g_fonts.small ? g_fonts.small : ImGui::GetFont();
  const float size = f->FontSize;
  const ImVec2 ts = f->CalcTextSizeA(size, FLT_MAX, 0, text);
  const ImVec2 pad(5, 1);
  dl->AddRectFilled(pos, ImVec2(pos.x + ts.x + 2 * pad.x, pos.y + ts.y + 2 * pad.y), bg, 3);
  dl->AddText(f, size, ImVec2(pos.x + pad.x, pos.y + pad.y), fg, text);
  return ts.x + 2 * pad.x;
}

void badge(const char* text, ImU32 bg, ImU32 fg) {
  ImFont* f = g_fonts.small ? g_fonts.small : ImGui::GetFont();
  const ImVec2 ts = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, text);
  const ImVec2 size(ts.x + 10, ts.y + 2);
  ImVec2 pos = ImGui::GetCursorScreenPos();
  // Centre on the current line's text height.
  pos.y += (ImGui::GetTextLineHeight() - size.y) * 0.5f + 1;
  badge_at(ImGui::GetWindowDrawList(), pos, text, bg, fg);
  ImGui::Dummy(ImVec2(size.x, ImGui::GetTextLineHeight()));
}

void simulated_badge(const char* what) {
  badge("SIMULATED", theme::kSimulated);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("These %s come from simulated CUDA devices:", what);
    ImGui::TextUnformatted("capacities are configured and copy timings are modelled by the link profile,");
    ImGui::TextUnformatted("not measured on a GPU. Run on a machine with a GPU (--backend cuda) to measure.");
    ImGui::EndTooltip();
  }
}

std::string fit_text(ImFont* f, std::string text, float room) {
  return fit_utf8(text, room, [f](std::string_view t) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, t.data(), t.data() + t.size()).x; });
}

std::string fit_owner(ImFont* f, const std::string& name, float room) {
  return fit_owner_name(name, room, [f](std::string_view t) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, t.data(), t.data() + t.size()).x; });
}

int replacement_glyphs_drawn() {
  // Each glyph quad ImFont::RenderText emits has one vertex at its glyph's (U0, V0) in the atlas; find
  // U+FFFD's corner in every font and count the vertices there.
  std::vector<ImVec2> corners;
  for (ImFont* font : ImGui::GetIO().Fonts->Fonts)
    if (const ImFontGlyph* g = font->FindGlyphNoFallback(0xFFFD)) corners.push_back(ImVec2(g->U0, g->V0));
  const ImDrawData* data = ImGui::GetDrawData();
  if (!data || corners.empty()) return 0;
  int count = 0;
  for (int l = 0; l < data->CmdListsCount; ++l)
    for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer)
      for (const ImVec2& c : corners) count += v.uv.x == c.x && v.uv.y == c.y;
  return count;
}

void help_marker(const char* text) {
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

ImU32 with_alpha(ImU32 c, float a) {
  return (c & 0x00ffffffu) | (ImU32(std::clamp(a, 0.0f, 1.0f) * float((c >> 24) & 0xff)) << 24);
}

ImU32 lighten(ImU32 c, float t) {
  auto ch = [&](int shift) { return ImU32(float((c >> shift) & 0xff) + (255.0f - float((c >> shift) & 0xff)) * t) << shift; };
  return ch(0) | ch(8) | ch(16) | (c & 0xff000000u);
}

std::string fmt_bytes(uint64_t bytes) { return size_text(bytes); }

std::string fmt_duration(double ns) { return format_duration(ns); }

std::string fmt_rate(double gbs) { return format_rate(gbs); }

std::string fmt_shape(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace ds::gui

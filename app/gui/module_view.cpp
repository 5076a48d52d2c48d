// Module tree as a table with tree rows.
#include "gui/module_view.h"

#include <cstdint>
#include <vector>

#include "gui/view_state/palette.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

const char* short_dtype(const std::string& d) {
  static const char* pairs[][2] = {{"float32", "f32"}, {"float16", "f16"}, {"bfloat16", "bf16"}, {"float64", "f64"},
                                   {"int64", "i64"},   {"int32", "i32"},   {"int16", "i16"},   {"int8", "i8"},
                                   {"uint8", "u8"},    {"bool", "bool"}};
  for (auto& p : pairs)
    if (d == p[0]) return p[1];
  return d.c_str();
}

}  // namespace

void ModuleView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  if (!ImGui::Begin("Modules", &ui.show_modules)) {
    ImGui::End();
    return;
  }
  const auto& rows = snap.objects.modules;
  size_t modules = 0, tensors = 0, stragglers = 0;
  for (const ModuleEntry& e : rows) {
    modules += e.kind == ObjectKind::Module;
    tensors += e.kind != ObjectKind::Module;
    stragglers += e.straggler;
  }
  if (rows.empty()) {
    ImGui::TextDisabled("No modules yet. Build one in the editor or the Builder tab.");
    ImGui::End();
    return;
  }
  ImGui::TextDisabled("%zu modules, %zu tensors", modules, tensors);
  if (stragglers) {
    ImGui::SameLine();
    badge((std::to_string(stragglers) + (stragglers == 1 ? " straggler" : " stragglers")).c_str(), theme::kError, IM_COL32_WHITE);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Tensors that are not on their module's device. Module.to() moves parameters and buffers;\n"
                        "a plain tensor attribute (self.t = torch.zeros(...)) stays where it was: register_buffer it.");
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("modules", 4, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch, 2.4f);
    ImGui::TableSetupColumn("type", ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn("device", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    ImGui::TableSetupColumn("shape", ImGuiTableColumnFlags_WidthStretch, 1.8f);
    ImGui::TableHeadersRow();
    // Depth-first rows: a closed module skips the deeper rows below it; open ones pop when the depth
    // comes back up.
    std::vector<int> open_depths;
    size_t i = 0;
    while (i < rows.size()) {
      const ModuleEntry& e = rows[i];
      while (!open_depths.empty() && e.depth <= open_depths.back()) {
        ImGui::TreePop();
        open_depths.pop_back();
      }
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string name = e.path.substr(e.path.find_last_of('.') == std::string::npos ? 0 : e.path.find_last_of('.') + 1);
      const bool is_module = e.kind == ObjectKind::Module;
      const bool has_children = is_module && i + 1 < rows.size() && rows[i + 1].depth > e.depth;
      ImGuiTreeNodeFlags tf = ImGuiTreeNodeFlags_SpanFullWidth | ImGuiTreeNodeFlags_DefaultOpen;
      if (!has_children) tf |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
      if (e.straggler) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(lighten(theme::kError, 0.3f)));
      const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(intptr_t(i + 1)), tf, "%s", name.c_str());
      if (e.straggler) ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) {
        if (e.storage_id) ui.hovered_storage = e.storage_id;
        ImGui::SetTooltip("%s", e.path.c_str());
      }
      ImGui::TableNextColumn();
      if (is_module) {
        ImGui::TextUnformatted(e.type.c_str());
      } else {
        const Role r = e.kind == ObjectKind::Parameter ? Role::Parameter : e.kind == ObjectKind::Buffer ? Role::Buffer : Role::PlainAttribute;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float h = ImGui::GetTextLineHeight();
        dl->AddRectFilled(ImVec2(p.x, p.y + h * 0.5f - 4), ImVec2(p.x + 8, p.y + h * 0.5f + 4), role_color(r), 2);
        ImGui::Dummy(ImVec2(10, 1));
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(e.kind == ObjectKind::Parameter ? "param" : e.kind == ObjectKind::Buffer ? "buffer" : "plain attr");
      }
      ImGui::TableNextColumn();
      if (!e.device.empty()) badge(e.device.c_str(), device_color(e.device));
      if (e.straggler) {
        ImGui::SameLine(0, 4);
        badge("!", theme::kError, IM_COL32_WHITE);
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("Not on the module's device: Module.to() did not move it.\nA plain attribute? Use register_buffer.");
      }
      ImGui::TableNextColumn();
      if (!is_module) ImGui::TextDisabled("%s %s", fmt_shape(e.shape).c_str(), short_dtype(e.dtype));
      ++i;
      if (has_children) {
        if (open) open_depths.push_back(e.depth);
        else
          while (i < rows.size() && rows[i].depth > e.depth) ++i;
      }
    }
    while (!open_depths.empty()) {
      ImGui::TreePop();
      open_depths.pop_back();
    }
    ImGui::EndTable();
  }
  (void)cmds;
  ImGui::End();
}

}  // namespace ds::gui

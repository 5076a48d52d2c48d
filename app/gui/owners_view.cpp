// Drawing the owners table of an opened file.
#include "gui/owners_view.h"

#include <imgui.h>

#include "gui/theme.h"
#include "gui/view_state/memory_layout.h"

namespace ds::gui {

void OwnersView::draw(const Snapshot& snap, UiState& ui) {
  if (!ImGui::Begin("Owners", &ui.show_modules)) {
    ImGui::End();
    return;
  }
  if (version_ != ui.snapshot_version) {
    rows_ = owner_rows(snap, ui.memory_timelines.get());
    sort_owner_rows(rows_, column_, ascending_);
    version_ = ui.snapshot_version;
  }
  ImGui::TextDisabled("%zu owners at the moment the panes show", rows_.size());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Who holds the live blocks: a name, a module path, or (in a PyTorch snapshot) the source line\n"
                      "that allocated them. First and last seen: when the owner held memory in the trace.");
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("owners", 6, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // Proportional widths: the owner gets most; a narrow pane (1280x720) still shows every column.
    ImGui::TableSetupColumn("owner", 0, 3.0f, uint32_t(OwnerColumn::Owner));
    ImGui::TableSetupColumn("place", 0, 1.0f, uint32_t(OwnerColumn::Place));
    ImGui::TableSetupColumn("bytes", ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending, 1.0f,
                            uint32_t(OwnerColumn::Bytes));
    ImGui::TableSetupColumn("blocks", ImGuiTableColumnFlags_PreferSortDescending, 0.7f, uint32_t(OwnerColumn::Blocks));
    ImGui::TableSetupColumn("first seen", 0, 1.3f, uint32_t(OwnerColumn::First));
    ImGui::TableSetupColumn("last seen", 0, 1.3f, uint32_t(OwnerColumn::Last));
    ImGui::TableHeadersRow();
    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsDirty && specs->SpecsCount > 0) {
      column_ = OwnerColumn(specs->Specs[0].ColumnUserID);
      ascending_ = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
      sort_owner_rows(rows_, column_, ascending_);
      specs->SpecsDirty = false;
    }
    ImGuiListClipper clipper;
    clipper.Begin(int(rows_.size()));
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const OwnerRow& r = rows_[size_t(i)];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::string shown = fit_owner(ImGui::GetFont(), r.owner, ImGui::GetContentRegionAvail().x);
        ImGui::TextUnformatted(shown.c_str());
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip("%s", r.owner.c_str());
          for (const StorageInfo& s : snap.storages)  // outline one of its blocks in the panes
            if (s.place.str() == r.place && display_name(s) == r.owner) {
              ui.hovered_storage = s.id;
              break;
            }
        }
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.place.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(fmt_bytes(r.bytes).c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%zu", r.blocks);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.first_text.empty() ? "\xe2\x80\x94" : r.first_text.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.last_text.empty() ? "\xe2\x80\x94" : r.last_text.c_str());
      }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace ds::gui

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
                      "that allocated them. First and last: when the owner was first and last seen holding memory in the trace.");
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_Hideable | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingStretchProp;
  // A narrow pane (1280x720) would squeeze six columns to "p…" and "cuda:(": there the table shows owner, place,
  // bytes and blocks, and the first/last-seen times go to the owner's tooltip (right-click a header to show them).
  const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 26.0f;
  if (ImGui::BeginTable("owners", 6, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    const float pad = ImGui::GetStyle().CellPadding.x * 2.0f;
    auto fixed = [&](const char* widest) { return ImGui::CalcTextSize(widest).x + pad; };
    // the owner takes most of what the fixed columns (sized to their widest text) leave
    ImGui::TableSetupColumn("owner", ImGuiTableColumnFlags_NoHide, 3.0f, uint32_t(OwnerColumn::Owner));
    ImGui::TableSetupColumn("place", ImGuiTableColumnFlags_WidthFixed, fixed("cuda:0 "), uint32_t(OwnerColumn::Place));
    ImGui::TableSetupColumn("bytes", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_DefaultSort |
                                         ImGuiTableColumnFlags_PreferSortDescending,
                            fixed("1000 MiB"), uint32_t(OwnerColumn::Bytes));
    ImGui::TableSetupColumn("blocks", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_PreferSortDescending,
                            fixed("blocks"), uint32_t(OwnerColumn::Blocks));
    // "first" / "last" (seen): the short headers fit the share of a 1600x1000 pane the owner leaves them
    ImGui::TableSetupColumn("first", 0, 1.2f, uint32_t(OwnerColumn::First));
    ImGui::TableSetupColumn("last", 0, 1.2f, uint32_t(OwnerColumn::Last));
    if (int(narrow) != narrow_) {  // only when the width class changes, so a column the user showed stays shown
      ImGui::TableSetColumnEnabled(4, !narrow);
      ImGui::TableSetColumnEnabled(5, !narrow);
      narrow_ = int(narrow);
    }
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
          ImGui::SetTooltip("%s\nfirst seen %s, last seen %s", r.owner.c_str(),
                            r.first_text.empty() ? "\xe2\x80\x94" : r.first_text.c_str(),
                            r.last_text.empty() ? "\xe2\x80\x94" : r.last_text.c_str());
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

// The sortable transfer table (clipped: only visible rows are drawn).
#include <algorithm>

#include "gui/view_state/palette.h"
#include "gui/view_state/timeline_model.h"
#include "gui/theme.h"
#include "gui/transfer_view.h"

namespace ds::gui {

// Storages are sorted by id, so the lookup is a binary search.
std::string transfer_owner(const Snapshot& snap, const TransferRecord& t) {
  if (!t.owner.empty()) return t.owner;
  for (uint64_t id : {t.dst_storage, t.src_storage}) {
    auto it = std::lower_bound(snap.storages.begin(), snap.storages.end(), id,
                               [](const StorageInfo& s, uint64_t v) { return s.id < v; });
    if (id && it != snap.storages.end() && it->id == id && !it->owner.empty())
      return (id == t.dst_storage ? "\xe2\x86\x92 " : "\xe2\x86\x90 ") + it->owner;
  }
  return {};
}

void TransferView::draw_table(const Snapshot& snap, UiState& ui) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Hideable;
  if (!ImGui::BeginTable("transfers", 9, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_DefaultSort, 0, uint32_t(TransferColumn::Id));
  ImGui::TableSetupColumn("start", 0, 0, uint32_t(TransferColumn::Start));
  ImGui::TableSetupColumn("kind", 0, 0, uint32_t(TransferColumn::Route));
  ImGui::TableSetupColumn("from", 0, 0, uint32_t(TransferColumn::Src));
  ImGui::TableSetupColumn("to", 0, 0, uint32_t(TransferColumn::Dst));
  ImGui::TableSetupColumn("bytes", ImGuiTableColumnFlags_PreferSortDescending, 0, uint32_t(TransferColumn::Bytes));
  ImGui::TableSetupColumn("time", ImGuiTableColumnFlags_PreferSortDescending, 0, uint32_t(TransferColumn::Duration));
  ImGui::TableSetupColumn("GB/s", ImGuiTableColumnFlags_PreferSortDescending, 0, uint32_t(TransferColumn::Bandwidth));
  ImGui::TableSetupColumn("owner", ImGuiTableColumnFlags_WidthStretch, 0, uint32_t(TransferColumn::Owner));
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
    ui.sort_column = TransferColumn(specs->Specs[0].ColumnUserID);
    ui.sort_ascending = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
    specs->SpecsDirty = false;
  }
  // Sorting 1,000,000 rows happens once per snapshot and sort order, not per frame.
  if (order_column_ != ui.sort_column || order_ascending_ != ui.sort_ascending || order_.size() != snap.transfers.size()) {
    order_ = sort_transfers(snap.transfers, ui.sort_column, ui.sort_ascending);
    order_column_ = ui.sort_column;
    order_ascending_ = ui.sort_ascending;
  }
  const uint64_t base = timeline_.t_min;
  ImGui::PushFont(fonts().mono);
  ImGuiListClipper clipper;
  clipper.Begin(int(order_.size()));
  while (clipper.Step())
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const TransferRecord& t = snap.transfers[order_[size_t(row)]];
      ImGui::TableNextRow();
      if (t.id == ui.hovered_transfer) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(0x4c, 0x9a, 0xff, 0x30));
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(t.id));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_duration(double(t.start_ns - std::min(base, t.start_ns))).c_str());
      ImGui::TableNextColumn();
      const Series s = transfer_series(t);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(series_color(s)), "%s%s", series_name(s), t.non_blocking ? " nb" : "");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(t.src.str().c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(t.dst.str().c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_bytes(t.bytes).c_str());
      ImGui::TableNextColumn();
      if (t.complete) ImGui::TextUnformatted(fmt_duration(t.duration_ns()).c_str());
      else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "in flight");
      ImGui::TableNextColumn();
      if (t.complete) ImGui::TextUnformatted(fmt_rate(t.gbps()).c_str());
      ImGui::TableNextColumn();
      // The owner in the column's width, its leaf kept ("0.weight", not "0.weigh"), in full on hover.
      const std::string owner = transfer_owner(snap, t);
      const bool arrow = owner.rfind("\xe2\x86", 0) == 0;  // "→ " / "← ": which end of the copy it names
      const std::string prefix = arrow ? owner.substr(0, 4) : "";
      ImFont* mono = fonts().mono;
      const float room = ImGui::GetContentRegionAvail().x - mono->CalcTextSizeA(mono->FontSize, FLT_MAX, 0, prefix.c_str()).x;
      const std::string shown = prefix + fit_owner(mono, owner.substr(prefix.size()), room);
      ImGui::TextUnformatted(shown.c_str());
      if (shown != owner && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", owner.c_str());
    }
  ImGui::PopFont();
  ImGui::EndTable();
}

}  // namespace ds::gui

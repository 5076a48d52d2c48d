// Transfers window frame: header with totals, recording banner, SIMULATED badge and the three tabs.
#include "gui/transfer_view.h"

#include "gui/recording_open_view.h"
#include "gui/theme.h"

namespace ds::gui {

void TransferView::rebuild(const Snapshot& snap, UiState& ui) {
  TransferModels m;
  if (ui.prebuilt_models && ui.prebuilt_models->source == &snap) {
    m = std::move(*ui.prebuilt_models);  // built on the session's thread: taken, not rebuilt
    ui.prebuilt_models.reset();
  } else {
    m.build(snap);
  }
  timeline_ = std::move(m.timeline);
  bandwidth_ = std::move(m.bandwidth);
  total_bytes_ = m.total_bytes;
  any_simulated_ = m.any_simulated;
  order_.clear();
  order_column_ = TransferColumn::Count;
  source_path_ = snap.source.path;
  version_ = ui.snapshot_version;
}

void TransferView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  if (!ImGui::Begin("Transfers", &ui.show_transfers)) {
    ImGui::End();
    return;
  }
  draw_loading_strip(ui, cmds);  // a recording being opened: progress and Cancel, above what is shown now
  const bool opened = !snap.source.path.empty();  // a recording opened from a file
  if (version_ != ui.snapshot_version) {
    const bool new_source = snap.source.path != source_path_;
    rebuild(snap, ui);
    if (new_source) ui.timeline_fit = true;
  }

  // Header.
  const uint64_t bytes = total_bytes_;
  const bool simulated = any_simulated_ || (snap.simulated && (opened || !snap.transfers.empty()));
  if (opened) {
    badge("RECORDING", theme::kAccent);
    ImGui::SameLine();
    const std::string& path = snap.source.path;
    const std::string name = path.substr(path.find_last_of('/') + 1);
    ImGui::Text("%s", name.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\nbackend %s, link %s, written by DeviceScope %s\n%s", path.c_str(), snap.backend.c_str(),
                        snap.link.c_str(), snap.source.version.c_str(), snap.source.machine.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("back to live")) cmds.push(Commands::Kind::CloseTrace);
    ImGui::SameLine();
  }
  ImGui::Text("%zu transfers, %s", snap.transfers.size(), fmt_bytes(bytes).c_str());
  if (!snap.window_note.empty()) {  // a long run: the oldest records were dropped, so say these are not all
    ImGui::SameLine();
    badge("WINDOWED", theme::kWarning);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", snap.window_note.c_str());
  }
  if (simulated) {
    ImGui::SameLine();
    simulated_badge("timings");
  }
  if (!snap.link.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("link %s", snap.link.c_str());
  }

  if (ImGui::BeginTabBar("##transfer_tabs")) {
    auto flags = [&](int tab) { return ui.transfer_tab_request == tab ? ImGuiTabItemFlags_SetSelected : 0; };
    if (ImGui::BeginTabItem("Timeline", nullptr, flags(0))) {
      ui.transfer_tab = 0;
      draw_timeline(snap, ui);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Bandwidth vs size", nullptr, flags(1))) {
      ui.transfer_tab = 1;
      draw_bandwidth(snap, ui);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Table", nullptr, flags(2))) {
      ui.transfer_tab = 2;
      draw_table(snap, ui);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ui.transfer_tab_request = -1;
  ImGui::End();
}

}  // namespace ds::gui

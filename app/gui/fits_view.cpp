// FitsView: the form, one stacked bar per device against its capacity, the module x category table.
#include "gui/fits_view.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>

#include "gui/theme.h"
#include "gui/view_state/palette.h"

namespace ds::gui {
namespace {

// The estimate's categories in the panes' hues (one palette): a category that is a role takes the role's
// colour; "temporary" a lighter activation (op scratch), "other" dim grey.
ImU32 category_color(const std::string& c) {
  if (c == "cuBLAS workspace") return role_color(Role::Workspace);
  if (c == "temporary") return lighten(role_color(Role::Activation), 0.45f);
  for (Role r : kAllRoles)
    if (c == role_label(r)) return role_color(r);
  return IM_COL32(0x5a, 0x62, 0x6e, 0xff);
}

// "step 2's forward" (the estimate runs two training steps: the second has AdamW's state).
std::string moment(int step, const std::string& phase) {
  return step > 0 ? "step " + std::to_string(step) + "'s " + phase : phase;
}

const char* strategy_label(const std::string& s) {
  return s == "single" ? "one device" : s == "ddp" ? "DDP (a replica per device)" : "full sharding (FSDP)";
}

}  // namespace

std::optional<FitsRequest> FitsView::take_request() {
  std::optional<FitsRequest> r;
  r.swap(request_);
  return r;
}

void FitsView::on_result(bool ok, const std::string& result_json, const std::string& why) {
  running_ = false;
  FitsResult r = ok ? parse_fits_result(result_json) : FitsResult{};
  if (!ok) r.error = why;
  result_ = std::move(r);
}

void FitsView::draw_form() {
  static const char* const kModels[] = {"70b", "8b", "1b", "tiny"};
  static const char* const kModelNames[] = {"Llama 70B", "Llama 8B", "Llama 1B", "tiny (2 layers)"};
  int m = 0;
  while (m < 3 && form_.model != kModels[m]) ++m;  // (the last, "tiny", when none matched)
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::Combo("model", &m, kModelNames, 4)) form_.model = kModels[m];
  ImGui::SameLine(0, 16);
  static const char* const kSeqs[] = {"1024", "2048", "4096", "8192"};
  int s = form_.seq <= 1024 ? 0 : form_.seq <= 2048 ? 1 : form_.seq <= 4096 ? 2 : 3;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
  if (ImGui::Combo("tokens per sample", &s, kSeqs, 4)) form_.seq = std::atoi(kSeqs[s]);
  ImGui::TextUnformatted("strategy");
  for (const char* st : {"single", "ddp", "fsdp"}) {
    ImGui::SameLine();
    if (ImGui::RadioButton(strategy_label(st), form_.strategy == st)) form_.strategy = st;
  }
  ImGui::Checkbox("activation checkpointing (recompute each layer in backward)", &form_.checkpoint);
  if (running_) ImGui::BeginDisabled();
  if (ImGui::Button(running_ ? "Estimating\xe2\x80\xa6" : "Estimate one training step")) request();
  if (running_) ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("batch 1, bf16 weights and autocast, AdamW; this session's devices (--sim-devices, --sim-memory)");
}

void FitsView::draw_devices(const FitsResult& r) {
  uint64_t scale = r.capacity;
  for (const FitsDevice& d : r.devices) scale = std::max(scale, d.peak);
  if (scale == 0) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float label_w = ImGui::CalcTextSize("cuda:00  ").x;
  const float bar_h = ImGui::GetFontSize() * 1.3f;
  for (const FitsDevice& d : r.devices) {
    ImGui::TextUnformatted(d.device.c_str());
    ImGui::SameLine(label_w);
    if (!d.simulated) {  // no bar of zero bytes for a rank the estimate did not run
      ImGui::TextDisabled("%s", d.note.c_str());
      continue;
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = std::max(100.0f, ImGui::GetContentRegionAvail().x);
    auto x_of = [&](uint64_t bytes) { return p.x + float(double(bytes) / double(scale)) * w; };
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + bar_h), IM_COL32(0x22, 0x26, 0x2e, 0xff));
    uint64_t cum = 0;
    for (const auto& [cat, bytes] : d.by_category) {
      if (!bytes) continue;
      dl->AddRectFilled(ImVec2(x_of(cum), p.y), ImVec2(std::max(x_of(cum + bytes), x_of(cum) + 1), p.y + bar_h), category_color(cat));
      cum += bytes;
    }
    // Out of memory: the peak is past the capacity, or the run's next allocation failed on this device.
    const bool over = (r.capacity && d.peak > r.capacity) || (!r.oom_message.empty() && &d == &r.devices.front());
    if (r.capacity) {  // the device's capacity: a bright line; past it, out of memory
      const float cx = x_of(r.capacity);
      dl->AddLine(ImVec2(cx, p.y - 3), ImVec2(cx, p.y + bar_h + 3), over ? theme::kError : theme::kText, 2.0f);
    }
    ImGui::Dummy(ImVec2(w, bar_h));
    if (ImGui::IsItemHovered()) {
      std::string tip = d.device + ": peak " + fmt_bytes(d.peak) + "\n";
      for (const auto& [cat, bytes] : d.by_category)
        if (bytes) tip += "  " + fmt_bytes(bytes) + "  " + cat + "\n";
      ImGui::SetTooltip("%s", tip.c_str());
    }
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    std::string line = "peak " + fmt_bytes(d.peak) + (r.capacity ? " of " + fmt_bytes(r.capacity) : "");
    if (!d.peak_phase.empty()) line += " \xc2\xb7 in " + moment(d.peak_step, d.peak_phase) + (d.peak_module.empty() ? "" : " (" + d.peak_module + ")");
    if (over) {
      badge("OUT OF MEMORY", theme::kError);
      ImGui::SameLine();
    }
    ImGui::TextDisabled("%s", line.c_str());
  }
  // The legend: the categories the bars hold.
  for (const std::string& c : r.categories) {
    bool used = false;
    for (const FitsDevice& d : r.devices)
      for (const auto& [cat, bytes] : d.by_category) used |= cat == c && bytes;
    if (!used) continue;
    const float sw = ImGui::GetTextLineHeight() * 0.7f;
    const ImVec2 q = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(ImVec2(q.x, q.y + sw * 0.3f), ImVec2(q.x + sw, q.y + sw * 1.3f), category_color(c));
    ImGui::Dummy(ImVec2(sw, sw));
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(c.c_str());
    ImGui::SameLine(0, 14);
  }
  ImGui::NewLine();
}

void FitsView::draw_table(const FitsResult& r) {
  if (r.devices.empty()) return;
  table_device_ = std::clamp(table_device_, 0, int(r.devices.size()) - 1);
  const FitsDevice& d = r.devices[size_t(table_device_)];
  ImGui::Text("Largest modules at %s's peak", d.device.c_str());
  if (r.devices.size() > 1) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::BeginCombo("##device", d.device.c_str())) {
      for (size_t i = 0; i < r.devices.size(); ++i)
        if (ImGui::Selectable(r.devices[i].device.c_str(), int(i) == table_device_)) table_device_ = int(i);
      ImGui::EndCombo();
    }
  }
  std::vector<size_t> cols;  // the categories some row holds
  for (size_t c = 0; c < r.categories.size(); ++c)
    for (const FitsDevice::Row& row : d.table)
      if (c < row.bytes.size() && row.bytes[c]) {
        cols.push_back(c);
        break;
      }
  if (!ImGui::BeginTable("##modules", int(cols.size()) + 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp,
                         ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeightWithSpacing() * 4))))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("module", ImGuiTableColumnFlags_WidthStretch, 3.0f);
  ImGui::TableSetupColumn("total");
  for (size_t c : cols) ImGui::TableSetupColumn(r.categories[c].c_str());
  ImGui::TableHeadersRow();
  for (const FitsDevice::Row& row : d.table) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string shown = fit_owner(ImGui::GetFont(), row.module, ImGui::GetContentRegionAvail().x);
    ImGui::TextUnformatted(shown.c_str());
    if (shown != row.module && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.module.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(row.total).c_str());
    for (size_t c : cols) {
      ImGui::TableNextColumn();
      if (row.bytes[c]) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(lighten(category_color(r.categories[c]), 0.2f)), "%s", fmt_bytes(row.bytes[c]).c_str());
    }
  }
  ImGui::EndTable();
}

void FitsView::draw(UiState& ui) {
  if (!ImGui::Begin("What fits where", &ui.show_fits)) {
    ImGui::End();
    return;
  }
  draw_form();
  ImGui::Separator();
  if (running_) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "Running the step on virtual tensors\xe2\x80\xa6");
  if (result_) {
    const FitsResult& r = *result_;
    ImGui::Text("%s, %s%s, %d device%s", r.model.c_str(), strategy_label(r.strategy), r.checkpoint ? ", checkpointing" : "",
                r.world_size, r.world_size == 1 ? "" : "s");
    if (!r.error.empty()) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "%s", r.error.c_str());
      ImGui::PopTextWrapPos();
    }
    if (!r.oom_message.empty()) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "Out of memory in %s%s: %s", moment(r.oom_step, r.oom_phase).c_str(),
                         r.oom_module.empty() ? "" : (" (" + r.oom_module + ")").c_str(), r.oom_message.c_str());
      ImGui::PopTextWrapPos();
    } else if (r.error.empty()) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kOk), "It fits: every device's peak is below its capacity");
    }
    draw_devices(r);
    ImGui::Separator();
    draw_table(r);
  } else if (!running_) {
    ImGui::TextDisabled("Pick a model and a strategy, then Estimate.");
  }
  ImGui::End();
}

}  // namespace ds::gui

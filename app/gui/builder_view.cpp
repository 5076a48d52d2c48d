// The Builder tab's forms.
#include "gui/builder_view.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include "gui/theme.h"

namespace ds::gui {
namespace {

void section(const char* title) {
  ImGui::Spacing();
  ImGui::PushFont(fonts().bold);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  ImGui::Separator();
}

bool is_module_name(const Snapshot& snap, const std::string& ref) {
  for (const ModuleEntry& e : snap.objects.modules)
    if (e.kind == ObjectKind::Module && e.path == ref) return true;
  return false;
}

}  // namespace

void BuilderView::emit(UiState& ui, Commands& cmds, BuildKind kind, BuildArgs args) {
  std::string error;
  const std::string line = build_line(kind, args, &error);
  ui.builder_error = error;
  if (line.empty()) return;
  last_line_ = line;
  cmds.push(Commands::Kind::BuilderLine, line);
}

void BuilderView::draw_contents(const Snapshot& snap, UiState& ui, Commands& cmds) {
  BuildArgs& a = ui.builder;
  const bool idle = !ui.running;
  ImGui::TextDisabled("Each button writes one line of Python into the editor and runs it.");
  if (!idle) ImGui::BeginDisabled();
  const float label_w = 110;
  auto field = [&](const char* label, std::string* value, const char* hint) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(label_w);
    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint((std::string("##") + label).c_str(), hint, value);
  };

  ImGui::PushID("layer");
  section("Layer");
  static const char* layers[] = {"Linear", "Conv2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "Embedding", "Sequential", "ModuleList", "nn.Module()"};
  static const BuildKind layer_kinds[] = {BuildKind::Linear, BuildKind::Conv2d, BuildKind::BatchNorm1d, BuildKind::BatchNorm2d, BuildKind::LayerNorm,
                                          BuildKind::Embedding, BuildKind::Sequential, BuildKind::ModuleList, BuildKind::EmptyModule};
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("type");
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-1);
  ImGui::Combo("##layer", &layer_, layers, IM_ARRAYSIZE(layers));
  field("name", &a.target, "layer");
  const BuildKind lk = layer_kinds[layer_];
  auto number = [&](const char* label, int64_t* v) {
    int x = int(*v);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(label_w);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputInt((std::string("##") + label).c_str(), &x, 1, 64)) *v = std::max(0, x);
  };
  if (a.a == 0) a.a = 16;
  if (a.b == 0) a.b = 8;
  if (a.c == 0) a.c = 3;
  if (lk == BuildKind::Linear) { number("in_features", &a.a); number("out_features", &a.b); ImGui::Checkbox("bias", &a.bias); }
  if (lk == BuildKind::Conv2d) { number("in_channels", &a.a); number("out_channels", &a.b); number("kernel_size", &a.c); ImGui::Checkbox("bias", &a.bias); }
  if (lk == BuildKind::BatchNorm1d || lk == BuildKind::BatchNorm2d || lk == BuildKind::LayerNorm) number("features", &a.a);
  if (lk == BuildKind::Embedding) { number("num_embeddings", &a.a); number("embedding_dim", &a.b); }
  if (lk == BuildKind::Sequential || lk == BuildKind::ModuleList) field("members", &a.items, "nn.Linear(4, 4), nn.ReLU()");
  if (ImGui::Button("Add layer", ImVec2(-1, 0))) emit(ui, cmds, lk, a);

  ImGui::PopID();
  ImGui::PushID("attach");
  section("Attach to a module");
  field("module", &a.source, "model");
  field("attribute", &a.attr, "extra");
  field("sizes", &a.shape, "4, 4");
  const float third = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3;
  if (ImGui::Button("nn.Parameter", ImVec2(third, 0))) emit(ui, cmds, BuildKind::Parameter, a);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("module.attr = nn.Parameter(...): registered, moves with .to()");
  ImGui::SameLine();
  if (ImGui::Button("buffer", ImVec2(third, 0))) emit(ui, cmds, BuildKind::Buffer, a);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("module.register_buffer(...): registered, moves with .to()");
  ImGui::SameLine();
  if (ImGui::Button("plain tensor", ImVec2(third, 0))) emit(ui, cmds, BuildKind::PlainAttribute, a);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("module.attr = torch.zeros(...): NOT registered, stays put on .to()");

  // Devices from the snapshot: cpu and each cuda:N.
  std::vector<std::string> devices = {"cpu"};
  for (const PlaceInfo& p : snap.places)
    if (p.place.kind == MemoryKind::Device) devices.push_back(p.label);
  if (ui.builder_device >= int(devices.size())) ui.builder_device = 0;
  if (ui.builder_device == 0 && devices.size() > 1 && a.device != "cpu") ui.builder_device = 1;

  ImGui::PopID();
  ImGui::PushID("names");
  section("Tensors and names");
  field("name", &a.target, "x");
  field("refers to", &a.source, "model.fc.weight");
  const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
  if (ImGui::Button("new tensor (randn)", ImVec2(half, 0))) {
    BuildArgs t = a;
    t.device = devices[size_t(ui.builder_device)];
    emit(ui, cmds, BuildKind::Tensor, t);
  }
  ImGui::SameLine();
  if (ImGui::Button("alias: name = refers to", ImVec2(half, 0))) emit(ui, cmds, BuildKind::Alias, a);
  if (ImGui::Button("del refers to", ImVec2(half, 0))) emit(ui, cmds, BuildKind::Delete, a);

  ImGui::PopID();
  ImGui::PushID("move");
  section("Move");
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("device");
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(120);
  std::vector<const char*> names;
  for (const std::string& d : devices) names.push_back(d.c_str());
  ImGui::Combo("##device", &ui.builder_device, names.data(), int(names.size()));
  a.device = devices[size_t(ui.builder_device)];
  ImGui::SameLine();
  ImGui::Checkbox("non_blocking", &a.non_blocking);
  // Module.to() works in place and returns the module; Tensor.to() returns a new tensor to bind.
  BuildArgs mv = a;
  mv.in_place = is_module_name(snap, a.source);
  if (!mv.in_place && (mv.target.empty() || mv.target == mv.source)) mv.target = mv.source;
  ImGui::TextDisabled(mv.in_place ? "'%s' is a module: it moves in place" : "binds the result to 'name' (a tensor's .to() returns a new tensor)",
                      a.source.c_str());
  const float fifth = (ImGui::GetContentRegionAvail().x - 4 * ImGui::GetStyle().ItemSpacing.x) / 5;
  if (ImGui::Button(".to()", ImVec2(fifth, 0))) emit(ui, cmds, BuildKind::To, mv);
  ImGui::SameLine();
  if (ImGui::Button(".cuda()", ImVec2(fifth, 0))) emit(ui, cmds, BuildKind::Cuda, mv);
  ImGui::SameLine();
  if (ImGui::Button(".cpu()", ImVec2(fifth, 0))) emit(ui, cmds, BuildKind::Cpu, mv);
  ImGui::SameLine();
  if (ImGui::Button(".half()", ImVec2(fifth, 0))) emit(ui, cmds, BuildKind::Half, mv);
  ImGui::SameLine();
  if (ImGui::Button("pin", ImVec2(fifth, 0))) emit(ui, cmds, BuildKind::PinMemory, mv);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip(".pin_memory(): a copy in page-locked host memory");
  if (ImGui::Button("torch.cuda.empty_cache()", ImVec2(half, 0))) emit(ui, cmds, BuildKind::EmptyCache, a);
  ImGui::SameLine();
  if (ImGui::Button("torch.cuda.synchronize()", ImVec2(half, 0))) emit(ui, cmds, BuildKind::Synchronize, a);
  ImGui::PopID();
  if (!idle) ImGui::EndDisabled();

  ImGui::Spacing();
  if (!ui.builder_error.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "%s", ui.builder_error.c_str());
  else if (!last_line_.empty()) {
    ImGui::TextDisabled("last line:");
    ImGui::SameLine();
    ImGui::PushFont(fonts().mono);
    ImGui::TextUnformatted(last_line_.c_str());
    ImGui::PopFont();
  }
}

}  // namespace ds::gui

// Menus, shortcuts and the path prompt.
#include "gui/main_menu.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

#include "gui/keys.h"
#include "gui/theme.h"

namespace ds::gui {
namespace {

const char* dialog_title(FileDialog d) {
  switch (d) {
    case FileDialog::OpenScript: return "Open script";
    case FileDialog::SaveScriptAs: return "Save script as";
    case FileDialog::ExportCsv: return "Export transfers as CSV";
    case FileDialog::ExportTrace: return "Export Chrome trace JSON (Perfetto)";
    case FileDialog::Screenshot: return "Save screenshot PNG";
    case FileDialog::OpenTrace: return "Open a recorded trace (Chrome trace JSON or transfers CSV)";
    case FileDialog::OpenBench: return "Open bench JSON (devicescope bench --json)";
    case FileDialog::SaveBenchJson: return "Save the bench run as JSON";
    case FileDialog::SaveBenchCsv: return "Save the bench run as CSV";
    case FileDialog::None: break;
  }
  return "";
}

}  // namespace

void MainMenu::open_dialog(UiState& ui, FileDialog kind, const std::string& default_name) {
  ui.dialog = kind;
  ui.dialog_error.clear();
  std::error_code ec;
  const std::string cwd = std::filesystem::current_path(ec).string();
  ui.dialog_path = default_name.empty() ? cwd + "/" : (default_name.find('/') == std::string::npos ? cwd + "/" + default_name : default_name);
}

void MainMenu::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  const bool idle = !ui.running;
  // Shortcuts.
  if (keys::ctrl() && keys::pressed(GLFW_KEY_O)) open_dialog(ui, FileDialog::OpenScript, ui.script_path);
  if (keys::ctrl() && keys::pressed(GLFW_KEY_S)) {
    if (keys::shift() || ui.script_path.empty()) open_dialog(ui, FileDialog::SaveScriptAs, ui.script_path.empty() ? "script.py" : ui.script_path);
    else cmds.push(Commands::Kind::SaveScript, ui.script_path);
  }
  if (keys::ctrl() && keys::pressed(GLFW_KEY_Q)) cmds.push(Commands::Kind::Quit);

  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu("File")) {
      if (ImGui::MenuItem("Open script\xe2\x80\xa6", "Ctrl+O")) open_dialog(ui, FileDialog::OpenScript, ui.script_path);
      if (ImGui::MenuItem("Save script", "Ctrl+S")) {
        if (ui.script_path.empty()) open_dialog(ui, FileDialog::SaveScriptAs, "script.py");
        else cmds.push(Commands::Kind::SaveScript, ui.script_path);
      }
      if (ImGui::MenuItem("Save script as\xe2\x80\xa6", "Ctrl+Shift+S")) open_dialog(ui, FileDialog::SaveScriptAs, ui.script_path.empty() ? "script.py" : ui.script_path);
      ImGui::Separator();
      if (ImGui::MenuItem("Open recorded trace\xe2\x80\xa6")) open_dialog(ui, FileDialog::OpenTrace, "");
      if (!ui.recording_path.empty() && ImGui::MenuItem("Close recording (back to live)")) cmds.push(Commands::Kind::CloseTrace);
      if (ImGui::MenuItem("Export transfers CSV\xe2\x80\xa6")) open_dialog(ui, FileDialog::ExportCsv, "transfers.csv");
      if (ImGui::MenuItem("Export Chrome trace JSON\xe2\x80\xa6")) open_dialog(ui, FileDialog::ExportTrace, "devicescope-trace.json");
      if (ImGui::MenuItem("Save screenshot PNG\xe2\x80\xa6")) open_dialog(ui, FileDialog::Screenshot, "devicescope.png");
      ImGui::Separator();
      if (ImGui::MenuItem("Open bench JSON\xe2\x80\xa6")) {
        open_dialog(ui, FileDialog::OpenBench, "");
        ui.show_bench = true;
      }
      if (ImGui::MenuItem("Save bench run as JSON\xe2\x80\xa6")) open_dialog(ui, FileDialog::SaveBenchJson, "devicescope-bench.json");
      if (ImGui::MenuItem("Save bench run as CSV\xe2\x80\xa6")) open_dialog(ui, FileDialog::SaveBenchCsv, "devicescope-bench.csv");
      ImGui::Separator();
      if (ImGui::MenuItem("Quit", "Ctrl+Q")) cmds.push(Commands::Kind::Quit);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Run")) {
      if (ImGui::MenuItem("Run script", "F5", false, idle)) cmds.push(Commands::Kind::RunScript);
      if (ImGui::MenuItem("Step", "F10", false, idle && ui.current_line > 0)) cmds.push(Commands::Kind::Step);
      if (ImGui::MenuItem("Step back", "Shift+F10", false, idle && ui.statements_done > 0)) cmds.push(Commands::Kind::StepBack);
      if (ImGui::MenuItem("Reset", "Ctrl+R", false, idle)) cmds.push(Commands::Kind::Reset);
      if (ImGui::MenuItem("Stop", "Ctrl+C", false, !idle)) cmds.push(Commands::Kind::Stop);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
      ImGui::MenuItem("Memory", nullptr, &ui.show_memory);
      ImGui::MenuItem("Transfers", nullptr, &ui.show_transfers);
      ImGui::MenuItem("Names", nullptr, &ui.show_names);
      ImGui::MenuItem("Modules", nullptr, &ui.show_modules);
      ImGui::MenuItem("Editor", nullptr, &ui.show_editor);
      ImGui::MenuItem("Console and Builder", nullptr, &ui.show_console);
      ImGui::MenuItem("Lessons", nullptr, &ui.show_lessons);
      if (ImGui::MenuItem("Presenter mode", "F11", ui.presenter)) {
        ui.presenter = !ui.presenter;
        ui.show_lessons = ui.show_lessons || ui.presenter;
      }
      ImGui::MenuItem("Bench (transfer sweep)", nullptr, &ui.show_bench);
      ImGui::MenuItem("What fits where (training step estimate)", nullptr, &ui.show_fits);
      ImGui::Separator();
      if (ImGui::MenuItem("Reset layout")) ui.reset_layout = true;
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
      if (ImGui::MenuItem("Keyboard shortcuts")) ui.show_shortcuts = true;
      if (ImGui::MenuItem("About DeviceScope")) ui.show_about = true;
      ImGui::EndMenu();
    }
    // Right: what the figures are.
    // An opened file says where it was recorded: a simulator's snapshot is not "real CUDA" (issue 22).
    const bool file = !snap.source.path.empty();
    const std::string where = snap.simulated ? "simulated devices" : snap.backend == "cuda" ? "real CUDA" : snap.backend.empty() ? "a real machine" : "real " + snap.backend;
    const std::string what = file ? "opened file, " + where : where;
    const float w = ImGui::CalcTextSize(what.c_str()).x + (snap.simulated ? 95.0f : 10.0f);
    ImGui::SameLine(ImGui::GetWindowWidth() - w - 10);
    ImGui::TextDisabled("%s", what.c_str());
    if (snap.simulated) {
      ImGui::SameLine();
      simulated_badge();
    }
    ImGui::EndMainMenuBar();
  }
}

void MainMenu::draw_floating(UiState& ui, Commands& cmds) {
  dialog(ui, cmds);

  if (ui.show_about) {
    ImGui::SetNextWindowSize(ImVec2(460, 0), ImGuiCond_Appearing);
    ImGui::SetNextWindowBgAlpha(1.0f);  // floats over the tiled windows
    if (ImGui::Begin("About DeviceScope", &ui.show_about, ImGuiWindowFlags_NoCollapse)) {
      ImGui::PushFont(fonts().bold);
      ImGui::TextUnformatted("DeviceScope");
      ImGui::PopFont();
      ImGui::TextWrapped("Shows where every PyTorch parameter, buffer, gradient and tensor lives, which names refer to which "
                         "objects, and what every host/device copy cost.");
      ImGui::Spacing();
      ImGui::TextDisabled("runner: %s", ui.runner_name.c_str());
      ImGui::TextDisabled("OpenGL: %s", ui.gl_renderer.c_str());
      ImGui::TextDisabled("Dear ImGui %s", ImGui::GetVersion());
    }
    ImGui::End();
  }
  if (ui.show_shortcuts) {
    ImGui::SetNextWindowBgAlpha(1.0f);
    if (ImGui::Begin("Keyboard shortcuts", &ui.show_shortcuts, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
      const char* rows[][2] = {{"F5", "run the whole script"}, {"F10", "step: run the next statement"},
                               {"Shift+F10", "step back"},     {"Ctrl+R", "reset"},
                               {"Ctrl+C", "stop running code"}, {"Ctrl+O / Ctrl+S", "open / save the script"},
                               {"wheel, drag", "zoom and pan the timeline and the names graph"},
                               {"F11", "presenter mode on / off (Esc leaves it)"},
                               {"Right, Enter, Space", "presenter mode: the lesson's next step"},
                               {"Left, Backspace", "presenter mode: the lesson's previous step"},
                               {"1 - 9", "presenter mode: pick an answer"}};
      // The key column is as wide as its widest label, so presenter-size fonts never overlap the descriptions.
      float key_column = 0.0f;
      for (auto& r : rows) key_column = std::max(key_column, ImGui::CalcTextSize(r[0]).x);
      key_column += 2.0f * ImGui::GetStyle().ItemSpacing.x + ImGui::GetStyle().WindowPadding.x;
      for (auto& r : rows) {
        ImGui::TextUnformatted(r[0]);
        ImGui::SameLine(key_column);
        ImGui::TextDisabled("%s", r[1]);
      }
    }
    ImGui::End();
  }
}

void MainMenu::dialog(UiState& ui, Commands& cmds) {
  if (ui.dialog == FileDialog::None) return;
  const char* title = dialog_title(ui.dialog);
  if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  ImGui::SetNextWindowSize(ImVec2(620, 0), ImGuiCond_Appearing);
  bool open = true;
  if (ImGui::BeginPopupModal(title, &open)) {
    ImGui::TextDisabled("Path:");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##path", &ui.dialog_path, ImGuiInputTextFlags_EnterReturnsTrue);
    if (!ui.dialog_error.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kError), "%s", ui.dialog_error.c_str());
    const bool saving = ui.dialog != FileDialog::OpenScript && ui.dialog != FileDialog::OpenTrace && ui.dialog != FileDialog::OpenBench;
    if (saving && std::filesystem::exists(ui.dialog_path) && !std::filesystem::is_directory(ui.dialog_path))
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "The file exists and will be replaced.");
    ImGui::Spacing();
    const bool ok = ImGui::Button(saving ? "Save" : "Open", ImVec2(100, 0)) || enter;
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel", ImVec2(100, 0)) || keys::pressed(GLFW_KEY_ESCAPE);
    if (ok) {
      if (ui.dialog_path.empty() || std::filesystem::is_directory(ui.dialog_path)) {
        ui.dialog_error = "Give a file name.";
      } else if (!saving && !std::filesystem::exists(ui.dialog_path)) {
        ui.dialog_error = "No such file.";
      } else {
        Commands::Kind k = Commands::Kind::OpenScript;
        switch (ui.dialog) {
          case FileDialog::OpenScript: k = Commands::Kind::OpenScript; break;
          case FileDialog::SaveScriptAs: k = Commands::Kind::SaveScript; break;
          case FileDialog::ExportCsv: k = Commands::Kind::ExportCsv; break;
          case FileDialog::ExportTrace: k = Commands::Kind::ExportTrace; break;
          case FileDialog::Screenshot: k = Commands::Kind::Screenshot; break;
          case FileDialog::OpenTrace: k = Commands::Kind::OpenTrace; break;
          case FileDialog::OpenBench: k = Commands::Kind::OpenBench; break;
          case FileDialog::SaveBenchJson: k = Commands::Kind::SaveBenchJson; break;
          case FileDialog::SaveBenchCsv: k = Commands::Kind::SaveBenchCsv; break;
          case FileDialog::None: break;
        }
        cmds.push(k, ui.dialog_path);
        ui.dialog = FileDialog::None;
        ImGui::CloseCurrentPopup();
      }
    }
    if (cancel) {
      ui.dialog = FileDialog::None;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
  if (!open) ui.dialog = FileDialog::None;
}

}  // namespace ds::gui

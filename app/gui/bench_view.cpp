// Bench window frame: the sweep form, the worker thread with progress and Cancel, opening and saving
// runs, the runs legend and the view model for tests. The plot and the tables are in bench_plot.cpp.
#include "gui/bench_view.h"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "sweep/sweep_io.h"
#include "core/errors.h"
#include "gui/view_state/palette.h"
#include "gui/theme.h"
#include "runtime/runtime.h"
#include "trace/atomic_file.h"

#ifndef DEVICESCOPE_VERSION
#define DEVICESCOPE_VERSION "dev"
#endif

namespace ds::gui {
namespace {

const char* const kRoutes[4] = {"h2d", "d2h", "d2d", "p2p"};
const char* const kMemory[2] = {"pinned", "pageable"};
const char* const kModes[2] = {"sync", "async"};

std::string machine_description() {
  utsname u{};
  if (uname(&u) != 0) return "unknown machine";
  return std::string(u.nodename) + " (" + u.sysname + " " + u.release + ", " + u.machine + ", " +
         std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " cores)";
}

// The path prompt starts in the working directory, like the File menu's.
std::string cwd_file(const std::string& name) {
  std::error_code ec;
  return std::filesystem::current_path(ec).string() + "/" + name;
}

template <size_t N>
std::vector<std::string> chosen(const bool (&on)[N], const char* const (&names)[N]) {
  std::vector<std::string> out;
  for (size_t i = 0; i < N; ++i)
    if (on[i]) out.push_back(names[i]);
  return out;
}

}  // namespace

BenchView::~BenchView() {
  cancel_.store(true);
  if (worker_.joinable()) worker_.join();
}

bool BenchView::start() {
  if (running()) return false;
  SweepOptions o;
  try {
    o.sizes = parse_size_list(sizes_);
  } catch (const std::exception& e) {
    error_ = std::string("Sizes: ") + e.what();
    return false;
  }
  o.routes = chosen(route_on_, kRoutes);
  o.memory = chosen(memory_on_, kMemory);
  o.modes = chosen(mode_on_, kModes);
  const bool host_route = route_on_[0] || route_on_[1];
  if (o.routes.empty() || o.modes.empty() || (host_route && o.memory.empty())) {
    error_ = "Choose at least one route, one mode and (for h2d/d2h) one memory kind.";
    return false;
  }
  o.repeat = std::clamp(repeat_, 1, 1000);
  if (worker_.joinable()) worker_.join();
  error_.clear();
  cancel_.store(false);
  finished_.store(false);
  fraction_.store(0);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    label_ = "starting";
    result_.reset();
    worker_error_.clear();
  }
  const BackendOptions backend = backend_;
  worker_ = std::thread([this, o, backend] {
    std::unique_ptr<SweepResult> r;
    std::string err;
    try {
      // A runtime of its own: the sweep never touches the session's memory or its transfer log (the
      // sweep reads its timings from this runtime's own event log).
      RuntimeOptions ro;
      ro.backend = backend;
      auto rt = Runtime::create(ro);
      r = std::make_unique<SweepResult>(run_sweep(*rt, o, [this](double f, const std::string& label) {
        fraction_.store(f);
        std::lock_guard<std::mutex> lock(mutex_);
        label_ = label;
        return !cancel_.load();
      }));
      r->devicescope_version = DEVICESCOPE_VERSION;
      r->machine = machine_description();
    } catch (const std::exception& e) {
      err = e.what();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    result_ = std::move(r);
    worker_error_ = err;
    finished_.store(true);
  });
  return true;
}

void BenchView::poll() {
  if (!worker_.joinable() || !finished_.load()) return;
  worker_.join();
  collect();
}

void BenchView::collect() {
  std::unique_ptr<SweepResult> r;
  std::string err;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    r = std::move(result_);
    err = worker_error_;
  }
  if (!err.empty()) error_ = "Sweep failed: " + err;
  last_cancelled_ = r && r->cancelled;
  if (r && !r->points.empty()) {
    BenchRun run;
    run.result = std::move(*r);
    run.source = "this session";
    add_run(std::move(run));
  } else if (last_cancelled_) {
    error_ = "Cancelled before the first point.";
  }
}

void BenchView::wait() {
  if (!worker_.joinable()) return;
  worker_.join();
  collect();
}

void BenchView::add_run(BenchRun run) {
  run.number = next_number_++;
  runs_.push_back(std::move(run));
  table_run_ = runs_.size() - 1;
  rebuild();
}

bool BenchView::open_file(const std::string& path) {
  try {
    BenchRun run;
    run.result = load_sweep_json(path);
    const size_t slash = path.find_last_of('/');
    run.source = slash == std::string::npos ? path : path.substr(slash + 1);
    add_run(std::move(run));
    error_.clear();
    return true;
  } catch (const std::exception& e) {
    error_ = e.what();
    return false;
  }
}

void BenchView::save_json(const std::string& path) const {
  if (!has_run()) raise(ErrorKind::RuntimeError, "no bench run to save yet");
  write_file_atomically(path, [&](std::ostream& out) { write_sweep_json(runs_[table_run_].result, out); });
}

void BenchView::save_csv(const std::string& path) const {
  if (!has_run()) raise(ErrorKind::RuntimeError, "no bench run to save yet");
  write_file_atomically(path, [&](std::ostream& out) { write_sweep_csv(runs_[table_run_].result, out); });
}

void BenchView::draw_controls(UiState& ui) {
  const bool busy = running();
  ImGui::BeginDisabled(busy);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Sizes");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(170);
  ImGui::InputText("##sizes", &sizes_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("LOW:HIGH (powers of two), LOW:HIGH:x4 (every 4x), or a list: 4KiB,1MiB,256MiB");
  ImGui::SameLine(0, 16);
  ImGui::TextUnformatted("Repeat");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("##repeat", &repeat_);
  repeat_ = std::clamp(repeat_, 1, 1000);
  ImGui::SameLine(0, 16);
  ImGui::TextDisabled("Routes");
  for (int i = 0; i < 4; ++i) ImGui::SameLine(), ImGui::Checkbox(kRoutes[i], &route_on_[i]);
  ImGui::SameLine(0, 16);
  ImGui::TextDisabled("Host memory");
  for (int i = 0; i < 2; ++i) ImGui::SameLine(), ImGui::Checkbox(kMemory[i], &memory_on_[i]);
  ImGui::SameLine(0, 16);
  ImGui::TextDisabled("Modes");
  for (int i = 0; i < 2; ++i) ImGui::SameLine(), ImGui::Checkbox(kModes[i], &mode_on_[i]);
  ImGui::EndDisabled();

  // Run / progress + Cancel / save.
  if (busy) {
    std::string label;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      label = label_;
    }
    const double f = fraction_.load();
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%d%%  %s", int(f * 100), label.c_str());
    ImGui::SetNextItemWidth(-110);
    ImGui::ProgressBar(float(f), ImVec2(-110, 0), overlay);
    ImGui::SameLine();
    ImGui::BeginDisabled(cancel_.load());
    if (ImGui::Button(cancel_.load() ? "Cancelling" : "Cancel", ImVec2(-1, 0))) cancel();
    ImGui::EndDisabled();
  } else {
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(with_alpha(theme::kAccent, 0.75f)));
    if (ImGui::Button("\xe2\x96\xb6 Run sweep", ImVec2(130, 0))) start();
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::BeginDisabled(!has_run());
    if (ImGui::Button("Save JSON\xe2\x80\xa6")) {
      ui.dialog = FileDialog::SaveBenchJson, ui.dialog_error.clear();
      ui.dialog_path = cwd_file("devicescope-bench.json");
    }
    ImGui::SameLine();
    if (ImGui::Button("Save CSV\xe2\x80\xa6")) {
      ui.dialog = FileDialog::SaveBenchCsv, ui.dialog_error.clear();
      ui.dialog_path = cwd_file("devicescope-bench.csv");
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Open JSON\xe2\x80\xa6")) {
      ui.dialog = FileDialog::OpenBench, ui.dialog_error.clear();
      ui.dialog_path = cwd_file("");
    }
    ImGui::SameLine();
    ImGui::TextDisabled("backend %s", backend_.backend.c_str());
    if (last_cancelled_ && error_.empty()) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kWarning), "last sweep cancelled: partial points kept");
    }
  }
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(theme::kError));
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
}

void BenchView::draw_runs() {
  for (size_t i = 0; i < runs_.size(); ++i) {
    BenchRun& r = runs_[i];
    ImGui::PushID(int(i));
    if (ImGui::Checkbox("##visible", &r.visible)) rebuild();
    ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 4), ImVec2(p.x + 14, p.y + h + 2), bench_run_color(r.number), 2);
    ImGui::Dummy(ImVec2(16, h));
    ImGui::SameLine();
    if (ImGui::Selectable(r.title().c_str(), table_run_ == i, 0, ImVec2(ImGui::CalcTextSize(r.title().c_str()).x, 0)))
      table_run_ = i;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show this run in the tables below");
    ImGui::SameLine();
    ImGui::TextDisabled("%s, %zu points", r.legend().c_str(), r.result.points.size());
    if (r.result.simulated) {
      ImGui::SameLine();
      simulated_badge("bench figures");
    }
    ImGui::SameLine(ImGui::GetWindowWidth() - 40);
    if (ImGui::SmallButton("x")) {
      runs_.erase(runs_.begin() + long(i));
      table_run_ = runs_.empty() ? 0 : std::min(table_run_, runs_.size() - 1);
      rebuild();
      ImGui::PopID();
      break;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Remove this run from the view");
    ImGui::PopID();
  }
}

void BenchView::draw(const Snapshot& snap, UiState& ui, Commands& cmds) {
  poll();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.06f, vp->Pos.y + vp->Size.y * 0.07f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x * 0.88f, vp->Size.y * 0.84f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(1.0f);  // floats over the tiled windows
  if (!ImGui::Begin("Bench \xe2\x80\x94 transfer sweep###Bench", &ui.show_bench, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  draw_controls(ui);
  ImGui::Separator();
  if (dirty_) {
    BenchFilter f;
    f.routes = chosen(show_route_, kRoutes);
    f.memory = chosen(show_memory_, kMemory);
    f.modes = chosen(show_mode_, kModes);
    plot_.build(runs_, f, color_mode_);
    dirty_ = false;
  }
  if (runs_.empty()) {
    ImGui::Spacing();
    ImGui::TextDisabled("No runs yet. Run a sweep (the same one as `devicescope bench`), or open a recorded bench JSON");
    ImGui::TextDisabled("(devicescope bench --json FILE) to compare machines and links.");
  } else {
    draw_runs();
  }
  ImGui::Spacing();
  const float avail = ImGui::GetContentRegionAvail().y;
  const float plot_h = runs_.empty() ? avail : std::max(220.0f, avail * 0.58f);
  ImGui::BeginChild("##bench_plot", ImVec2(0, plot_h), false);
  draw_plot();
  ImGui::EndChild();
  if (!runs_.empty() && ImGui::BeginTabBar("##bench_tables")) {
    if (ImGui::BeginTabItem("Points")) {
      draw_points_table();
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Pinning cost")) {
      draw_pinning_table();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
  (void)snap;
  (void)cmds;
}

nlohmann::json BenchView::view_model() const {
  using nlohmann::json;
  json runs = json::array();
  for (const BenchRun& r : runs_)
    runs.push_back({{"title", r.title()}, {"backend", r.result.backend}, {"link", r.result.link},
                    {"machine", r.result.machine}, {"simulated", r.result.simulated}, {"cancelled", r.result.cancelled},
                    {"points", r.result.points.size()}, {"pinning", r.result.pinning.size()}, {"visible", r.visible},
                    {"color", color_hex(bench_run_color(r.number))}});
  json series = json::array();
  json latest = json::object();  // series name -> points, for the run the tables show
  for (const BenchSeries& s : plot_.series) {
    series.push_back({{"run", runs_[s.run].number}, {"name", s.name}, {"points", s.points.size()},
                      {"link_gbps", s.link_gbps}, {"color", color_hex(s.color)}, {"marker", s.marker}});
    if (s.run == table_run_) latest[s.name] = s.points.size();
  }
  const char* state = running() ? "running" : !error_.empty() ? "error" : runs_.empty() ? "idle" : "done";
  return {{"state", state},
          {"error", error_},
          {"run_count", runs_.size()},
          {"runs", runs},
          {"series", series},
          {"series_points", latest},
          {"series_count", plot_.series.size()},
          {"simulated", plot_.any_simulated},
          {"color_by_run", plot_.color_by_run},
          {"pinning_rows", has_run() ? runs_[table_run_].result.pinning.size() : 0},
          {"plot_range", {plot_.x_min, plot_.x_max, plot_.y_min, plot_.y_max}}};
}

}  // namespace ds::gui

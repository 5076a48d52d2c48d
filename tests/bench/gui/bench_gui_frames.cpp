// The frame benchmark: renders N frames of the desktop app showing a synthetic picture (100,000 storages
// and 1,000,000 transfers by default), or a recording opened from a file, while sweeping the timeline, and
// prints the median and 95th percentile frame times. Headless (under xvfb-run when there is no display).
//
//   build/tests/bench_gui_frames [--frames 300] [--storages N] [--transfers N] [--open-trace FILE] [--size WxH]
//                                [--check-same-pixels]
// --check-same-pixels: after the timed frames, the window's own buffer with windows copied from the layer
// cache's images must hold the same pixels as with everything drawn (exit 1 when not, or when none was copied).
#include <algorithm>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <vector>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <imgui.h>

#include <CLI/CLI.hpp>

#include "gui/app.h"
#include "gui/frame.h"
#include "gui/gui_main.h"
#include "render/gl_context.h"
#include "render/layer_cache.h"
#include "synthetic_session.h"

namespace ds::gui {
namespace {

// CPU seconds used so far by each thread of this process (from /proc): the main thread builds the frames,
// llvmpipe's threads rasterize them. Tells how the frame time would split on an otherwise idle machine.
std::map<int, double> thread_cpu_seconds() {
  std::map<int, double> out;
  const double tick = double(sysconf(_SC_CLK_TCK));
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(e.path() / "stat");
    std::string line;
    std::getline(in, line);
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
      if (i == 14) utime = std::stod(field);
      if (i == 15) stime = std::stod(field);
    }
    out[std::stoi(e.path().filename().string())] = (utime + stime) / tick;
  }
  return out;
}

struct BenchOptions {
  int frames = 300;
  size_t storages = 100000, transfers = 1000000;
  bool check_same_pixels = false;
};

// One more frame into the window's back buffer (as the user sees it, before the swap), read back.
std::vector<uint8_t> frame_pixels(GLFWwindow* window, App& app) {
  glfwPollEvents();
  draw_frame(window, app);
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  std::vector<uint8_t> px = render::read_pixels(w, h);
  glfwSwapBuffers(window);
  return px;
}

// The layer cache's copies into the window's buffer (rows top first, unlike an image) against drawing it all.
int check_same_pixels(GLFWwindow* window, App& app) {
  render::LayerCache& cache = render::frame_layer_cache();
  frame_pixels(window, app);  // the images are up to date
  const std::vector<uint8_t> cached = frame_pixels(window, app);
  const int copied = cache.stats().copied;
  cache.set_enabled(false);
  const std::vector<uint8_t> drawn = frame_pixels(window, app);
  cache.set_enabled(true);
  size_t differ = 0;
  for (size_t i = 0; i < cached.size() && i < drawn.size(); i += 4) differ += std::memcmp(&cached[i], &drawn[i], 4) != 0;
  const bool ok = copied > 0 && cached.size() == drawn.size() && differ == 0;
  std::printf("  same pixels: %s (%d windows copied into the window's buffer; %zu pixels differ from drawing them)\n",
              ok ? "ok" : "FAIL", copied, differ);
  return ok ? 0 : 1;
}

int run_benchmark(GLFWwindow* window, App& app, const GuiOptions& o, const BenchOptions& b) {
  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
  // Warm-up: the first frames lay out the windows and build every instance buffer (once per snapshot).
  const auto w0 = clock::now();
  for (int i = 0; i < 3; ++i) {
    glfwPollEvents();
    draw_frame(window, app);
    render::finish();
    glfwSwapBuffers(window);
  }
  const double warmup = ms_since(w0);
  const std::map<int, double> threads_before = thread_cpu_seconds();
  std::vector<double> times, cpu;
  times.reserve(size_t(b.frames));
  for (int i = 0; i < b.frames && !glfwWindowShouldClose(window); ++i) {
    const auto t = clock::now();
    const std::clock_t c0 = std::clock();
    app.bench_tick(i);
    glfwPollEvents();
    draw_frame(window, app);
    render::finish();  // count the GPU's (llvmpipe's) work, not just the submission
    glfwSwapBuffers(window);
    times.push_back(ms_since(t));
    cpu.push_back(1000.0 * double(std::clock() - c0) / CLOCKS_PER_SEC);
  }
  if (times.empty()) return 1;
  const std::map<int, double> threads_after = thread_cpu_seconds();
  double main_ms = 0, others_ms = 0, busiest_other_ms = 0;
  const int main_tid = int(getpid());
  for (const auto& [tid, secs] : threads_after) {
    auto b = threads_before.find(tid);
    const double ms = 1000.0 * (secs - (b == threads_before.end() ? 0.0 : b->second)) / double(times.size());
    if (tid == main_tid) main_ms = ms;
    else {
      others_ms += ms;
      busiest_other_ms = std::max(busiest_other_ms, ms);
    }
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  const double p95 = times[std::min(times.size() - 1, size_t(double(times.size()) * 0.95))];
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  std::printf("devicescope bench: %zu frames at %dx%d on %s\n", times.size(), w, h, app.ui().gl_renderer.c_str());
  std::printf("  snapshot: %zu storages, %zu transfers (warm-up, building instance buffers: %.0f ms)\n", b.storages,
              b.transfers, warmup);
  if (!app.ui().recording_path.empty())  // --open-trace: the window shows the recording, not the synthetic picture
    std::printf("  recording: %s, %zu transfers in the Transfers view\n", app.ui().recording_path.c_str(),
                app.picture().transfers.size());
  const ImDrawData* dd = ImGui::GetDrawData();
  int draw_calls = 0;
  for (int i = 0; dd && i < dd->CmdListsCount; ++i) draw_calls += dd->CmdLists[i]->CmdBuffer.Size;
  std::printf("  last frame: %d ImGui triangles in %d draw calls; %s\n", dd ? dd->TotalIdxCount / 3 : 0, draw_calls,
              app.bench_report().c_str());
  const render::LayerCache::Stats& lc = render::frame_layer_cache().stats();
  std::printf("  last frame: %d of %d windows copied from their cached images (%d images taken)\n", lc.copied, lc.groups, lc.captured);
  std::printf("  frame time: median %.2f ms, p95 %.2f ms, max %.2f ms\n", median, p95, times.back());
  std::sort(cpu.begin(), cpu.end());
  std::printf("  process CPU time per frame (all threads, llvmpipe's included): median %.2f ms\n", cpu[cpu.size() / 2]);
  // On an idle machine the frame takes about main + busiest (llvmpipe rasterizes in parallel after submission).
  std::printf("  per frame: main thread %.2f ms, other threads %.2f ms (busiest %.2f ms); load average now %.2f\n",
              main_ms, others_ms, busiest_other_ms, [] {
                double l[1] = {0};
                return getloadavg(l, 1) == 1 ? l[0] : 0.0;
              }());
  return b.check_same_pixels ? check_same_pixels(window, app) : 0;
}

}  // namespace
}  // namespace ds::gui

int main(int argc, char** argv) {
  ds::gui::BenchOptions b;
  ds::gui::GuiOptions o;
  std::string size = "1600x1000";
  CLI::App cli("DeviceScope's frame benchmark: the desktop app's frame time over a large picture");
  cli.add_option("--frames", b.frames, "frames to render and time")->check(CLI::PositiveNumber)->capture_default_str();
  cli.add_option("--storages", b.storages, "storages in the synthetic picture")->capture_default_str();
  cli.add_option("--transfers", b.transfers, "transfers in the synthetic picture")->capture_default_str();
  cli.add_option("--open-trace", o.open_trace, "time the frames of this recording (Chrome trace JSON or CSV) instead");
  cli.add_option("--size", size, "window size WxH")->capture_default_str();
  cli.add_flag("--check-same-pixels", b.check_same_pixels,
               "after the timed frames, check that windows copied from the layer cache look as drawn (exit 1 if not)");
  CLI11_PARSE(cli, argc, argv);
  if (std::sscanf(size.c_str(), "%dx%d", &o.width, &o.height) != 2 || o.width <= 0 || o.height <= 0) {
    std::fprintf(stderr, "bench_gui_frames: --size must look like 1600x1000, got %s\n", size.c_str());
    return 2;
  }
  o.argv0 = argv[0];
  ds::gui::SyntheticOptions s;
  s.storages = b.storages;
  s.transfers = b.transfers;
  return ds::gui::run_gui(
      o, [s] { return std::make_unique<ds::gui::SyntheticSession>(s); },
      [b](GLFWwindow* window, ds::gui::App& app, const ds::gui::GuiOptions& opts) { return run_benchmark(window, app, opts, b); });
}

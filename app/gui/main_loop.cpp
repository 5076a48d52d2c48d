// The desktop app's skeleton: setup, main loop, cleanup (after Dear ImGui's example_glfw_opengl3).
// Everything the app shows is in App::frame(); all GL calls are in app/render/.
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "gui/app.h"
#include "gui/frame.h"
#include "gui/gui_main.h"
#include "gui/theme.h"
#include "render/gl_context.h"
#include "render/layer_cache.h"
#include "render/png_file.h"
#include "render/quad_batch.h"

namespace ds::gui {
namespace {

std::string g_glfw_error;
// SIGINTs not handled yet, counted: two that came while the app was busy starting (before the main loop
// reads them) are two Ctrl+C's, the second of which quits (App::on_interrupt_signal).
std::atomic<int> g_sigints{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler's counter");

// Set once the window has closed and the code has stopped: the clean shutdown runs (Python's finalization
// among it, which waits for the script's non-daemon threads), and a Ctrl+C now ends the process at once, with
// status 0 as the quit it completes (never killed by the signal half way: 130 for a quit the user asked for).
std::atomic<bool> g_shutting_down{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler's flag");

// When the app quits while code runs: how long that code has to end after its KeyboardInterrupt. Another
// Ctrl+C ends the wait at once.
constexpr double kQuitGraceSeconds = 5.0;

void on_glfw_error(int, const char* description) { g_glfw_error = description ? description : "unknown GLFW error"; }
void on_sigint(int) {
  if (g_shutting_down.load()) _exit(0);  // async-signal-safe
  g_sigints.fetch_add(1);
}

// Files dropped on the window, handed to the app by the main loop (GLFW calls back from glfwPollEvents).
std::vector<std::string> g_dropped;
void on_drop(GLFWwindow*, int count, const char** paths) {
  for (int i = 0; i < count; ++i) g_dropped.emplace_back(paths[i]);
}

std::string ini_path() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path dir = xdg && *xdg ? std::filesystem::path(xdg) : home ? std::filesystem::path(home) / ".config" : ".";
  dir /= "devicescope";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return (dir / "imgui.ini").string();
}

}  // namespace

int run_gui(const GuiOptions& o, const SessionFactory& make_session, const HeadlessDriver& drive) {
  const bool headless = !o.screenshot.empty() || drive != nullptr;

  // Find a display, or say how to get one
  if (int rc = ensure_display(o, headless, ""); rc >= 0) return rc;

  // Ctrl+C is always honoured, also when SIGINT was inherited as ignored (`devicescope &` from a script), and
  // from the first instant: a window stops running code or quits (the main loop reads the flag, even one set
  // while the starter ran), a headless run ends at once. The app's Python has no SIGINT handler of its own
  // (PythonGuiSession): a KeyboardInterrupt raised in whatever the session thread was doing killed the app
  // with std::terminate when the signal came during start-up.
  std::signal(SIGINT, headless ? SIG_DFL : on_sigint);

  // Setup window
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) return ensure_display(o, headless, g_glfw_error);

  // Decide GL+GLSL versions: OpenGL 3.3 core, GLSL 330
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (!o.screenshot.empty()) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);  // renders offscreen at an exact size

  // Create window with graphics context
  GLFWwindow* window = glfwCreateWindow(o.width, o.height, "DeviceScope", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "devicescope: cannot open an OpenGL 3.3 window (%s)\n", g_glfw_error.c_str());
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless ? 0 : 1);

  // Initialize OpenGL loader: glad for our renderer (ImGui's backend loads its own in its Init)
  std::string why;
  if (!render::load_gl(reinterpret_cast<render::GlLoader>(glfwGetProcAddress), &why)) {
    std::fprintf(stderr, "devicescope: %s\n", why.c_str());
    glfwDestroyWindow(window);
    glfwTerminate();
    return 1;
  }

  // Setup Dear ImGui context
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  static std::string ini;
  ini = headless ? "" : ini_path();
  io.IniFilename = headless ? nullptr : ini.c_str();

  // Setup Dear ImGui style and fonts
  float scale = 1.0f;
  if (!headless) glfwGetWindowContentScale(window, &scale, nullptr);
  apply_theme(std::clamp(scale, 1.0f, 3.0f));

  // Setup Platform/Renderer backends, and our instanced renderer's shaders
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  int rc = 0;
  if (!render::init_quad_programs(&why)) {
    std::fprintf(stderr, "devicescope: shader error: %s\n", why.c_str());
    rc = 1;
  }

  // Our state: the app with its session, and the script a new user sees first
  if (rc == 0) {
    App app(make_session(), AppOptions{!o.screenshot.empty(), o.anim_time, render::gl_renderer()});
    for (const std::string& tab : o.show) app.show(tab);
    app.setup_bench(o.backend, o.bench_view || !o.bench_open.empty(), o.bench_sizes, o.bench_open,
                    o.bench_view && !o.screenshot.empty());
    if (!o.screenshot.empty()) app.set_blocking_timeout(o.script_timeout);  // a headless run never hangs
    if (!drive && !load_initial_script(app, o)) rc = 2;
    if (o.presenter) app.set_presenter(true);
    if (rc == 0 && (!o.lesson.empty() || o.presenter) && !app.open_lesson_blocking(o.lesson, o.lesson_step, o.lesson_answer)) {
      std::fprintf(stderr, "devicescope: %s\n", app.ui().notice.c_str());
      rc = 2;
    }
    // Headless runs wait for the recording: a failure exits 2, after a screenshot's picture of the
    // message as the window shows it. The window itself shows the recording loading.
    bool trace_refused = false;
    if (rc == 0 && !o.open_trace.empty() && !app.open_trace(o.open_trace, headless, o.hold_loading && !o.screenshot.empty())) {
      std::fprintf(stderr, "devicescope: %s\n", app.ui().notice.c_str());
      trace_refused = true;
      if (o.screenshot.empty()) rc = 2;
    }
    if (rc == 0 && !o.screenshot.empty()) app.settle_fits();
    if (rc == 0 && !o.screenshot.empty()) rc = trace_refused ? std::max(render_screenshot(window, app, o), 2) : render_screenshot(window, app, o);
    else if (rc == 0 && drive) rc = drive(window, app, o);
    else if (rc == 0) {
      glfwSetDropCallback(window, on_drop);

      // Main loop
      while (!glfwWindowShouldClose(window) && !app.quit_requested()) {
        // Poll and handle events; wait a little when nothing is running, to spare the CPU
        if (app.busy() || app.animating()) glfwPollEvents();
        else glfwWaitEventsTimeout(0.25);
        for (int n = g_sigints.exchange(0); n > 0 && !app.quit_requested(); --n) app.on_interrupt_signal();
        if (!g_dropped.empty()) {
          app.open_dropped(g_dropped);
          g_dropped.clear();
        }

        // Start the Dear ImGui frame, let every view draw, render
        draw_frame(window, app);

        // A screenshot asked for from the File menu: read this frame back before presenting it
        if (std::optional<std::string> path = app.take_screenshot_request()) {
          int w = 0, h = 0;
          glfwGetFramebufferSize(window, &w, &h);
          try {
            render::write_png(*path, w, h, render::read_pixels(w, h));
            app.notice("Saved screenshot " + *path);
          } catch (const std::exception& e) {
            app.notice(e.what(), true);
          }
        }
        glfwSwapBuffers(window);
      }
      // Code still running (a script that swallows KeyboardInterrupt, or quit while it ran) gets
      // KeyboardInterrupt and a few seconds; if it goes on, its thread cannot be joined: the app ends
      // without the clean shutdown, still with status 0 (it quit as asked). A further Ctrl+C ends the wait.
      g_sigints.store(0);
      if (!app.stop_code_before_exit(kQuitGraceSeconds, [] { return g_sigints.load() > 0; })) {
        std::fprintf(stderr, "devicescope: the running code did not stop after KeyboardInterrupt (it catches it); "
                             "quitting without waiting for it\n");
        std::fflush(nullptr);
        std::_Exit(0);
      }
      g_shutting_down.store(true);
    }
  }

  // Cleanup
  render::shutdown_quad_programs();
  render::shutdown_layer_programs();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return rc;
}

}  // namespace ds::gui

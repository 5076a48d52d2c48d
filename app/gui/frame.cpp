// draw_frame, the display check (with xvfb-run for headless modes) and the initial script.
#include "gui/frame.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "gui/app.h"
#include "gui/gui_main.h"
#include "gui/presenter_mode.h"
#include "gui/theme.h"
#include "render/embedded_files.h"
#include "render/gl_context.h"
#include "render/layer_cache.h"

namespace ds::gui {

void draw_frame(GLFWwindow* window, App& app, int fixed_w, int fixed_h, float mouse_x, float mouse_y) {
  sync_presenter_mode(window, app.ui().presenter, fixed_w > 0);  // font atlas changes go before the frame
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (fixed_w > 0) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(fixed_w), float(fixed_h));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.MousePos = mouse_x >= 0 ? ImVec2(mouse_x, mouse_y) : ImVec2(-FLT_MAX, -FLT_MAX);
  }
  ImGui::NewFrame();
  app.frame();
  ImGui::Render();
  int w = fixed_w, h = fixed_h;
  if (w <= 0) glfwGetFramebufferSize(window, &w, &h);
  // Windows that look as they did last frame are copied from an image of them (render/layer_cache.h).
  render::frame_layer_cache().apply(ImGui::GetDrawData());
  render::begin_frame(w, h, theme::kClear[0], theme::kClear[1], theme::kClear[2]);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

namespace {

// The xvfb-run child's process group: a signal that ends us ends it too (else the real run, under
// xvfb-run, would go on forever when a harness or timeout(1) kills the devicescope it started).
pid_t g_xvfb_group = 0;

void forward_to_xvfb(int sig) {
  if (g_xvfb_group > 0) kill(-g_xvfb_group, sig);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

bool on_path(const char* program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

// Runs this very command again under `xvfb-run -a` and returns its exit code (-1 when that is impossible).
// The command's own status is written to a file from inside the X session and returned: xvfb-run itself
// sometimes exits 5 ("problem while cleaning up temporary directory") after a run that went fine, which
// must not turn a written screenshot into a failure.
int run_under_xvfb(const GuiOptions& o) {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  std::string arg;
  while (std::getline(in, arg, '\0')) args.push_back(arg);
  char self[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (args.empty() || n <= 0) return -1;
  char status_path[] = "/tmp/devicescope-xvfb-XXXXXX";
  const int fd = mkstemp(status_path);
  if (fd < 0) return -1;
  close(fd);
  const std::string screen = "-screen 0 " + std::to_string(std::max(o.width, 1920)) + "x" + std::to_string(std::max(o.height, 1200)) + "x24";
  std::vector<std::string> cmd = {"xvfb-run", "-a", "-s", screen, "sh", "-c", "\"$@\"; echo $? > \"$DEVICESCOPE_XVFB_STATUS\"",
                                  "sh", std::string(self, size_t(n))};
  cmd.insert(cmd.end(), args.begin() + 1, args.end());
  std::vector<char*> argv;
  for (std::string& s : cmd) argv.push_back(s.data());
  argv.push_back(nullptr);
  setenv("DEVICESCOPE_UNDER_XVFB", "1", 1);
  setenv("DEVICESCOPE_XVFB_STATUS", status_path, 1);
  unsetenv("DISPLAY");
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    unlink(status_path);
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execvp("xvfb-run", argv.data());
    _exit(127);
  }
  setpgid(pid, pid);  // both sides set it: no race with the exec
  g_xvfb_group = pid;
  const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction previous[3] {};
  for (int i = 0; i < 3; ++i) {
    struct sigaction action {};
    action.sa_handler = forward_to_xvfb;
    sigemptyset(&action.sa_mask);
    sigaction(forwarded[i], &action, &previous[i]);
  }
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  for (int i = 0; i < 3; ++i) sigaction(forwarded[i], &previous[i], nullptr);
  g_xvfb_group = 0;
  int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + (WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
  std::ifstream status(status_path);
  int inner = 0;
  if (status >> inner) code = inner;
  unlink(status_path);
  return code;
}

}  // namespace

int ensure_display(const GuiOptions& o, bool headless, const std::string& glfw_error) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  const bool have = (display && *display) || (wayland && *wayland);
  if (have && glfw_error.empty()) return -1;
  // Screenshots and benchmarks need no screen: run them on a virtual one when we can.
  if (headless && !std::getenv("DEVICESCOPE_UNDER_XVFB") && on_path("xvfb-run"))
    if (const int rc = run_under_xvfb(o); rc >= 0) return rc;
  const std::string what = have ? "cannot open the display " + std::string(display && *display ? display : wayland) +
                                      (glfw_error.empty() ? "" : " (" + glfw_error + ")")
                                : std::string("no display found (DISPLAY is not set)");
  if (headless && !on_path("xvfb-run"))
    std::fprintf(stderr, "devicescope: %s and xvfb-run is not installed. Install xvfb, then: xvfb-run -a %s\n",
                 what.c_str(), o.screenshot.empty() ? "<the same command>" : "devicescope --screenshot out.png");
  else
    std::fprintf(stderr, "devicescope: %s. Run under a virtual display: xvfb-run -a devicescope ..., or render to a file "
                         "with --screenshot out.png.\n", what.c_str());
  return 1;
}

bool load_initial_script(App& app, const GuiOptions& o) {
  if (!o.script_path.empty()) {
    std::ifstream in(o.script_path);
    if (!in) {
      std::fprintf(stderr, "devicescope: cannot read %s\n", o.script_path.c_str());
      return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    app.load_script(ss.str(), o.script_path);
    if (o.steps >= 0) app.step_blocking(std::max(0, o.steps - (o.screenshot.empty() ? 0 : 1)));
    else if (o.screenshot.empty()) app.run_script();  // a window opens while it runs
    else app.run_script_blocking();
    return true;
  }
  // A new user sees something at once: the starter, run up to its "Step from here" line.
  const std::string starter(render::embedded_file("starter.py"));
  app.load_script(starter, "");
  if (o.steps >= 0) {
    app.step_blocking(std::max(0, o.steps - (o.screenshot.empty() ? 0 : 1)));
  } else {
    const size_t at = starter.find("Step from here");
    if (at != std::string::npos) app.step_to_line_blocking(1 + int(std::count(starter.begin(), starter.begin() + long(at), '\n')));
  }
  return true;
}

}  // namespace ds::gui

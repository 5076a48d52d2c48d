// --screenshot: render the app offscreen at an exact size, write the PNG and the view model beside it.
#include <cstdio>
#include <cstdlib>

#include "gui/app.h"
#include "gui/frame.h"
#include "gui/gui_main.h"
#include "render/gl_context.h"
#include "render/png_file.h"

namespace ds::gui {

int render_screenshot(GLFWwindow* window, App& app, const GuiOptions& o) {
  render::OffscreenTarget target;
  std::string why;
  if (!target.create(o.width, o.height, &why)) {
    std::fprintf(stderr, "devicescope: %s\n", why.c_str());
    return 1;
  }
  target.bind();
  // A few frames: windows take their layout, auto-sized parts settle, instance buffers are built.
  for (int i = 0; i < 3; ++i) draw_frame(window, app, o.width, o.height);
  if (o.steps > 0) {
    // The last step runs now, over a drawn picture: moves animate from where their sources were.
    app.step_blocking(1);
    for (int i = 0; i < 3; ++i) draw_frame(window, app, o.width, o.height);
  }
  // --mouse X,Y: hover there (tooltips, highlights) for the last frames.
  for (int i = 0; o.mouse_x >= 0 && i < 3; ++i) draw_frame(window, app, o.width, o.height, o.mouse_x, o.mouse_y);
  const std::vector<uint8_t> pixels = render::read_pixels(o.width, o.height);
  target.unbind();
  try {
    render::write_png(o.screenshot, o.width, o.height, pixels);
    app.write_view_model(o.screenshot + ".json", o.width, o.height);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "devicescope: %s\n", e.what());
    return 1;
  }
  std::printf("devicescope: wrote %s (%dx%d) and %s.json\n", o.screenshot.c_str(), o.width, o.height, o.screenshot.c_str());
  if (!app.timeout_report().empty()) {
    // Exit 124, as timeout(1) does. A script that ignored KeyboardInterrupt still runs on the app's worker
    // thread, which cannot be joined: the process ends here, its screenshot written.
    std::fprintf(stderr, "devicescope: %s; the screenshot shows the state reached\n", app.timeout_report().c_str());
    std::fflush(nullptr);
    if (app.worker_stuck()) std::_Exit(124);
    return 124;
  }
  return app.ui().error_line > 0 || !app.ui().error_traceback.empty() ? 3 : 0;
}

}  // namespace ds::gui

// App::set_blocking_timeout: a headless screenshot of an endless script ends instead of hanging.
#include <algorithm>
#include <chrono>
#include <sstream>

#include "gui/app.h"

namespace ds::gui {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string seconds_text(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

}  // namespace

void App::set_blocking_timeout(double seconds) {
  blocking_timeout_s_ = seconds;
  blocking_deadline_ = seconds > 0 ? now_s() + seconds : 0;
}

void App::wait_idle_blocking() {
  if (worker_stuck_) return;  // the worker never comes back: nothing more can run
  if (blocking_deadline_ <= 0) {
    live_->wait_idle();
    return;
  }
  if (live_->wait_idle_for(blocking_deadline_ - now_s())) return;
  // Like `devicescope run --timeout`: KeyboardInterrupt, a second one a while later, then stop waiting.
  const std::string limit = seconds_text(blocking_timeout_s_);
  const double grace = std::clamp(blocking_timeout_s_, 1.0, 10.0);
  for (int attempt = 0; attempt < 2; ++attempt) {
    live_->interrupt();
    if (live_->wait_idle_for(grace)) {
      timeout_report_ = "the script was still running after " + limit + " s (--timeout " + limit +
                        "): stopped it with KeyboardInterrupt";
      return;
    }
  }
  worker_stuck_ = true;
  timeout_report_ = "the script was still running after " + limit + " s (--timeout " + limit +
                    ") and kept running after KeyboardInterrupt";
}

}  // namespace ds::gui

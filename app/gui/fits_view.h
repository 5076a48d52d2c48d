// "What fits where" (lesson 019, issue 25): pick a Llama-shaped model, a strategy (one device, DDP, full
// sharding) and activation checkpointing; the estimate runs a whole training step on virtual tensors on the
// session's thread (devicescope.fits.what_fits, a Call job) and the window shows each device's peak as a
// bar stacked by category against its capacity (out of memory marked, with PyTorch's message), and the
// largest modules x categories at the peak.
#pragma once

#include <optional>
#include <string>

#include "gui/ui_state.h"
#include "gui/view_state/fits_model.h"

namespace ds::gui {

class FitsView {
 public:
  static constexpr const char* kFunction = "devicescope.fits.what_fits";
  void draw(UiState& ui);
  // A request waiting for the idle session (the app submits it); taken once submitted.
  std::optional<FitsRequest> take_request();
  bool pending() const { return request_.has_value(); }
  void request() { request_ = form_; }
  void on_result(bool ok, const std::string& result_json, const std::string& why);
  bool running() const { return running_; }
  void set_running() { running_ = true; }
  const std::optional<FitsResult>& result() const { return result_; }

 private:
  void draw_form();
  void draw_devices(const FitsResult& r);
  void draw_table(const FitsResult& r);
  FitsRequest form_;
  std::optional<FitsRequest> request_;
  bool running_ = false;
  std::optional<FitsResult> result_;
  int table_device_ = 0;
};

}  // namespace ds::gui

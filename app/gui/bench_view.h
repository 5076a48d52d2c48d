// Bench window: runs the transfer sweep of `devicescope bench` on a thread of its own (its own Runtime
// from the app's backend options, never the UI thread), shows progress with Cancel, plots GB/s against
// size per route/memory/mode with the link's nominal rate, tables the points and the pinning cost, and
// overlays earlier runs and recorded bench JSON files for comparison.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backend/backend.h"
#include "gui/view_state/bench_model.h"
#include "gui/ui_state.h"

namespace ds::gui {

class BenchView {
 public:
  BenchView() = default;
  ~BenchView();  // cancels and joins a running sweep
  BenchView(const BenchView&) = delete;
  BenchView& operator=(const BenchView&) = delete;

  void set_backend(const BackendOptions& backend) { backend_ = backend; }
  void set_sizes(const std::string& sizes) { sizes_ = sizes; }
  void draw(const Snapshot& snap, UiState& ui, Commands& cmds);
  void poll();  // picks up a finished sweep (called every frame, shown or not)

  // Starts the sweep with the options in the form; false (and error()) when they do not parse.
  bool start();
  void cancel() { cancel_.store(true); }
  void wait();                  // joins the running sweep (headless screenshots) and picks it up
  bool running() const { return worker_.joinable() && !finished_.load(); }

  // Adds a recorded file as an overlay; false (and error() says why) when it cannot be read.
  bool open_file(const std::string& path);
  // Writes the run shown in the tables (the latest by default); raises on I/O errors.
  void save_json(const std::string& path) const;
  void save_csv(const std::string& path) const;
  bool has_run() const { return table_run_ < runs_.size(); }

  const std::string& error() const { return error_; }
  const std::vector<BenchRun>& runs() const { return runs_; }
  const BenchPlotModel& plot() const { return plot_; }
  nlohmann::json view_model() const;

 private:
  void draw_controls(UiState& ui);
  void draw_runs();
  void draw_plot();
  void draw_points_table();
  void draw_pinning_table();
  void collect();  // after the join: the worker's result joins the runs, or its error is shown
  void add_run(BenchRun run);
  void rebuild() { dirty_ = true; }

  BackendOptions backend_;
  // The form.
  std::string sizes_ = "4KiB:256MiB:x4";
  bool route_on_[4] = {true, true, true, true};   // h2d d2h d2d p2p
  bool memory_on_[2] = {true, true};              // pinned pageable
  bool mode_on_[2] = {true, true};                // sync async
  int repeat_ = 5;
  // What the plot shows.
  bool show_route_[4] = {true, true, true, true};
  bool show_memory_[2] = {true, true};
  bool show_mode_[2] = {true, true};
  int color_mode_ = -1;  // -1 auto, 0 by series, 1 by run

  // The worker: progress is published through atomics and a small locked label.
  std::thread worker_;
  std::atomic<double> fraction_{0};
  std::atomic<bool> cancel_{false}, finished_{false};
  mutable std::mutex mutex_;
  std::string label_;
  std::unique_ptr<SweepResult> result_;   // set by the worker when it ends
  std::string worker_error_;
  bool last_cancelled_ = false;

  std::vector<BenchRun> runs_;
  int next_number_ = 1;
  size_t table_run_ = 0;  // the run the tables show
  BenchPlotModel plot_;
  bool dirty_ = true;
  std::string error_;
};

}  // namespace ds::gui

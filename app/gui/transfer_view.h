// Transfers window: a timeline (one lane per device and direction, zoom/pan, sub-pixel copies folded),
// a log-log bandwidth-vs-size plot with the link profile's curves, and a sortable table. Shows the live
// session or a recording opened from a file; SIMULATED when the timings are modelled.
#pragma once

#include <memory>
#include <vector>

#include "gui/view_state/bandwidth_model.h"
#include "gui/view_state/timeline_model.h"
#include "gui/view_state/transfer_models.h"
#include "gui/ui_state.h"
#include "render/quad_batch.h"

namespace ds::gui {

// Who a copy belongs to: its recorded owner, else "→ name" of the storage it made (or "← name" of its
// source) from the snapshot, e.g. `x_pinned = x.pin_memory()` is recorded before the name exists.
std::string transfer_owner(const Snapshot& snap, const TransferRecord& t);

class TransferView {
 public:
  void draw(const Snapshot& live, UiState& ui, Commands& cmds);

  // For the view-model JSON and tests.
  const TimelineModel& timeline() const { return timeline_; }
  size_t last_timeline_quads() const { return quads_.size(); }
  size_t last_folded() const { return folded_; }
  // A copy drawn on its own in the last frame: pixels from the left of the lanes (view-model JSON).
  struct DrawnCopy {
    uint64_t id = 0;
    float x0 = 0, x1 = 0;
    bool in_flight = false;
  };
  const std::vector<DrawnCopy>& last_drawn() const { return drawn_; }
  size_t last_host_reads() const { return host_reads_drawn_; }

 private:
  void rebuild(const Snapshot& snap, UiState& ui);
  void draw_timeline(const Snapshot& snap, UiState& ui);
  void draw_bandwidth(const Snapshot& snap, UiState& ui);
  void draw_table(const Snapshot& snap, UiState& ui);

  std::string source_path_;  // the file the models' picture came from ("" live): a new one fits the timeline
  uint64_t version_ = ~0ull;
  TimelineModel timeline_;
  BandwidthModel bandwidth_;
  std::vector<uint32_t> order_;
  TransferColumn order_column_ = TransferColumn::Count;
  bool order_ascending_ = true;
  std::vector<Quad> quads_;
  std::vector<TimelineItem> items_;
  std::unique_ptr<render::QuadBatch> batch_;
  size_t folded_ = 0;
  std::vector<DrawnCopy> drawn_;
  size_t host_reads_drawn_ = 0;
  uint64_t total_bytes_ = 0;   // header figures, summed once per picture
  bool any_simulated_ = false;
  bool series_on_[size_t(Series::Count)] = {true, true, true, true, true, true};
};

}  // namespace ds::gui

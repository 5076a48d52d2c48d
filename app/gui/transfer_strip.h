// Presenter mode's Transfers strip: the newest host/device copies, one readable row each (route, size,
// time, rate, what kind of copy), a bar behind each row as long as its duration on one scale. The full
// Transfers view (timeline, bandwidth, table) is too dense for a projector; lessons 015, 016 and 018 need
// their evidence on screen all the same.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "gui/layout.h"
#include "gui/view_state/transfer_strip_model.h"
#include "trace/snapshot.h"

namespace ds::gui {

class TransferStrip {
 public:
  // Height the strip wants for `rows` copy rows (0: only its title line), at the current fonts.
  static float height_for(size_t rows);
  static constexpr size_t kMaxRows = 4;
  void draw(const Snapshot& snap, const WindowRect& where);
  // {"rows": [...], "total", "earlier", "clipped"} for the screenshot's view model.
  void write_view_model(nlohmann::json& j) const;

 private:
  TransferStripModel model_;
  const Snapshot* last_ = nullptr;
  size_t last_count_ = ~size_t(0);
  uint64_t last_last_id_ = 0;
  bool last_last_complete_ = false;
  size_t shown_ = 0;
  bool clipped_ = false;  // a route, size, time or rate did not fit
  bool drawn_ = false;
};

}  // namespace ds::gui

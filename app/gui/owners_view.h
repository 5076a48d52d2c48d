// The file view's table of owners (issue 24 item 7): sortable by bytes, blocks, first and last seen;
// hovering a row outlines its blocks in the memory panes.
#pragma once

#include "gui/ui_state.h"
#include "gui/view_state/owner_rows.h"

namespace ds::gui {

class OwnersView {
 public:
  void draw(const Snapshot& snap, UiState& ui);
  size_t rows() const { return rows_.size(); }

 private:
  std::vector<OwnerRow> rows_;
  uint64_t version_ = ~0ull;
  OwnerColumn column_ = OwnerColumn::Bytes;
  bool ascending_ = false;
  int narrow_ = -1;  // the width class last applied to the first/last-seen columns (-1: none yet)
};

}  // namespace ds::gui

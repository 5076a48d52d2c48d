// TransferModels::build: the three things the Transfers view needs, from one snapshot.
#include "gui/view_state/transfer_models.h"

#include "backend/link_profile.h"

namespace ds::gui {

void TransferModels::build(const Snapshot& snap) {
  source = &snap;
  timeline.build(snap);
  const LinkProfile* profile = nullptr;
  try {
    if (!snap.link.empty()) profile = &find_link_profile(snap.link);
  } catch (const std::exception&) {
    profile = nullptr;  // a recording from a link this build does not know: no modelled curve
  }
  bandwidth.build(snap, profile);
  total_bytes = 0;
  any_simulated = false;
  for (const TransferRecord& t : snap.transfers) {
    total_bytes += t.bytes;
    any_simulated = any_simulated || t.simulated;
  }
}

}  // namespace ds::gui

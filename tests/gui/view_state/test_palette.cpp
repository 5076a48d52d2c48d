// One palette (issue 24 item 8): a copy has the same hue in the timeline (transfer_color, per lane) and in
// the table and bandwidth plot (series_color), for every route; roles keep hues of their own.
#include <gtest/gtest.h>

#include <set>

#include "gui/view_state/bandwidth_model.h"
#include "gui/view_state/palette.h"

namespace ds::gui {
namespace {

TEST(Palette, EveryRouteHasOneHueInEveryView) {
  const Place places[] = {Place::pageable(), Place::pinned(), Place::cuda(0), Place::cuda(1)};
  for (Place src : places)
    for (Place dst : places) {
      TransferRecord t;
      t.src = src;
      t.dst = dst;
      EXPECT_EQ(series_color(transfer_series(t)), transfer_color(src, dst)) << src.str() << " -> " << dst.str();
    }
  // Pageable H2D is violet in both (it was dark blue on the timeline and violet in the table).
  EXPECT_EQ(color_hex(transfer_color(Place::pageable(), Place::cuda(0))), "#c77dff");
}

TEST(Palette, RolesHaveDistinctHues) {
  std::set<uint32_t> seen;
  for (Role r : kAllRoles) EXPECT_TRUE(seen.insert(role_color(r)).second) << role_label(r);
}

}  // namespace
}  // namespace ds::gui

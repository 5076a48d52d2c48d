// A windowed recording (Note [Bounded event log]) opened in the app says so: its snapshot carries the
// dropped counts and the note the Transfers view shows beside WINDOWED; a whole recording carries none.
#include <gtest/gtest.h>

#include "session/recording_session.h"

namespace ds::gui {
namespace {

TEST(RecordingWindow, WindowedRecordingCarriesItsNote) {
  TraceMeta meta{"sim", true, "pcie4-x16", "0.1.0", "m"};
  meta.events_dropped = 1200;
  meta.transfers_dropped = 3;
  const auto s = recording_snapshot("/tmp/r.json", meta, {});
  EXPECT_EQ(s->source.path, "/tmp/r.json");  // the window says what it shows
  EXPECT_EQ(s->source.version, "0.1.0");
  EXPECT_EQ(s->events_dropped, 1200u);
  EXPECT_EQ(s->transfers_dropped, 3u);
  EXPECT_EQ(s->window_note,
            "windowed recording: the run's first 1200 events and 3 transfers were dropped before it was written");
}

TEST(RecordingWindow, WholeRecordingSaysNothing) {
  const auto s = recording_snapshot("r.csv", TraceMeta{"sim", true, "pcie4-x16", "0.1.0", "m"}, {});
  EXPECT_EQ(s->window_note, "");
  EXPECT_EQ(s->transfers_dropped, 0u);
}

}  // namespace
}  // namespace ds::gui

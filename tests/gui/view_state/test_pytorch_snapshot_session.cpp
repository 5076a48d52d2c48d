// PyTorchSnapshotSession (issue 16: an opened PyTorch memory snapshot is one more kind of session): the
// pickle is read on the session's thread; its picture is the allocator's state (a pane per device, segments
// with their blocks, every live block a storage named by its owner frame); Seek jobs move the picture to a
// moment of the trace; the memory timelines come with it. open_file_session picks the kind by content.
#include <gtest/gtest.h>

#include "../../unit/snapshot/snapshot_fixtures.h"
#include "session/pytorch_snapshot_session.h"
#include "session/recording_session.h"

namespace ds::gui {
namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

RunOutcome finish(Session& s) {
  s.wait_idle();
  std::deque<FinishedJob> done = s.take_finished();
  EXPECT_EQ(done.size(), 1u);
  return done.empty() ? RunOutcome{} : done.back().outcome;
}

const PlaceInfo* place(const Snapshot& s, const std::string& label) {
  for (const PlaceInfo& p : s.places)
    if (p.label == label) return &p;
  return nullptr;
}

TEST(PyTorchSnapshotSession, OpensAsThePanesOfEachDevice) {
  const std::string path = snapshot_test::fixture("v2_small.pickle");
  std::unique_ptr<FileSession> s = open_file_session(path);
  ASSERT_NE(dynamic_cast<PyTorchSnapshotSession*>(s.get()), nullptr);  // by content, not by name
  EXPECT_STREQ(s->kind(), "PyTorch memory snapshot");
  const RunOutcome r = finish(*s);
  ASSERT_TRUE(r.ok) << r.error_message;
  const std::shared_ptr<const Snapshot> pic = s->snapshot();
  EXPECT_EQ(pic->source.path, path);
  ASSERT_NE(place(*pic, "cuda:0"), nullptr);
  EXPECT_EQ(place(*pic, "cuda:0")->allocated, 12 * MiB + 512 * KiB);
  EXPECT_EQ(place(*pic, "cuda:0")->reserved, 22 * MiB);
  ASSERT_NE(place(*pic, "cuda:1"), nullptr);
  size_t live = 0, owned_by_forward = 0;
  for (const StorageInfo& st : pic->storages) {
    ++live;
    owned_by_forward += st.owner == "/home/u/model.py:17 forward";
  }
  EXPECT_EQ(owned_by_forward, 2u);
  EXPECT_GE(live, 3u);
  // Every segment is covered by its blocks, live ones naming their storage.
  for (const SegmentInfo& seg : pic->segments) {
    uint64_t at = seg.address;
    for (const BlockInfo& b : seg.blocks) {
      EXPECT_EQ(b.address, at);
      EXPECT_EQ(b.allocated, b.storage_id != 0);
      at += b.size;
    }
    EXPECT_EQ(at, seg.address + seg.size);
  }
  ASSERT_NE(s->memory_timelines(), nullptr);
  EXPECT_EQ(s->memory_timelines()->size(), 2u);
}

TEST(PyTorchSnapshotSession, SeekShowsTheAllocatorAtThatMoment) {
  std::unique_ptr<FileSession> s = open_file_session(snapshot_test::fixture("v2_small.pickle"));
  ASSERT_TRUE(finish(*s).ok);
  Job seek;
  seek.kind = JobKind::Seek;
  seek.line = "t:1007";  // device 0's peak (inspect: peak_allocated_at time_us 1007)
  ASSERT_TRUE(s->submit(seek));
  ASSERT_TRUE(finish(*s).ok);
  EXPECT_EQ(place(*s->snapshot(), "cuda:0")->allocated, 44 * MiB + 512 * KiB);
  seek.line = "e:0";  // before the trace's first entry
  ASSERT_TRUE(s->submit(seek));
  ASSERT_TRUE(finish(*s).ok);
  const uint64_t at_start = place(*s->snapshot(), "cuda:0")->allocated;
  EXPECT_NE(at_start, 44 * MiB + 512 * KiB);
  seek.line = "";  // back to the snapshot's own moment
  ASSERT_TRUE(s->submit(seek));
  ASSERT_TRUE(finish(*s).ok);
  EXPECT_EQ(place(*s->snapshot(), "cuda:0")->allocated, 12 * MiB + 512 * KiB);
  // "B|A": the picture at B and, as the outcome's JSON, what changed since A by owner.
  seek.line = "t:1007|e:0";
  ASSERT_TRUE(s->submit(seek));
  const RunOutcome compared = finish(*s);
  ASSERT_TRUE(compared.ok);
  EXPECT_EQ(place(*s->snapshot(), "cuda:0")->allocated, 44 * MiB + 512 * KiB);
  ASSERT_FALSE(compared.result_json.empty());
  EXPECT_NE(compared.result_json.find("\"freed_bytes\":0"), std::string::npos) << compared.result_json;
  EXPECT_NE(compared.result_json.find("/home/u/model.py:17 forward"), std::string::npos) << compared.result_json;
  seek.line = "yesterday";
  ASSERT_TRUE(s->submit(seek));
  const RunOutcome bad = finish(*s);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.error_type, "ValueError");
}

TEST(PyTorchSnapshotSession, AHostilePickleIsRefusedWithTheReadersMessage) {
  std::unique_ptr<FileSession> s = open_file_session(snapshot_test::fixture("hostile_reduce.pickle"));
  const RunOutcome r = finish(*s);
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.error_message.empty());
  EXPECT_TRUE(s->snapshot()->storages.empty());
}

TEST(PyTorchSnapshotSession, TheOldListFormOpensWithoutATimeline) {
  std::unique_ptr<FileSession> s = open_file_session(snapshot_test::fixture("v1_list.pickle"));
  ASSERT_TRUE(finish(*s).ok);
  EXPECT_FALSE(s->snapshot()->segments.empty());
  ASSERT_NE(s->memory_timelines(), nullptr);
  EXPECT_TRUE(s->memory_timelines()->empty());  // 1.x files have no trace
}

}  // namespace
}  // namespace ds::gui

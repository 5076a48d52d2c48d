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
  // The 4 MiB block awaiting free is not allocated (PyTorch's memory_allocated leaves it out).
  EXPECT_EQ(place(*pic, "cuda:0")->allocated, 8 * MiB + 512 * KiB);
  EXPECT_EQ(place(*pic, "cuda:0")->reserved, 22 * MiB);
  // A PyTorch file: real CUDA, whose device size the snapshot does not record.
  EXPECT_EQ(pic->backend, "cuda");
  EXPECT_FALSE(pic->simulated);
  EXPECT_TRUE(place(*pic, "cuda:0")->capacity_unknown);
  EXPECT_FALSE(place(*pic, "cuda:0")->simulated);
  ASSERT_NE(place(*pic, "cuda:1"), nullptr);
  size_t live = 0, owned_by_forward = 0;
  for (const StorageInfo& st : pic->storages) {
    ++live;
    owned_by_forward += st.owner == "/home/u/model.py:17 forward";
  }
  EXPECT_EQ(owned_by_forward, 2u);
  EXPECT_EQ(live, 3u) << "two on cuda:0 (the block awaiting free is no storage), one on cuda:1";
  // Every segment is covered by its blocks, live ones naming their storage; the one awaiting free occupies its
  // place with no storage.
  size_t occupied_without_storage = 0;
  for (const SegmentInfo& seg : pic->segments) {
    uint64_t at = seg.address;
    for (const BlockInfo& b : seg.blocks) {
      EXPECT_EQ(b.address, at);
      if (b.storage_id) EXPECT_TRUE(b.allocated);
      occupied_without_storage += b.allocated && !b.storage_id;
      at += b.size;
    }
    EXPECT_EQ(at, seg.address + seg.size);
  }
  EXPECT_EQ(occupied_without_storage, 1u);
  // The Names view lists the owners: a Name node per owner, an edge to each storage it names.
  size_t names = 0;
  for (const ObjectNode& n : pic->objects.nodes) names += n.kind == ObjectKind::Name;
  EXPECT_EQ(names, 2u);
  EXPECT_EQ(pic->objects.edges.size(), 3u);
  EXPECT_EQ(pic->objects.holders.size(), 3u);
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
  EXPECT_EQ(place(*s->snapshot(), "cuda:0")->allocated, 8 * MiB + 512 * KiB);
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
  // One numbering with inspect and diff: e:8 is device 0's peak; e:-1 and past the trace are refused.
  seek.line = "e:8";
  ASSERT_TRUE(s->submit(seek));
  ASSERT_TRUE(finish(*s).ok);
  EXPECT_EQ(place(*s->snapshot(), "cuda:0")->allocated, 44 * MiB + 512 * KiB);
  for (const char* line : {"e:-1", "e:99999"}) {
    seek.line = line;
    ASSERT_TRUE(s->submit(seek));
    const RunOutcome refused = finish(*s);
    EXPECT_FALSE(refused.ok) << line;
    EXPECT_EQ(refused.error_type, "ValueError") << line;
  }
}

// Later 2.x files: the pinned pane from host_segments, the C++-only stack named for what it is, a block's
// size (not the request) in the figures.
TEST(PyTorchSnapshotSession, NewerFilesShowPinnedHostMemoryAndCppOnlyOwners) {
  std::unique_ptr<FileSession> s = open_file_session(snapshot_test::fixture("v2_newer.pickle"));
  ASSERT_TRUE(finish(*s).ok);
  const std::shared_ptr<const Snapshot> pic = s->snapshot();
  const PlaceInfo* pinned = place(*pic, "host (pinned)");
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(pinned->allocated, 1 * MiB);
  EXPECT_EQ(pinned->reserved, 4 * MiB);
  EXPECT_FALSE(pinned->capacity_unknown);
  bool host_segment = false, cpp_only = false;
  for (const SegmentInfo& seg : pic->segments) host_segment = host_segment || seg.device == -1;
  for (const StorageInfo& st : pic->storages) cpp_only = cpp_only || st.owner == "<C++ only: autograd engine (backward)>";
  EXPECT_TRUE(host_segment);
  EXPECT_TRUE(cpp_only);
  EXPECT_EQ(place(*pic, "cuda:0")->allocated, 2 * MiB + 1024);
  ASSERT_NE(s->memory_timelines(), nullptr);
  ASSERT_EQ(s->memory_timelines()->size(), 1u);
  EXPECT_EQ(s->memory_timelines()->front().peak, 12 * MiB + 1024) << "block sizes, as max_memory_allocated counts";
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

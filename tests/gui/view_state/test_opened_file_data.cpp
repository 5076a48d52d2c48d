// What an opened file's session publishes for the views (issue 22, "opened files in the app"): a recording's
// storage roles from its "devicescopeRecorder" object, its owners as names for the Names view, and honest labels
// for a snapshot DeviceScope's simulator wrote (simulated, capacity unknown - never "real CUDA, capacity 0").
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "session/pytorch_snapshot_session.h"
#include "session/recording_session.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_roles.h"

namespace ds::gui {
namespace {

Event alloc(uint64_t seq, uint64_t storage, uint64_t bytes, const std::string& label) {
  Event e;
  e.seq = seq;
  e.kind = EventKind::Alloc;
  e.time_ns = seq * 100;
  e.place = Place::cuda(0);
  e.storage_id = storage;
  e.bytes = bytes;
  e.label = label;
  e.allocated_after = bytes * seq;
  e.reserved_after = 2 << 20;
  return e;
}

TEST(OpenedRecording, RolesFromTheRecorderAndOwnersAsNames) {
  std::deque<Event> events = {alloc(1, 11, 4096, "model.fc.weight"), alloc(2, 12, 64, "model.fc.bias"),
                              alloc(3, 13, 512, "")};
  std::ostringstream trace;
  write_chrome_trace(events, {}, TraceMeta{"sim", true, "pcie4-x16", "0.1.0", "m"}, trace);
  std::string text = trace.str();
  // What `devicescope record` adds (engine/recorder/devicescope_recorder/trace_writer.py).
  text.insert(text.find('{') + 1, "\"devicescopeRecorder\":{\"storage_roles\":{\"11\":\"parameter\",\"12\":\"parameter\","
                                  "\"13\":\"optimizer_state\"},\"transfer_lines\":{}},\n");
  const std::filesystem::path path = std::filesystem::temp_directory_path() / ("ds_opened_" + std::to_string(getpid()) + ".json");
  std::ofstream(path) << text;
  RecordingSession s(path.string());
  s.wait_idle();
  std::deque<FinishedJob> done = s.take_finished();
  ASSERT_EQ(done.size(), 1u);
  ASSERT_TRUE(done.front().outcome.ok) << done.front().outcome.error_message;
  const std::shared_ptr<const Snapshot> pic = s.snapshot();
  std::map<uint64_t, Role> roles;
  for (const StorageInfo& st : pic->storages) roles[st.id] = st.role;
  EXPECT_EQ(roles[11], Role::Parameter);
  EXPECT_EQ(roles[12], Role::Parameter);
  EXPECT_EQ(roles[13], Role::OptimizerState) << "the Python spelling is read too";
  std::vector<std::string> names;
  for (const ObjectNode& n : pic->objects.nodes)
    if (n.kind == ObjectKind::Name) names.push_back(n.label);
  EXPECT_EQ(names, (std::vector<std::string>{"model.fc.bias", "model.fc.weight"})) << "the unnamed storage has no name";
  ASSERT_EQ(pic->objects.holders.size(), 2u);
  std::filesystem::remove(path);
}

// `devicescope run --trace` and the app's exports write the roles themselves (export_storage_roles): a storage
// freed before the export keeps the role its Free event carries, a live one the role it has at the export.
TEST(OpenedRecording, RolesAnExportWroteReadBack) {
  Event freed_grad = alloc(3, 13, 512, "model.fc.weight.grad");
  freed_grad.kind = EventKind::Free;
  freed_grad.role = Role::Gradient;
  std::deque<Event> events = {alloc(1, 11, 4096, "model.fc.weight"), alloc(2, 13, 512, "model.fc.weight.grad"),
                              freed_grad, alloc(4, 14, 512, "x")};
  const StorageRoles roles = export_storage_roles(events, {{11, Role::Parameter}, {14, Role::Tensor}});
  EXPECT_EQ(roles, (StorageRoles{{11, Role::Parameter}, {13, Role::Gradient}})) << "tensors are left out";
  std::ostringstream trace;
  write_chrome_trace(events, {}, TraceMeta{"sim", true, "pcie4-x16", "0.1.0", "m"}, trace, roles);
  const std::filesystem::path path = std::filesystem::temp_directory_path() / ("ds_exported_" + std::to_string(getpid()) + ".json");
  std::ofstream(path) << trace.str();
  RecordingSession s(path.string());
  s.wait_idle();
  std::deque<FinishedJob> done = s.take_finished();
  ASSERT_EQ(done.size(), 1u);
  ASSERT_TRUE(done.front().outcome.ok) << done.front().outcome.error_message;
  std::map<uint64_t, Role> shown;
  for (const StorageInfo& st : s.snapshot()->storages) shown[st.id] = st.role;
  // The file's end: the freed gradient is not shown, the parameter is coloured as one.
  EXPECT_EQ(shown, (std::map<uint64_t, Role>{{11, Role::Parameter}, {14, Role::Tensor}}));
  std::filesystem::remove(path);
}

TEST(OpenedRecording, NoRecorderObjectMeansNoRoles) {
  EXPECT_TRUE(recorded_storage_roles("").empty());
  EXPECT_TRUE(recorded_storage_roles("{\"storage_roles\": [1, 2]}").empty());
  EXPECT_TRUE(recorded_storage_roles("not json").empty());
  const auto roles = recorded_storage_roles("{\"storage_roles\": {\"5\": \"buffer\", \"x\": \"parameter\", \"6\": \"no-such-role\"}}");
  ASSERT_EQ(roles.size(), 1u);
  EXPECT_EQ(roles.at(5), Role::Buffer);
}

// A snapshot DeviceScope's simulator wrote ends each segment's stack with {"<devicescope backend>", 0,
// "simulated CUDA"}: the picture says simulated; a device's capacity is unknown either way.
TEST(OpenedSnapshot, DeviceScopesSimulatedDumpIsLabelledSimulated) {
  snapshot::MemorySnapshot s;
  for (const char* text : {"<devicescope backend>", "simulated CUDA"}) s.strings.push_back(text);
  s.frames.push_back({1, 2, 0});
  s.stack_frames.push_back(0);
  s.stack_begin.push_back(1);
  snapshot::SnapshotSegment seg;
  seg.total_size = 2 << 20;
  seg.stack = 1;
  seg.blocks.push_back({0, 512, 100, snapshot::BlockState::ActiveAllocated, 0});
  s.segments.push_back(seg);
  std::shared_ptr<Snapshot> pic = snapshot_picture(s, "x.pickle", {}, 0);
  EXPECT_EQ(pic->backend, "sim");
  EXPECT_TRUE(pic->simulated);
  ASSERT_EQ(pic->places.size(), 1u);
  EXPECT_TRUE(pic->places[0].simulated);
  EXPECT_TRUE(pic->places[0].capacity_unknown);
  EXPECT_NE(pic->source.version.find("written by DeviceScope (simulated CUDA)"), std::string::npos) << pic->source.version;
  s.strings[2] = "CUDA";  // DeviceScope on a real GPU
  pic = snapshot_picture(s, "x.pickle", {}, 0);
  EXPECT_EQ(pic->backend, "cuda");
  EXPECT_FALSE(pic->simulated);
}

}  // namespace
}  // namespace ds::gui

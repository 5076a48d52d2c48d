// The preview runner (FakeSession): placement rules over the real engine, errors, stepping, interrupt.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "gui/model/fake_session.h"

namespace ds::gui {
namespace {

BackendOptions sim2() {
  BackendOptions o;
  o.backend = "sim";
  o.sim_devices = 2;
  o.sim_memory = 16ull << 30;
  return o;
}

const StorageInfo* owned(const Snapshot& s, const std::string& owner) {
  for (const StorageInfo& st : s.storages)
    if (st.owner == owner) return &st;
  return nullptr;
}

int count_on(const Snapshot& s, Place p) {
  int n = 0;
  for (const StorageInfo& st : s.storages) n += st.place == p;
  return n;
}

std::string read_asset(const char* name) {
  std::ifstream in(std::string(DEVICESCOPE_ASSET_DIR) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(FakeSession, ModuleToMovesParametersAndBuffersButNotPlainAttributes) {
  FakeSession s(sim2());
  s.set_script(
      "import torch\nimport torch.nn as nn\nm = nn.Linear(4, 2)\nm.register_buffer('b', torch.zeros(3))\n"
      "m.t = torch.zeros(5)\nw = m.weight\nm.to('cuda:0')\nprint(w.device, m.t.device, m.b.device)\n");
  RunOutcome r = s.run_script();
  ASSERT_TRUE(r.ok) << r.traceback;
  EXPECT_EQ(r.output, "cuda:0 cpu cuda:0\n");
  auto snap = s.snapshot();
  ASSERT_NE(owned(*snap, "m.weight"), nullptr);
  EXPECT_EQ(owned(*snap, "m.weight")->place, Place::cuda(0));
  EXPECT_EQ(owned(*snap, "m.weight")->role, Role::Parameter);
  EXPECT_EQ(owned(*snap, "m.b")->role, Role::Buffer);
  EXPECT_EQ(owned(*snap, "m.t")->role, Role::PlainAttribute);
  EXPECT_EQ(owned(*snap, "m.t")->place, Place::pageable());
  EXPECT_NE(owned(*snap, "m.weight")->moved_from, 0u);
  // weight, bias and the buffer were copied H2D, recorded with their owners.
  ASSERT_EQ(snap->transfers.size(), 3u);
  EXPECT_EQ(snap->transfers[0].owner, "m.weight");
  // The module tree flags the plain attribute as a straggler.
  int stragglers = 0;
  for (const ModuleEntry& e : snap->objects.modules) stragglers += e.straggler;
  EXPECT_EQ(stragglers, 1);
}

TEST(FakeSession, TensorToReturnsSelfWhenNothingChangesAndNonBlockingD2HIsPinned) {
  FakeSession s(sim2());
  s.set_script(
      "import torch\nx = torch.ones(8)\ny = x.to('cpu')\nprint(x is y)\ng = x.cuda()\nh = g.to('cpu', non_blocking=True)\n"
      "print(h.is_pinned(), g.device)\n");
  RunOutcome r = s.run_script();
  ASSERT_TRUE(r.ok) << r.traceback;
  EXPECT_EQ(r.output, "True\nTrue cuda:0\n");
  EXPECT_EQ(count_on(*s.snapshot(), Place::pinned()), 1);
}

TEST(FakeSession, MixedDeviceErrorNamesTheLineAndArgument) {
  FakeSession s(sim2());
  s.set_script("import torch\nimport torch.nn as nn\nm = nn.Linear(4, 2).cuda()\nx = torch.randn(3, 4)\ny = m(x)\n");
  RunOutcome r = s.run_script();
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error_type, "RuntimeError");
  EXPECT_EQ(r.error_message,
            "Expected all tensors to be on the same device, but got mat1 is on cpu, different from other tensors on cuda:0 "
            "(when checking argument in method wrapper_CUDA_addmm)");
  EXPECT_EQ(r.error_line, 5);
  EXPECT_EQ(s.current_statement_line(), 5);
  EXPECT_NE(r.traceback.find("line 5, in <module>\n    y = m(x)\n"), std::string::npos) << r.traceback;
}

TEST(FakeSession, StepAndStepBackWalkTheStatements) {
  FakeSession s(sim2());
  s.set_script("import torch\na = torch.zeros(4, device='cuda:0')\nb = torch.zeros(4, device='cuda:1')\n");
  EXPECT_EQ(s.current_statement_line(), 1);
  ASSERT_TRUE(s.step().ok);
  ASSERT_TRUE(s.step().ok);
  ASSERT_TRUE(s.step().ok);
  EXPECT_EQ(s.current_statement_line(), 0);
  EXPECT_EQ(count_on(*s.snapshot(), Place::cuda(1)), 1);
  const uint64_t v = s.version();
  s.step_back();
  EXPECT_GT(s.version(), v);
  EXPECT_EQ(s.current_statement_line(), 3);
  EXPECT_EQ(count_on(*s.snapshot(), Place::cuda(1)), 0);
  EXPECT_EQ(count_on(*s.snapshot(), Place::cuda(0)), 1);
  // Appending a line that the Builder already ran keeps the state and moves the cursor past it.
  ASSERT_TRUE(s.step().ok);
  ASSERT_TRUE(s.run_line("c = torch.ones(2)").ok);
  s.set_script("import torch\na = torch.zeros(4, device='cuda:0')\nb = torch.zeros(4, device='cuda:1')\nc = torch.ones(2)\n", true);
  EXPECT_EQ(s.statements_done(), 4);
  EXPECT_EQ(count_on(*s.snapshot(), Place::cuda(1)), 1);
}

TEST(FakeSession, InterruptStopsARunawayLoopQuickly) {
  FakeSession s(sim2());
  s.set_script("while True:\n    pass\n");
  RunOutcome r;
  std::thread worker([&] { r = s.run_script(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto t0 = std::chrono::steady_clock::now();
  s.interrupt();
  worker.join();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.error_type, "KeyboardInterrupt");
  EXPECT_LT(ms, 500.0);
}

TEST(FakeSession, StarterScriptRuns) {
  FakeSession s(sim2());
  s.set_script(read_asset("starter.py"));
  RunOutcome r = s.run_script();
  ASSERT_TRUE(r.ok) << r.traceback;
  EXPECT_EQ(r.output, "cuda:0 cpu\ntorch.Size([64, 10]) cuda:0\nTrue\n");
  auto snap = s.snapshot();
  EXPECT_EQ(owned(*snap, "model.scale")->place, Place::pageable());
  EXPECT_EQ(owned(*snap, "model.0.weight")->place, Place::cuda(0));
  EXPECT_EQ(count_on(*snap, Place::cuda(1)), 1);
  EXPECT_GE(count_on(*snap, Place::pinned()), 2);  // x_pinned and back
}

TEST(FakeSession, SyntaxAndNameErrors) {
  FakeSession s(sim2());
  RunOutcome r = s.run_line("y = undefined_name + 1");
  EXPECT_EQ(r.error_type, "NameError");
  EXPECT_EQ(r.error_message, "name 'undefined_name' is not defined");
  r = s.run_line("x = (1, ");
  EXPECT_EQ(r.error_type, "SyntaxError");
}

}  // namespace
}  // namespace ds::gui

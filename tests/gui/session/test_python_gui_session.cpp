// The app's code runner (PythonGuiSession, real CPython over the engine) through the Session interface the
// views use: placement rules, errors with their script line, stepping, Builder appends, interrupt.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "session/python_gui_session.h"

namespace ds::gui {
namespace {

// One interpreter per process (CPython cannot be re-initialised with numpy loaded): every test shares one
// session, never destroyed, and starts from reset() with an empty script, as the app's Reset does.
PythonGuiSession& fresh_session() {
  static PythonGuiSession* s = [] {
    RuntimeOptions o;
    o.backend.backend = "sim";
    o.backend.sim_devices = 2;
    o.backend.sim_memory = 16ull << 30;
    return new PythonGuiSession(o);
  }();
  s->set_script("");
  s->reset();
  return *s;
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

TEST(PythonGuiSession, ModuleToMovesParametersAndBuffersButNotPlainAttributes) {
  PythonGuiSession& s = fresh_session();
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

TEST(PythonGuiSession, TensorToReturnsSelfWhenNothingChangesAndNonBlockingD2HIsPinned) {
  PythonGuiSession& s = fresh_session();
  s.set_script(
      "import torch\nx = torch.ones(8)\ny = x.to('cpu')\nprint(x is y)\ng = x.cuda()\nh = g.to('cpu', non_blocking=True)\n"
      "print(h.is_pinned(), g.device)\n");
  RunOutcome r = s.run_script();
  ASSERT_TRUE(r.ok) << r.traceback;
  EXPECT_EQ(r.output, "True\nTrue cuda:0\n");
  auto snap = s.snapshot();
  EXPECT_EQ(count_on(*snap, Place::pinned()), 1);
  for (const StorageInfo& st : snap->storages)  // the non_blocking D2H's pinned landing buffer
    if (st.place == Place::pinned()) EXPECT_EQ(st.role, Role::PinnedStaging) << st.owner;
}

TEST(PythonGuiSession, MixedDeviceErrorNamesTheLineAndArgument) {
  PythonGuiSession& s = fresh_session();
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

TEST(PythonGuiSession, StepAndStepBackWalkTheStatements) {
  PythonGuiSession& s = fresh_session();
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

TEST(PythonGuiSession, AFailedStepIsFixedInPlaceWithTheStateBeforeItKept) {
  PythonGuiSession& s = fresh_session();
  s.set_script("import torch\na = torch.zeros(4, device='cuda:0')\nb = a.view(3)\n");
  ASSERT_TRUE(s.step().ok);
  ASSERT_TRUE(s.step().ok);
  RunOutcome r = s.step();
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error_line, 3);
  EXPECT_EQ(s.current_statement_line(), 3);  // the failing statement is still the next one
  // The user fixes line 3: the statements already run are unchanged, so `a` (on cuda:0) is kept.
  s.set_script("import torch\na = torch.zeros(4, device='cuda:0')\nb = a.view(2, 2)\n");
  EXPECT_EQ(s.statements_done(), 2);
  ASSERT_TRUE(s.step().ok);
  EXPECT_EQ(s.current_statement_line(), 0);
  EXPECT_EQ(count_on(*s.snapshot(), Place::cuda(0)), 1);  // a and its view b share one storage
}

TEST(PythonGuiSession, InterruptStopsARunawayLoopQuickly) {
  PythonGuiSession& s = fresh_session();
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

TEST(PythonGuiSession, StarterScriptRuns) {
  PythonGuiSession& s = fresh_session();
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

TEST(PythonGuiSession, SyntaxAndNameErrors) {
  PythonGuiSession& s = fresh_session();
  RunOutcome r = s.run_line("y = undefined_name + 1");
  EXPECT_EQ(r.error_type, "NameError");
  EXPECT_EQ(r.error_message, "name 'undefined_name' is not defined");
  r = s.run_line("x = (1, ");
  EXPECT_EQ(r.error_type, "SyntaxError");
}

}  // namespace
}  // namespace ds::gui

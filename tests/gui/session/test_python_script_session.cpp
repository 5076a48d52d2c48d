// The app's code session (PythonScriptSession, real CPython over the engine) driven as the app drives it,
// by jobs: placement rules, errors with their script line, stepping, Builder appends, interrupt, and the
// lesson player's typed calls.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "session/python_script_session.h"

namespace ds::gui {
namespace {

// The app's side of the session: a job submitted, waited for and its outcome taken (App does the same
// without waiting); the editor's script rides along with the script jobs.
class Driver {
 public:
  explicit Driver(Session& s) : s_(s) {}
  RunOutcome job(Job j) {
    EXPECT_TRUE(s_.submit(std::move(j)));
    s_.wait_idle();
    std::deque<FinishedJob> done = s_.take_finished();
    EXPECT_EQ(done.size(), 1u);
    return done.empty() ? RunOutcome{} : done.back().outcome;
  }
  RunOutcome job(JobKind kind, const std::string& line = "") {
    Job j;
    j.kind = kind;
    j.line = line;
    if (kind == JobKind::RunScript || kind == JobKind::Step || kind == JobKind::StepBack) j.script = script_;
    return job(std::move(j));
  }
  void set_script(const std::string& code, bool appended_already_ran = false) {
    script_ = code;
    Job j;
    j.kind = JobKind::SetScript;
    j.script = code;
    j.appended_already_ran = appended_already_ran;
    job(std::move(j));
  }
  RunOutcome run_script() { return job(JobKind::RunScript); }
  RunOutcome step() { return job(JobKind::Step); }
  RunOutcome step_back() { return job(JobKind::StepBack); }
  RunOutcome run_line(const std::string& line) { return job(JobKind::RunLine, line); }
  RunOutcome call(const std::string& function, const std::string& kwargs_json) {
    Job j;
    j.kind = JobKind::Call;
    j.line = function;
    j.call_args = kwargs_json;
    return job(std::move(j));
  }
  int current_statement_line() const { return s_.status().current_line; }
  int statements_done() const { return s_.status().statements_done; }
  std::shared_ptr<const Snapshot> snapshot() const { return s_.snapshot(); }
  Session& session() { return s_; }

 private:
  Session& s_;
  std::string script_;
};

// One interpreter per process (CPython cannot be re-initialised with numpy loaded): every test shares one
// session, never destroyed, and starts from Reset with an empty script, as the app's Reset does.
Driver& fresh_session() {
  static Driver* d = [] {
    RuntimeOptions o;
    o.backend.backend = "sim";
    o.backend.sim_devices = 2;
    o.backend.sim_memory = 16ull << 30;
    return new Driver(*new PythonScriptSession(o));
  }();
  d->set_script("");
  d->job(JobKind::Reset);
  return *d;
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

TEST(PythonScriptSession, ModuleToMovesParametersAndBuffersButNotPlainAttributes) {
  Driver& s = fresh_session();
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

TEST(PythonScriptSession, TensorToReturnsSelfWhenNothingChangesAndNonBlockingD2HIsPinned) {
  Driver& s = fresh_session();
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

TEST(PythonScriptSession, MixedDeviceErrorNamesTheLineAndArgument) {
  Driver& s = fresh_session();
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

TEST(PythonScriptSession, StepAndStepBackWalkTheStatements) {
  Driver& s = fresh_session();
  s.set_script("import torch\na = torch.zeros(4, device='cuda:0')\nb = torch.zeros(4, device='cuda:1')\n");
  EXPECT_EQ(s.current_statement_line(), 1);
  ASSERT_TRUE(s.step().ok);
  ASSERT_TRUE(s.step().ok);
  ASSERT_TRUE(s.step().ok);
  EXPECT_EQ(s.current_statement_line(), 0);
  EXPECT_EQ(count_on(*s.snapshot(), Place::cuda(1)), 1);
  const std::shared_ptr<const Snapshot> before = s.snapshot();
  s.step_back();
  EXPECT_NE(s.snapshot(), before);  // a new picture for the UI to draw
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

TEST(PythonScriptSession, AFailedStepIsFixedInPlaceWithTheStateBeforeItKept) {
  Driver& s = fresh_session();
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

TEST(PythonScriptSession, InterruptStopsARunawayLoopQuickly) {
  Driver& s = fresh_session();
  s.set_script("while True:\n    pass\n");
  Job run;
  run.kind = JobKind::RunScript;
  run.script = "while True:\n    pass\n";
  ASSERT_TRUE(s.session().submit(run));  // returns at once: the loop runs on the session's thread
  EXPECT_TRUE(s.session().busy());
  EXPECT_FALSE(s.session().submit(run));  // one job at a time
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  s.session().interrupt();
  ASSERT_TRUE(s.session().wait_idle_for(60)) << "the interrupt did not stop the loop";  // a hang guard, not a speed bound
  const RunOutcome r = s.session().take_finished().front().outcome;
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.error_type, "KeyboardInterrupt");
}

// A Ctrl+C that comes the moment a Run starts (its reset, the gap between two statements: no code runs
// then) is kept for that Run and stops it before its next statement, instead of being lost while the endless
// statement then runs on (the app's window hung on such a script: hostile_gui_sigint).
TEST(PythonScriptSession, InterruptWhileARunIsStartingIsNotLost) {
  Driver& s = fresh_session();
  const std::string script = "x = 0\nwhile True:\n    x += 1\n";
  s.set_script(script);
  for (int attempt = 0; attempt < 20; ++attempt) {
    Job run;
    run.kind = JobKind::RunScript;
    run.script = script;
    ASSERT_TRUE(s.session().submit(run));
    s.session().interrupt();  // wherever the Run is now: its reset, `x = 0`, or between the statements
    EXPECT_TRUE(s.session().interrupt_requested() || !s.session().busy());
    ASSERT_TRUE(s.session().wait_idle_for(60)) << "attempt " << attempt << ": the interrupt was lost";  // a hang guard
    const RunOutcome r = s.session().take_finished().front().outcome;
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.error_type, "KeyboardInterrupt");
  }
  // Nothing is left over for the next job.
  EXPECT_TRUE(s.run_line("y = 1").ok);
}

// A script that catches the KeyboardInterrupt goes on to its next statements, as under python3: an interrupt
// that reached the code is not also applied at the statement boundary.
TEST(PythonScriptSession, ACaughtInterruptLetsTheScriptGoOn) {
  Driver& s = fresh_session();
  const std::string mark = ::testing::TempDir() + "ds_caught_interrupt_mark";
  std::remove(mark.c_str());
  const std::string script = "import os, time\ntry:\n    open(" + std::string("'") + mark + "', 'w').close()\n"
                             "    while True:\n        time.sleep(0.01)\nexcept KeyboardInterrupt:\n    caught = True\n"
                             "after = 'ran'\n";
  s.set_script(script);
  Job run;
  run.kind = JobKind::RunScript;
  run.script = script;
  ASSERT_TRUE(s.session().submit(run));
  while (!std::ifstream(mark)) std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the loop runs
  s.session().interrupt();
  ASSERT_TRUE(s.session().wait_idle_for(60)) << "the interrupt did not reach the loop";  // a hang guard
  const RunOutcome r = s.session().take_finished().front().outcome;
  EXPECT_TRUE(r.ok) << r.traceback;
  EXPECT_EQ(s.run_line("print(caught, after)").output, "True ran\n");
  std::remove(mark.c_str());
}

TEST(PythonScriptSession, StarterScriptRuns) {
  Driver& s = fresh_session();
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

// The lesson player's typed call (no console line built from strings): module.function(**kwargs) with the
// return value as JSON; a failure comes back as Python reports it, and the call binds no name in the
// script's globals (the names graph stays the script's).
TEST(PythonScriptSession, TypedCallReturnsJsonAndLeavesTheGlobalsAlone) {
  Driver& s = fresh_session();
  ASSERT_TRUE(s.run_line("import json\nkeep = 1").ok);
  const size_t nodes = s.snapshot()->objects.nodes.size();
  RunOutcome r = s.call("json.dumps", R"({"obj": {"a": [1, 2]}, "sort_keys": true})");
  ASSERT_TRUE(r.ok) << r.traceback;
  EXPECT_EQ(r.result_json, R"("{\"a\": [1, 2]}")");
  EXPECT_EQ(s.snapshot()->objects.nodes.size(), nodes);
  r = s.call("json.no_such_function", "{}");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_type, "AttributeError");
  EXPECT_EQ(r.error_message, "module 'json' has no attribute 'no_such_function'");
  r = s.call("no_such_module.f", "{}");
  EXPECT_EQ(r.error_type, "ModuleNotFoundError");
  r = s.call("json.dumps", R"({"obj": 1, "bogus_keyword": 2})");
  EXPECT_EQ(r.error_type, "TypeError");
  r = s.call("devicescope.lessons.list_lessons", "{}");
  ASSERT_TRUE(r.ok) << r.traceback;
  EXPECT_EQ(r.result_json.front(), '[');  // the lesson browser's list
  EXPECT_NE(r.result_json.find("\"title\""), std::string::npos);
}

// A traceback names the script's file, as `python3 FILE` does (the window passes the opened file's path).
TEST(PythonScriptSession, TracebacksNameTheScriptFile) {
  Driver& s = fresh_session();
  Job j;
  j.kind = JobKind::RunScript;
  j.script = "x = 1\nraise ValueError('boom')\n";
  j.script_name = "/home/me/train.py";
  RunOutcome r = s.job(j);
  EXPECT_EQ(r.error_type, "ValueError");
  EXPECT_NE(r.traceback.find("File \"/home/me/train.py\", line 2"), std::string::npos) << r.traceback;
  j.script_name.clear();  // an unsaved script keeps the old name
  j.script = "raise ValueError('again')\n";
  r = s.job(j);
  EXPECT_NE(r.traceback.find("File \"script.py\", line 1"), std::string::npos) << r.traceback;
}

TEST(PythonScriptSession, SyntaxAndNameErrors) {
  Driver& s = fresh_session();
  RunOutcome r = s.run_line("y = undefined_name + 1");
  EXPECT_EQ(r.error_type, "NameError");
  EXPECT_EQ(r.error_message, "name 'undefined_name' is not defined");
  r = s.run_line("x = (1, ");
  EXPECT_EQ(r.error_type, "SyntaxError");
}

}  // namespace
}  // namespace ds::gui

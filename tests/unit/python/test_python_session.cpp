// PythonSession: whole scripts, step mode (ast split, Step back replay), console lines, errors as Python
// prints them, sys.exit, interrupts from another thread, reset to a fresh runtime, output capture.
// One interpreter per process, so every test shares one session (reset between tests).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "python/python_session.h"

namespace ds::python {
namespace {

struct Captured {
  std::mutex mu;
  std::string out, err;
  void clear() {
    std::lock_guard lock(mu);
    out.clear();
    err.clear();
  }
};

Captured& captured() {
  static Captured c;
  return c;
}

PythonSession& session() {
  static PythonSession* s = [] {
    SessionOptions o;
    o.runtime.backend.backend = "sim";
    o.runtime.backend.sim_devices = 2;
    o.output = [](std::string_view text, bool is_err) {
      std::lock_guard lock(captured().mu);
      (is_err ? captured().err : captured().out) += text;
    };
    return new PythonSession(o);  // never destroyed: CPython cannot be re-initialised with numpy loaded
  }();
  return *s;
}

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session().reset();
    captured().clear();
  }
  std::string out() { return captured().out; }
  std::string err() { return captured().err; }
};

TEST_F(SessionTest, RunsWholeSourceAndCapturesStdout) {
  RunResult r = session().run_source("import torch\nx = torch.zeros(2, device='cuda')\nprint(x)\n", "/tmp/s.py");
  ASSERT_TRUE(r.ok()) << r.error.traceback;
  EXPECT_EQ(out(), "tensor([0., 0.], device='cuda:0')\n");
}

TEST_F(SessionTest, ErrorHasPythonTracebackWithUserFramesOnly) {
  RunResult r = session().run_source("import torch\n\nx = torch.zeros(2)\ny = x.to('cuda') + x\n", "/tmp/e.py");
  ASSERT_EQ(r.status, RunStatus::Error);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.error.type, "RuntimeError");
  EXPECT_EQ(r.error.message,
            "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
  EXPECT_EQ(r.error.line, 4);
  EXPECT_EQ(r.error.traceback,
            "Traceback (most recent call last):\n"
            "  File \"/tmp/e.py\", line 4, in <module>\n"
            "    y = x.to('cuda') + x\n"
            "        ~~~~~~~~~~~~~^~~\n"
            "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
            "and cpu!\n");
}

TEST_F(SessionTest, OutOfMemoryIsTorchCudaOutOfMemoryError) {
  RunResult r = session().run_source(
      "import torch\ntry:\n    torch.empty(17 * 2**30, dtype=torch.uint8, device='cuda', virtual=True)\n"
      "except RuntimeError as e:\n    print(type(e).__module__, type(e).__name__)\n", "/tmp/o.py");
  ASSERT_TRUE(r.ok()) << r.error.traceback;
  EXPECT_EQ(out(), "torch.cuda OutOfMemoryError\n");
}

TEST_F(SessionTest, SyntaxErrorPrintsLikePython) {
  RunResult r = session().run_source("x = (\nprint(1)\n", "/tmp/syn.py");
  ASSERT_EQ(r.status, RunStatus::Error);
  EXPECT_EQ(r.error.type, "SyntaxError");
  EXPECT_EQ(r.error.line, 1);
  EXPECT_EQ(r.error.traceback, "  File \"/tmp/syn.py\", line 1\n    x = (\n        ^\nSyntaxError: '(' was never closed\n");
}

TEST_F(SessionTest, SysExitStopsScriptWithItsCode) {
  RunResult r = session().run_source("import sys\nprint('a')\nsys.exit(3)\nprint('b')\n", "/tmp/x.py");
  EXPECT_EQ(r.status, RunStatus::Exit);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(out(), "a\n");
  r = session().run_source("raise SystemExit\n", "/tmp/x.py");
  EXPECT_EQ(r.status, RunStatus::Exit);
  EXPECT_EQ(r.exit_code, 0);
}

TEST_F(SessionTest, OsExitEndsTheScriptNotTheHost) {
  RunResult r = session().run_source("import os\nprint('before')\nos._exit(4)\nprint('after')\n", "/tmp/ox.py");
  EXPECT_EQ(r.status, RunStatus::Exit);
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(out(), "before\n");
}

TEST_F(SessionTest, PrintsUtf8InAnyLocale) {
  ASSERT_TRUE(session().run_source("print('caf\u00e9 \u2192 \u00b5s')\n", "/tmp/u.py").ok());
  EXPECT_EQ(out(), "caf\u00e9 \u2192 \u00b5s\n");
}

TEST_F(SessionTest, StepsThroughTopLevelStatements) {
  const std::string src =
      "import torch\n"
      "x = torch.ones(3)\n"
      "def f(t):\n"
      "    return t * 2\n"
      "\n"
      "y = f(x).to('cuda')\n"
      "print(y.device)\n";
  RunResult r = session().load(src, "/tmp/step.py");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(session().statement_count(), 5);
  EXPECT_EQ(session().statement(2).first_line, 3);
  EXPECT_EQ(session().statement(2).last_line, 4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(session().step().ok());
  EXPECT_EQ(session().next_statement(), 4);
  EXPECT_EQ(out(), "");
  ASSERT_TRUE(session().step().ok());
  EXPECT_EQ(out(), "cuda:0\n");
  EXPECT_EQ(session().runtime().device_allocator(0).stats().allocated, 512u);

  // Step back: a fresh runtime replays the first 3 statements; y is gone, nothing on the GPU.
  r = session().run_to(3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(session().next_statement(), 3);
  EXPECT_EQ(session().runtime().device_allocator(0).stats().allocated, 0u);
  r = session().run_console("'y' in globals(), x.sum().item()");
  ASSERT_TRUE(r.ok());
  EXPECT_NE(out().find("(False, 3.0)\n"), std::string::npos);
}

TEST_F(SessionTest, StepErrorReportsTheScriptLine) {
  ASSERT_TRUE(session().load("import torch\nm = torch.zeros(2, 3)\nm.view(4, 2)\n", "/tmp/v.py").ok());
  ASSERT_TRUE(session().step().ok());
  ASSERT_TRUE(session().step().ok());
  RunResult r = session().step();
  ASSERT_EQ(r.status, RunStatus::Error);
  EXPECT_EQ(r.error.line, 3);
  EXPECT_EQ(r.error.message, "shape '[4, 2]' is invalid for input of size 6");
  EXPECT_EQ(session().next_statement(), 2);  // the failing statement stays the next one
}

TEST_F(SessionTest, StepKeepsTheCursorOnAFailingStatementThenGoesOn) {
  ASSERT_TRUE(session().load("import torch\nx = torch.ones(2)\ny = x.view(3)\nprint('after')\n", "/tmp/k.py").ok());
  ASSERT_TRUE(session().step().ok());
  ASSERT_TRUE(session().step().ok());
  EXPECT_EQ(session().step().status, RunStatus::Error);
  EXPECT_EQ(session().next_statement(), 2);
  EXPECT_EQ(session().step().status, RunStatus::Error);  // stepping again retries the same statement
  EXPECT_EQ(session().next_statement(), 2);
  ASSERT_TRUE(session().run_console("y = x.view(2)").ok());  // the console is unaffected
  EXPECT_EQ(session().next_statement(), 2);
}

TEST_F(SessionTest, ConsoleEchoesExpressionsLikeTheRepl) {
  ASSERT_TRUE(session().run_console("import torch\na = torch.arange(3)").ok());
  ASSERT_TRUE(session().run_console("a * 2").ok());
  ASSERT_TRUE(session().run_console("None").ok());
  ASSERT_TRUE(session().run_console("a.device").ok());
  EXPECT_EQ(out(), "tensor([0, 2, 4])\ndevice(type='cpu')\n");
}

TEST_F(SessionTest, SeedsAreDeterministicAfterReset) {
  ASSERT_TRUE(session().run_console("import torch\nv1 = torch.randn(3).tolist()").ok());
  session().reset();
  ASSERT_TRUE(session().run_console("import torch\nv2 = torch.randn(3).tolist()\nprint(len(v2))").ok());
  captured().clear();
  session().reset();
  ASSERT_TRUE(session().run_console("import torch\nprint(torch.randn(3).tolist())").ok());
  const std::string a = out();
  captured().clear();
  session().reset();
  ASSERT_TRUE(session().run_console("import torch\nprint(torch.randn(3).tolist())").ok());
  EXPECT_EQ(out(), a);
}

TEST_F(SessionTest, InterruptStopsARunawayLoopQuickly) {
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    session().interrupt();
  });
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r = session().run_source("while True:\n    pass\n", "/tmp/loop.py");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stopper.join();
  EXPECT_EQ(r.status, RunStatus::Interrupted);
  EXPECT_EQ(r.error.type, "KeyboardInterrupt");
  EXPECT_EQ(r.error.line, 1);  // the loop's back-jump belongs to the `while` line
  EXPECT_EQ(r.error.traceback.substr(r.error.traceback.size() - 18), "KeyboardInterrupt\n");
  EXPECT_LT(secs, 120.0);  // a hang guard only: a loaded machine may be slow
  // The next run is not hit by a stale interrupt.
  EXPECT_TRUE(session().run_source("x = sum(range(100000))\n", "/tmp/after.py").ok());
}

// Code on the interpreter's main thread is stopped the way Ctrl+C stops it (a SIGINT), so a blocking call
// ends too; the interrupt's text labels the KeyboardInterrupt.
TEST_F(SessionTest, InterruptEndsABlockingSleepWithItsMessage) {
  std::thread stopper([] {
    while (!session().running()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    session().interrupt("script interrupted after 1 s");
  });
  RunResult r = session().run_source("import time\ntime.sleep(100000)\n", "/tmp/sleep.py");
  stopper.join();
  EXPECT_EQ(r.status, RunStatus::Interrupted);
  EXPECT_EQ(r.error.line, 2);
  EXPECT_NE(r.error.traceback.find("KeyboardInterrupt: script interrupted after 1 s\n"), std::string::npos)
      << r.error.traceback;
  // A later interrupt without text is a plain KeyboardInterrupt (the earlier text was used up).
  EXPECT_TRUE(session().run_source("x = 1\n", "/tmp/after.py").ok());
}

TEST_F(SessionTest, SysExitOutsideIntExitsLikePython) {
  // python3 exits with (int)PyLong_AsLong(code): -1 when it overflows a C long, truncated to int otherwise.
  EXPECT_EQ(session().run_source("import sys\nsys.exit(2**63)\n", "/tmp/x.py").exit_code, -1);
  EXPECT_EQ(session().run_source("import sys\nsys.exit(2**31)\n", "/tmp/x.py").exit_code, -2147483647 - 1);
  EXPECT_EQ(session().run_source("import sys\nsys.exit(2**32 + 3)\n", "/tmp/x.py").exit_code, 3);
  EXPECT_EQ(session().run_source("import sys\nsys.exit(-1)\n", "/tmp/x.py").exit_code, -1);
}

TEST_F(SessionTest, RealTorchIsNeverImported) {
  ASSERT_TRUE(session().run_console("import torch, _devicescope_C\nprint(torch.__version__, torch.__file__.count('dist-packages'))").ok());
  EXPECT_EQ(out(), "2.6.0+devicescope 0\n");  // the API level DeviceScope implements (torch/version.py)
}

TEST_F(SessionTest, ResetGivesAFreshRuntime) {
  ASSERT_TRUE(session().run_console("import torch\nkeep = torch.zeros(1000, device='cuda')").ok());
  Runtime* before = &session().runtime();
  EXPECT_GT(session().runtime().device_allocator(0).stats().allocated, 0u);
  session().reset();
  EXPECT_NE(&session().runtime(), before);
  EXPECT_EQ(session().runtime().device_allocator(0).stats().allocated, 0u);
  EXPECT_EQ(session().runtime().live_storage_count(), 0u);
}

TEST_F(SessionTest, RunFileUsesAbsolutePathAndArgv) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() / "ds_session_argv.py";
  std::ofstream(p) << "import sys\nprint(sys.argv)\nprint(__file__)\n";
  RunResult r = session().run_file(p.string(), {"ds_session_argv.py", "--flag", "x"});
  ASSERT_TRUE(r.ok()) << r.error.traceback;
  EXPECT_EQ(out(), "['ds_session_argv.py', '--flag', 'x']\n" + p.string() + "\n");
  std::filesystem::remove(p);
}

// What the memory panes colour and name: activations made by a forward, and storages left behind by a
// module move that only a list or an alias still holds (devicescope/names.py, the object graph's holders).
TEST_F(SessionTest, SnapshotNamesLeftBehindStoragesAndColoursActivations) {
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "net = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3))\n"
      "stats = [net[1].running_mean]\n"
      "wd = net[0].weight.data\n"
      "net.to('cuda')\n"
      "y = net(torch.randn(2, 4, device='cuda'))\n";
  ASSERT_TRUE(session().load(src, "/tmp/held.py").ok());
  for (int i = 0; i < session().statement_count(); ++i) ASSERT_TRUE(session().step().ok());
  const Snapshot snap = session().snapshot();
  const StorageInfo* list_held = nullptr;
  const StorageInfo* alias_held = nullptr;
  const StorageInfo* y = nullptr;
  for (const StorageInfo& s : snap.storages) {
    for (const std::string& h : s.holders) {
      if (h == "stats[0]") list_held = &s;
      if (h == "wd") alias_held = &s;
      if (h == "y") y = &s;
    }
  }
  ASSERT_NE(list_held, nullptr);
  ASSERT_NE(alias_held, nullptr);
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(list_held->place.str(), "pageable");
  EXPECT_EQ(list_held->role, Role::Tensor);  // no longer the buffer: net.1.running_mean lives on cuda:0 now
  EXPECT_EQ(list_held->owner, "stats[0]");
  EXPECT_EQ(alias_held->role, Role::Tensor);
  EXPECT_EQ(alias_held->owner, "wd");
  EXPECT_EQ(y->role, Role::Activation);
  EXPECT_EQ(y->place.str(), "cuda:0");
}

// Last in this file: like python at exit it runs threading._shutdown(), after which this process's
// interpreter registers no more threading atexit hooks (concurrent.futures).
TEST_F(SessionTest, WaitForThreadsLetsNonDaemonThreadsFinishWithTorch) {
  ASSERT_TRUE(session().run_source("import threading, torch\n"
                                   "go = threading.Event()\n"
                                   "def work():\n"
                                   "    go.wait()\n"
                                   "    print(torch.ones(2).to(torch.device('cuda')).device)\n"
                                   "threading.Thread(target=work).start()\n"
                                   "go.set()\n",
                                   "/tmp/t.py").ok());
  RunResult r = session().wait_for_threads();
  EXPECT_TRUE(r.ok()) << r.error.traceback;
  EXPECT_FALSE(session().threads_left_running());
  EXPECT_EQ(out(), "cuda:0\n");
  EXPECT_EQ(err(), "");
}

}  // namespace
}  // namespace ds::python

#!/usr/bin/python3
"""End to end: Ctrl+C (SIGINT) to the desktop app always ends it cleanly, from its first instant.

Usage: gui_sigint.py DEVICESCOPE_BINARY   (a build with the GUI; runs the window under xvfb-run)

A SIGINT that came while the app was starting (its embedded Python running the starter script) used to kill
it with std::terminate (a KeyboardInterrupt raised on the session thread; SIGSEGV/SIGABRT) or be lost, so
the window stayed up. SIGINT inherited as ignored (`devicescope &` from a script) was never honoured. Each
case sends SIGINT at a different moment and expects exit 0 (the app quits) with no crash report. An endless
`--script` used to run before the window opened, so neither the window nor Ctrl+C ever came: now the window
opens while it runs, the first Ctrl+C stops the script and the next one quits (also for a script that
swallows KeyboardInterrupt). A run still going 120 s after its last SIGINT is a hang (never a speed bound).
Ends with "N passed, M failed".
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from xvfb import run_under_xvfb  # noqa: E402

CRASH_MARKS = ("terminate called", "Segmentation fault", "Fatal Python error", "Aborted", "core dumped")

# Runs inside the X session: start the app, wait, send SIGINT, print its exit status. `ignore` starts it with
# SIGINT ignored, as a shell's `cmd &` does.
DRIVER = r"""
import signal, subprocess, sys, time
delay, ignore, count = float(sys.argv[2]), sys.argv[3] == "ignore", int(sys.argv[4])
pre = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore else None
p = subprocess.Popen([sys.argv[1]] + sys.argv[5:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=pre)
time.sleep(delay)
for _ in range(count):
    p.send_signal(signal.SIGINT)
    time.sleep(1.0)
try:
    rc = p.wait(timeout=120)
except subprocess.TimeoutExpired:
    p.kill()
    rc = "hang"
sys.stderr.write(p.stderr.read().decode("utf-8", "replace"))
print("status", rc)
"""


ENDLESS = "import torch\nx = torch.ones(4).to('cuda')\nwhile True:\n    x = x + 1\n"
SWALLOWING = ("import torch, time\nx = torch.ones(4)\nwhile True:\n    try:\n        x = x + 1\n"
              "        time.sleep(0.01)\n    except KeyboardInterrupt:\n        pass\n")


def main():
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="ds_gui_sigint_")
    scripts = {}
    for name, code in (("endless", ENDLESS), ("swallowing", SWALLOWING)):
        scripts[name] = os.path.join(tmp, name + ".py")
        with open(scripts[name], "w") as f:
            f.write(code)
    # (delay before the first SIGINT, inherited disposition, how many SIGINTs, the app's arguments)
    cases = [(0.05, "default", 1, []), (0.3, "default", 1, []), (1.0, "default", 1, []), (4.0, "default", 1, []),
             (0.3, "ignore", 1, []), (4.0, "ignore", 1, []),
             (5.0, "default", 2, ["--script", scripts["endless"]]),
             (5.0, "ignore", 3, ["--script", scripts["swallowing"]])]
    passed = failed = 0
    for delay, mode, count, args in cases:
        name = f"{count} SIGINT after {delay} s ({mode}) {' '.join(os.path.basename(a) for a in args)}".rstrip()
        p = run_under_xvfb([sys.executable, "-c", DRIVER, binary, str(delay), mode, str(count)] + args, timeout=300)
        status = next((l.split()[1] for l in p.stdout.splitlines() if l.startswith("status ")), None)
        crash = [m for m in CRASH_MARKS if m in p.stderr]
        if status == "0" and not crash:
            passed += 1
            print(f"ok   {name}")
        else:
            failed += 1
            print(f"FAIL {name}: exit status {status}, crash marks {crash}\n  stderr: {p.stderr[-600:]}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

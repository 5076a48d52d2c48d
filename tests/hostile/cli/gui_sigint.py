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
The --script cases once passed without the script ever running (its Run was refused while the app was still
loading it), and hung when a loaded machine let it start: each script now says it runs, the SIGINTs come
after that, and the swallowing script must have swallowed the first. GUI_SIGINT_CASE=text runs only the cases
whose name contains it. Ends with "N passed, M failed".
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from xvfb import run_under_xvfb  # noqa: E402

CRASH_MARKS = ("terminate called", "Segmentation fault", "Fatal Python error", "Aborted", "core dumped")

# Runs inside the X session: start the app, wait, send SIGINT, print its exit status. `ignore` starts it with
# SIGINT ignored, as a shell's `cmd &` does. With a MARK file (a --script writes it once it runs), the delay
# counts from the script's start, however long a loaded machine takes to get there ("never started" if the
# app ends or 120 s pass first): the SIGINTs then always meet a running script.
DRIVER = r"""
import os, signal, subprocess, sys, time
delay, ignore, count, mark = float(sys.argv[2]), sys.argv[3] == "ignore", int(sys.argv[4]), sys.argv[5]
pre = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore else None
p = subprocess.Popen([sys.argv[1]] + sys.argv[6:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=pre)
waited = 0.0
while mark != "-" and not os.path.exists(mark) and p.poll() is None and waited < 120:
    time.sleep(0.05)
    waited += 0.05
if mark != "-" and not os.path.exists(mark):
    p.kill()
    p.wait()
    print("status never-started")
    sys.exit(0)
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


# Each script writes MARK once it runs; the swallowing one adds a line per KeyboardInterrupt it swallows.
ENDLESS = "import torch\nx = torch.ones(4).to('cuda')\nopen(MARK, 'w').close()\nwhile True:\n    x = x + 1\n"
SWALLOWING = ("import torch, time\nx = torch.ones(4)\nopen(MARK, 'w').close()\nwhile True:\n    try:\n"
              "        x = x + 1\n        time.sleep(0.01)\n    except KeyboardInterrupt:\n"
              "        with open(MARK, 'a') as f:\n            f.write('swallowed\\n')\n")


def main():
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="ds_gui_sigint_")
    mark = os.path.join(tmp, "mark")
    scripts = {}
    for name, code in (("endless", ENDLESS), ("swallowing", SWALLOWING)):
        scripts[name] = os.path.join(tmp, name + ".py")
        with open(scripts[name], "w") as f:
            f.write(f"MARK = {mark!r}\n" + code)
    # (delay before the first SIGINT, inherited disposition, how many SIGINTs, the app's arguments). With a
    # --script the delay counts from the script's start. The swallowing script gets its first Ctrl+C (which it
    # swallows), then one that quits the app, and once a third while the app waits for it to end.
    cases = [(0.05, "default", 1, []), (0.3, "default", 1, []), (1.0, "default", 1, []), (4.0, "default", 1, []),
             (0.3, "ignore", 1, []), (4.0, "ignore", 1, []),
             (1.0, "default", 2, ["--script", scripts["endless"]]),
             (1.0, "default", 2, ["--script", scripts["swallowing"]]),
             (1.0, "ignore", 3, ["--script", scripts["swallowing"]])]
    passed = failed = 0
    only = os.environ.get("GUI_SIGINT_CASE")  # a substring of a case's name: run only those (for loops)
    for delay, mode, count, args in cases:
        when = " into the script" if args else ""
        name = f"{count} SIGINT after {delay} s{when} ({mode}) {' '.join(os.path.basename(a) for a in args)}".rstrip()
        if only and only not in name:
            continue
        if os.path.exists(mark):
            os.remove(mark)
        p = run_under_xvfb([sys.executable, "-c", DRIVER, binary, str(delay), mode, str(count),
                            mark if args else "-"] + args, timeout=400)
        status = next((l.split()[1] for l in p.stdout.splitlines() if l.startswith("status ")), None)
        crash = [m for m in CRASH_MARKS if m in p.stderr]
        problems = []
        if status != "0" or crash:
            problems.append(f"exit status {status}, crash marks {crash}")
        if args and "swallowing" in args[-1]:
            # The first Ctrl+C reached the script (it swallowed it): the app quit although the script goes on.
            with open(mark) if os.path.exists(mark) else open(os.devnull) as f:
                if "swallowed" not in f.read():
                    problems.append("the script never got KeyboardInterrupt")
        if not problems:
            passed += 1
            print(f"ok   {name}")
        else:
            failed += 1
            print(f"FAIL {name}: {'; '.join(problems)}\n  stderr: {p.stderr[-600:]}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

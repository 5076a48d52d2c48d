#!/usr/bin/python3
"""End to end: a headless screenshot of an endless script ends (`devicescope --script X --screenshot OUT`).

Usage: gui_script_timeout.py DEVICESCOPE_BINARY   (a build with the GUI; runs it under xvfb-run)

It used to wait for the script forever. With `--timeout 2` the script gets KeyboardInterrupt after 2 s; the
app writes the screenshot of the state reached, says what happened on stderr and exits 124 - both for a loop
that stops on the interrupt and for one that swallows every KeyboardInterrupt (then the app stops waiting
for it). Also checks that --timeout is on by default (a non-zero default in --help), and that SIGTERM to
devicescope ends the run it re-started under xvfb-run (that process used to run on, orphaned). A run still
going after 300 s is a hang (never a speed bound). Ends with "N passed, M failed".
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from xvfb import run_under_xvfb  # noqa: E402

ENDLESS = """import torch
x = torch.ones(4).to("cuda")
while True:
    x = x + 1
"""
SWALLOWING = """import torch
x = torch.ones(4).to("cuda")
while True:
    try:
        while True:
            pass
    except BaseException:
        pass
"""
CASES = [
    ("endless_loop", ENDLESS, "stopped it with KeyboardInterrupt"),
    ("swallows_interrupts", SWALLOWING, "kept running after KeyboardInterrupt"),
]


def run_case(binary, out, name, source, want):
    script = os.path.join(out, name + ".py")
    with open(script, "w") as f:
        f.write(source)
    shot = os.path.join(out, name + ".png")
    cmd = [binary, "--backend", "sim", "--script", script, "--screenshot", shot, "--size", "800x600",
           "--timeout", "2"]
    try:
        p = run_under_xvfb(cmd, timeout=300)
    except subprocess.TimeoutExpired:
        return [f"still running after 300 s: {' '.join(cmd)}"]
    problems = []
    if p.returncode != 124:
        problems.append(f"exit code {p.returncode}, expected 124")
    message = f"the script was still running after 2 s (--timeout 2)"
    if message not in p.stderr or want not in p.stderr:
        problems.append(f"stderr lacks {message!r} ... {want!r}: {p.stderr.strip()[-400:]!r}")
    if not os.path.exists(shot):
        problems.append("no screenshot written")
    else:
        with open(shot + ".json") as f:
            model = json.load(f)
        if '"cuda:0"' not in json.dumps(model):
            problems.append("the screenshot's view model does not show the copy the script made")
    return problems


def processes_running(marker):
    """pids of processes whose command line mentions `marker`."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        pids.append(int(entry))
            except OSError:
                pass
    return pids


def sigterm_reaches_the_xvfb_run(binary, out):
    """Problems when SIGTERM to a headless devicescope (no DISPLAY: it re-runs itself under xvfb-run) leaves
    the inner run going."""
    script = os.path.join(out, "endless_for_sigterm.py")
    with open(script, "w") as f:
        f.write(ENDLESS)
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    cmd = [binary, "--backend", "sim", "--script", script, "--screenshot", os.path.join(out, "term.png"),
           "--size", "800x600", "--timeout", "0"]
    outer = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    problems = []
    deadline = time.monotonic() + 300  # hang guard only
    while not [p for p in processes_running(script) if p != outer.pid] and time.monotonic() < deadline:
        time.sleep(0.2)  # until the run under xvfb-run has started
    outer.terminate()
    outer.wait(timeout=300)
    while time.monotonic() < deadline:
        left = [p for p in processes_running(script) if p != outer.pid]
        if not left:
            return problems
        time.sleep(0.2)
    problems.append(f"the run under xvfb-run still runs after SIGTERM to devicescope: pids {left}")
    for pid in left:  # do not leave it spinning
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    passed = failed = 0
    help_text = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60).stdout
    m = re.search(r"--timeout [^\n]*?[=[]([0-9.]+)", help_text)  # CLI11 shows "FLOAT:...=300"
    if m and float(m.group(1)) > 0:
        print(f"ok   --timeout defaults to {m.group(1)} s")
        passed += 1
    else:
        print("FAIL --help shows no non-zero default for --timeout")
        failed += 1
    with tempfile.TemporaryDirectory(prefix="ds_gui_timeout_") as out:
        for name, source, want in CASES:
            problems = run_case(binary, out, name, source, want)
            if problems:
                print(f"FAIL {name}\n  " + "\n  ".join(problems))
                failed += 1
            else:
                print(f"ok   {name}")
                passed += 1
        problems = sigterm_reaches_the_xvfb_run(binary, out)
        if problems:
            print("FAIL sigterm_ends_the_xvfb_run\n  " + "\n  ".join(problems))
            failed += 1
        else:
            print("ok   sigterm_ends_the_xvfb_run")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

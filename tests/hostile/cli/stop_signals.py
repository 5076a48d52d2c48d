#!/usr/bin/python3
"""End to end: `devicescope run` always stops on SIGINT, and stops cleanly on SIGTERM.

Usage: stop_signals.py DEVICESCOPE_BINARY

Starts an endless script (one copy, then a loop) and, once it has said "ready", sends it a signal:
  - SIGINT with SIGINT inherited as ignored (what `cmd &` from a script or a launcher gives): python3 keeps
    it ignored and never stops; DeviceScope must exit 130 with a KeyboardInterrupt traceback;
  - SIGINT as usual: the same;
  - SIGTERM: exit 143 with "KeyboardInterrupt: stopped by SIGTERM".
Each run must write complete exports (the CSV holds the one copy). A run still going after 300 s is a hang
(never a speed bound). Ends with "N passed, M failed".
"""
import os
import signal
import subprocess
import sys
import tempfile

SCRIPT = """import torch
x = torch.ones(4).to("cuda")
print("ready", flush=True)
while True:
    x = x + 1
"""
HANG_GUARD_S = 300


def ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_case(binary, out, name, sig, preexec, want_code, want_stderr):
    script = os.path.join(out, "endless.py")
    with open(script, "w") as f:
        f.write(SCRIPT)
    csv_path = os.path.join(out, name + ".csv")
    cmd = [binary, "--backend", "sim", "--sim-devices", "1", "run", "--csv", csv_path, script]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         preexec_fn=preexec)
    problems = []
    first = p.stdout.readline()  # blocks until the script runs its loop
    if first != b"ready\n":
        problems.append(f"the script did not start (stdout: {first!r})")
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=HANG_GUARD_S)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        problems.append(f"still running {HANG_GUARD_S} s after {signal.Signals(sig).name} (killed)")
    err = err.decode("utf-8", "replace")
    if p.returncode != want_code and not problems:
        problems.append(f"exit code {p.returncode}, expected {want_code}")
    for want in want_stderr:
        if want not in err:
            problems.append(f"stderr lacks {want!r}")
    try:
        with open(csv_path) as f:
            rows = f.read().splitlines()
        if len(rows) != 2:
            problems.append(f"the CSV holds {len(rows) - 1} transfers, expected 1")
    except OSError as e:
        problems.append(f"no CSV export: {e}")
    if problems:
        tail = "\n".join("    " + line for line in err.rstrip().split("\n")[-8:])
        print(f"FAIL {name}\n  " + "\n  ".join(problems) + "\n  stderr tail:\n" + tail)
        return False
    print(f"ok   {name}")
    return True


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    cases = [
        ("sigint_inherited_ignored", signal.SIGINT, ignore_sigint, 130,
         ["Traceback (most recent call last)", "\nKeyboardInterrupt\n"]),
        ("sigint", signal.SIGINT, None, 130, ["Traceback (most recent call last)", "\nKeyboardInterrupt\n"]),
        ("sigterm", signal.SIGTERM, None, 143, ["KeyboardInterrupt: stopped by SIGTERM"]),
    ]
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="ds_stop_signals_") as out:
        for case in cases:
            if run_case(binary, out, *case):
                passed += 1
            else:
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/python3
"""Runs a script under `devicescope run` with the C++ fast path of the ops (engine/python/bindings_ops.cpp,
torch/_fast_ops.py) and without it (DEVICESCOPE_NO_FAST_OPS=1: the Python path, the reference), and wants the
same stdout: the fast path must give the same values, grad_fn classes, saved tensors, next_functions and
allocator trace as the Python path it stands in front of.

Usage: run_fast_path_agreement.py DEVICESCOPE_BINARY SCRIPT [SCRIPT ...]
Each script prints "fast path: on" or "fast path: off" first (whether Tensor.__add__ is the fast entry), so a
run where the fast path was not installed (or not left out) fails instead of comparing the Python path with
itself. Plain Python 3: this process never imports torch.
"""
import difflib
import os
import subprocess
import sys

TIMEOUT_S = 300


def run(binary, script, fast):
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("DEVICESCOPE_NO_FAST_OPS", None)
    if not fast:
        env["DEVICESCOPE_NO_FAST_OPS"] = "1"
    p = subprocess.run([os.path.abspath(binary), "--backend", "sim", "--sim-devices", "2", "run", os.path.abspath(script)], capture_output=True,
                       text=True, timeout=TIMEOUT_S, env=env, cwd=os.path.dirname(os.path.abspath(script)))
    return p.returncode, p.stdout.splitlines(), p.stderr


def check(binary, script):
    problems = []
    results = {}
    for fast in (True, False):
        rc, lines, err = run(binary, script, fast)
        want = "fast path: " + ("on" if fast else "off")
        if rc != 0:
            problems.append(f"exit status {rc} with the fast path {'on' if fast else 'off'}:\n{err[-3000:]}")
        elif not lines or lines[0] != want:
            problems.append(f"first line {lines[0] if lines else '(none)'!r}, wanted {want!r}")
        results[fast] = lines[1:]
    if not problems and results[True] != results[False]:
        diff = difflib.unified_diff(results[False], results[True], "python path", "fast path", lineterm="", n=1)
        problems.append("\n".join(list(diff)[:80]))
    name = os.path.basename(script)
    if problems:
        print(f"FAIL {name}")
        for p in problems:
            print("  " + p.replace("\n", "\n  "))
        return False
    print(f"ok   {name} ({len(results[True])} lines agree)")
    return True


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    ok = [check(sys.argv[1], s) for s in sys.argv[2:]]
    print(f"{sum(ok)} passed, {len(ok) - sum(ok)} failed")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())

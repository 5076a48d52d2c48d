#!/usr/bin/python3
"""Runs a script under `devicescope run` with the backward engine's C++ loop (engine/python/bindings_autograd.cpp)
and with the Python engine it follows (DEVICESCOPE_PY_AUTOGRAD=1: torch/autograd/graph.py's _execute_py, the
reference), and wants the same stdout: the same gradients, hook calls, errors and allocator trace (when each
gradient buffer is allocated, accumulated in place and freed).

Usage: run_autograd_engine_agreement.py DEVICESCOPE_BINARY SCRIPT [SCRIPT ...]
Each script prints "engine: C++" or "engine: python" first, so a run that did not take the engine it was meant to
fails instead of comparing an engine with itself. Plain Python 3: this process never imports torch.
"""
import difflib
import os
import subprocess
import sys

TIMEOUT_S = 300


def run(binary, script, python_engine):
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("DEVICESCOPE_PY_AUTOGRAD", None)
    if python_engine:
        env["DEVICESCOPE_PY_AUTOGRAD"] = "1"
    p = subprocess.run([os.path.abspath(binary), "--backend", "sim", "--sim-devices", "2", "run",
                        os.path.abspath(script)], capture_output=True, text=True, timeout=TIMEOUT_S, env=env,
                       cwd=os.path.dirname(os.path.abspath(script)))
    return p.returncode, p.stdout.splitlines(), p.stderr


def check(binary, script):
    problems = []
    results = {}
    for python_engine in (False, True):
        rc, lines, err = run(binary, script, python_engine)
        want = "engine: " + ("python" if python_engine else "C++")
        if rc != 0:
            problems.append(f"exit status {rc} with the {want}:\n{err[-3000:]}")
        elif not lines or lines[0] != want:
            problems.append(f"first line {lines[0] if lines else '(none)'!r}, wanted {want!r}")
        results[python_engine] = lines[1:]
    if not problems and results[True] != results[False]:
        diff = difflib.unified_diff(results[True], results[False], "python engine", "C++ engine", lineterm="", n=1)
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

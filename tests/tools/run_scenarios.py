#!/usr/bin/python3
"""Runs scenario scripts (tests/scenarios/*.py) through `devicescope run` and compares with <name>.expected.

Usage: run_scenarios.py DEVICESCOPE_BINARY PATH [PATH ...]   (PATH: a scenario .py file or a folder of them)

A scenario runs on the simulated backend with 2 CUDA devices unless its header says otherwise:
  # devicescope-args: --sim-devices 0          (any line in the leading comment block of the .py)
The .expected file holds the exact stdout, optionally preceded by directive lines:
  # expect-exit: 1                             (default 0)
  # expect-stderr-last: RuntimeError: ...      (the last non-empty stderr line, exact)
Prints a diff for every failure and ends with "N passed, M failed"; exits 1 if anything failed.
Plain Python 3 on purpose: it must never import torch (neither the real one nor DeviceScope's).
"""
import difflib
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_suite import collect, stderr_tail  # noqa: E402

DEFAULT_FLAGS = {"--backend": "sim", "--sim-devices": "2"}
TIMEOUT_S = int(os.environ.get("DEVICESCOPE_SCENARIO_TIMEOUT", "300"))


def header_args(script_path):
    """Extra devicescope flags from `# devicescope-args:` lines in the script's leading comments."""
    args = []
    with open(script_path, encoding="utf-8") as f:
        for line in f:
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                break
            if stripped.startswith("# devicescope-args:"):
                args += shlex.split(stripped.split(":", 1)[1])
    return args


def backend_flags(extra):
    """Defaults for the flags the header does not set, then the header's own flags."""
    flags = []
    for name, value in DEFAULT_FLAGS.items():
        if not any(a == name or a.startswith(name + "=") for a in extra):
            flags += [name, value]
    return flags + extra


def read_expected(path):
    """(exit code, last stderr line or None, stdout lines) from a .expected file."""
    exit_code, stderr_last, lines = 0, None, []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    body = text.split("\n")
    i = 0
    while i < len(body) and body[i].startswith("# expect-"):
        key, _, value = body[i][2:].partition(":")
        value = value.strip()
        if key == "expect-exit":
            exit_code = int(value)
        elif key == "expect-stderr-last":
            stderr_last = value
        else:
            raise ValueError(f"{path}: unknown directive {body[i]!r}")
        i += 1
    lines = body[i:]
    if lines and lines[-1] == "":
        lines.pop()
    return exit_code, stderr_last, lines


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].rstrip() if lines else ""


def run_one(binary, script):
    name = os.path.splitext(os.path.basename(script))[0]
    expected_path = os.path.splitext(script)[0] + ".expected"
    if not os.path.exists(expected_path):
        return False, f"FAIL {name}: missing {expected_path}"
    want_exit, want_err, want_out = read_expected(expected_path)
    cmd = [binary] + backend_flags(header_args(script)) + ["run", script]
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S,
                           cwd=os.path.dirname(os.path.abspath(script)), env=env)
    except subprocess.TimeoutExpired:
        return False, f"FAIL {name}: timed out after {TIMEOUT_S}s\n  command: {shlex.join(cmd)}"
    got_out = p.stdout.split("\n")
    if got_out and got_out[-1] == "":
        got_out.pop()
    problems = []
    if got_out != want_out:
        diff = difflib.unified_diff(want_out, got_out, "expected stdout", "devicescope stdout", lineterm="")
        problems.append("stdout differs:\n" + "\n".join("    " + d for d in diff))
    if p.returncode != want_exit:
        problems.append(f"exit code: expected {want_exit}, got {p.returncode}")
    got_err = last_line(p.stderr)
    if want_err is not None and got_err != want_err:
        problems.append(f"last stderr line:\n    expected: {want_err}\n    got:      {got_err}")
    if problems:
        tail = stderr_tail(p.stderr)
        return False, (f"FAIL {name}\n  command: {shlex.join(cmd)}\n  " + "\n  ".join(problems) +
                       "\n  stderr tail:\n" + tail)
    return True, f"ok   {name}"


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    scripts = collect(argv[2:])
    if not os.access(binary, os.X_OK):
        print(f"devicescope binary not found or not executable: {binary}")
        print(f"0 passed, {max(len(scripts), 1)} failed")
        return 1
    passed = failed = 0
    for script in scripts:
        ok, report = run_one(binary, script)
        print(report, flush=True)
        if ok:
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

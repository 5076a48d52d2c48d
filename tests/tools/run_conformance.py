#!/usr/bin/python3
"""Runs each conformance script (tests/conformance/*.py) under real PyTorch and under `devicescope run`.

Usage: run_conformance.py DEVICESCOPE_BINARY PATH [PATH ...]   (PATH: a conformance .py file or a folder)

The reference is Debian's python3-torch for /usr/bin/python3 (override with DEVICESCOPE_REF_PYTHON).
Both runs must print the same stdout, line for line, and exit with the same code.
If the real torch cannot be imported, scripts are reported as skipped (exit code 77, which ctest shows as
skipped) - except when the environment variable CI is set: then that is a failure, never a silent skip.
Ends with "N passed, M failed" (plus ", K skipped"); exits 1 on any failure.
Plain Python 3 on purpose: this process never imports torch itself.
"""
import difflib
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_suite import collect, stderr_tail  # noqa: E402
from blas_env import with_reference_blas  # noqa: E402

REF_PYTHON = os.environ.get("DEVICESCOPE_REF_PYTHON", "/usr/bin/python3")
TIMEOUT_S = int(os.environ.get("DEVICESCOPE_SCENARIO_TIMEOUT", "300"))
SKIP_EXIT = 77


def clean_env():
    """Environment for both runs; the reference must not see DeviceScope's package on its path."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    return with_reference_blas(env)  # one BLAS for both sides (blas_env.py)


def reference_torch_problem():
    """None when the reference interpreter imports real torch, else a one-line reason."""
    probe = "import torch, sys; sys.stdout.write(torch.__version__ + ' ' + torch.__file__)"
    try:
        p = subprocess.run([REF_PYTHON, "-c", probe], capture_output=True, text=True, timeout=120,
                           cwd="/", env=clean_env())
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"cannot run {REF_PYTHON}: {e}"
    if p.returncode != 0:
        return f"{REF_PYTHON} cannot import torch: {last_line(p.stderr)}"
    if "devicescope" in p.stdout.lower() or "engine/python" in p.stdout:
        return f"{REF_PYTHON} imported DeviceScope's torch instead of the real one: {p.stdout}"
    return None


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].rstrip() if lines else ""


def split_lines(text):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def run(cmd, script):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S,
                           cwd=os.path.dirname(os.path.abspath(script)), env=clean_env())
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {TIMEOUT_S}s"


def run_one(binary, script):
    name = os.path.splitext(os.path.basename(script))[0]
    ref_cmd = [REF_PYTHON, script]
    ds_cmd = [binary, "--backend", "sim", "--sim-devices", "2", "run", script]
    ref_rc, ref_out, ref_err = run(ref_cmd, script)
    ds_rc, ds_out, ds_err = run(ds_cmd, script)
    problems = []
    if split_lines(ref_out) != split_lines(ds_out):
        diff = difflib.unified_diff(split_lines(ref_out), split_lines(ds_out),
                                    "real torch stdout", "devicescope stdout", lineterm="")
        problems.append("stdout differs:\n" + "\n".join("    " + d for d in diff))
    if ref_rc != ds_rc:
        problems.append(f"exit code: real torch {ref_rc}, devicescope {ds_rc}")
        if ref_rc != 0:
            problems.append(f"real torch stderr: {last_line(ref_err)}")
    if problems:
        tail = stderr_tail(ds_err)
        return False, (f"FAIL {name}\n  reference: {shlex.join(ref_cmd)}\n  command:   {shlex.join(ds_cmd)}\n  " +
                       "\n  ".join(problems) + "\n  devicescope stderr tail:\n" + tail)
    return True, f"ok   {name}"


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    scripts = collect(argv[2:])
    problem = reference_torch_problem()
    if problem:
        if os.environ.get("CI"):
            print(f"FAIL: real PyTorch is required when CI is set: {problem}")
            print(f"0 passed, {len(scripts)} failed")
            return 1
        for script in scripts:
            print(f"SKIP {os.path.splitext(os.path.basename(script))[0]}: {problem}")
        print(f"0 passed, 0 failed, {len(scripts)} skipped")
        return SKIP_EXIT
    if not os.access(binary, os.X_OK):
        print(f"devicescope binary not found or not executable: {binary}")
        print(f"0 passed, {len(scripts)} failed")
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

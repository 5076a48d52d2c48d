#!/usr/bin/python3
"""Runs real-code scripts (tests/realcode/*.py: PyTorch tutorials, recipes and examples, adapted) under
`devicescope run` and, for the CPU-only ones, under real PyTorch too. Each script checks its own results
(shapes, devices, a loss that falls) and must exit 0 in every run.

Usage: run_realcode.py [--times] DEVICESCOPE_BINARY PATH [PATH ...]   (PATH: a .py file or a folder)

Column-0 header lines each script carries:
    # source: https://pytorch.org/tutorials/...       where it comes from (required)
    # changed: synthetic data instead of FashionMNIST  what was changed (required)
    # reference: real                                  also run under real PyTorch (Debian's 1.13, /usr/bin/python3,
                                                       override with DEVICESCOPE_REF_PYTHON); "none: why" otherwise
    # args: --sim-devices 4                            extra `devicescope run` options (optional)
Each script runs in a fresh temporary folder (tutorials write checkpoints next to themselves).
--times prints each run's wall time and the slowdown of DeviceScope against real PyTorch (median, worst), both
for the whole process and for the script's own work (each side's `import torch` startup, measured once, taken off;
at least 0.05 s each, so scripts that do almost nothing read as x1).
When real torch cannot be imported, the reference runs are skipped (exit 77 if nothing else ran) unless the
environment variable CI is set, which makes that a failure. Ends with "N passed, M failed"; exits 1 on failure.
Plain Python 3 on purpose: this process never imports torch itself.
"""
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_suite import collect, stderr_tail  # noqa: E402
from blas_env import with_reference_blas  # noqa: E402

REF_PYTHON = os.environ.get("DEVICESCOPE_REF_PYTHON", "/usr/bin/python3")
TIMEOUT_S = int(os.environ.get("DEVICESCOPE_SCENARIO_TIMEOUT", "300"))
SKIP_EXIT = 77


def headers(path):
    h = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"# (source|changed|reference|args): ?(.*)$", line.rstrip("\n"))
            if m and m.group(1) not in h:
                h[m.group(1)] = m.group(2).strip()
    return h


def clean_env():
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    return with_reference_blas(env)  # one BLAS for both sides (blas_env.py)


def reference_torch_problem():
    probe = "import torch, sys; sys.stdout.write(torch.__file__)"
    try:
        p = subprocess.run([REF_PYTHON, "-c", probe], capture_output=True, text=True, timeout=120, cwd="/",
                           env=clean_env())
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"cannot run {REF_PYTHON}: {e}"
    if p.returncode != 0:
        return f"{REF_PYTHON} cannot import torch"
    if "engine/python" in p.stdout:
        return f"{REF_PYTHON} imported DeviceScope's torch instead of the real one"
    return None


def run(cmd):
    """(exit code or None on timeout, stdout, stderr, seconds) in a fresh temporary folder."""
    with tempfile.TemporaryDirectory(prefix="ds-realcode-") as cwd:
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, cwd=cwd, env=clean_env())
            return p.returncode, p.stdout, p.stderr, time.monotonic() - start
        except subprocess.TimeoutExpired:
            return None, "", f"timed out after {TIMEOUT_S}s", time.monotonic() - start


def startup_seconds(binary, with_reference):
    """Fastest of three runs of a script that only imports torch, under devicescope and under real PyTorch (a
    loaded machine only ever adds time, so the minimum is the startup itself)."""
    with tempfile.TemporaryDirectory(prefix="ds-realcode-") as d:
        probe = os.path.join(d, "import_torch.py")
        with open(probe, "w") as f:
            f.write("import torch\n")
        ds = min(run([binary, "--backend", "sim", "--sim-devices", "2", "run", probe])[3] for _ in range(3))
        ref = min(run([REF_PYTHON, probe])[3] for _ in range(3)) if with_reference else None
    return ds, ref


def run_one(binary, script, with_reference):
    """(ok, report, (devicescope seconds, real torch seconds) or None)."""
    name = os.path.splitext(os.path.basename(script))[0]
    h = headers(script)
    problems = [f"missing '# {k}:' header" for k in ("source", "changed", "reference") if not h.get(k)]
    ds_cmd = [binary, "--backend", "sim", "--sim-devices", "2", "run"] + shlex.split(h.get("args", "")) + [script]
    rc, out, err, ds_s = run(ds_cmd)
    if rc != 0:
        problems.append(f"devicescope exit code {rc}\n  command: {shlex.join(ds_cmd)}\n  stderr tail:\n" +
                        stderr_tail(err))
    ref_s = None
    if h.get("reference") == "real" and with_reference:
        ref_cmd = [REF_PYTHON, script]
        rrc, rout, rerr, ref_s = run(ref_cmd)
        if rrc != 0:
            problems.append(f"real PyTorch exit code {rrc}\n  command: {shlex.join(ref_cmd)}\n  stderr tail:\n" +
                            stderr_tail(rerr))
    timing = f"  devicescope {ds_s:.2f}s" + (f", real torch {ref_s:.2f}s, x{ds_s / ref_s:.1f}" if ref_s else "")
    if problems:
        return False, f"FAIL {name}\n  " + "\n  ".join(problems), None
    return True, f"ok   {name}{timing}", (ds_s, ref_s) if ref_s else None


def main(argv):
    times = "--times" in argv
    argv = [a for a in argv if a != "--times"]
    if len(argv) < 3:
        print(__doc__.strip().split("\n")[4], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    scripts = collect(argv[2:])
    problem = reference_torch_problem()
    if problem and os.environ.get("CI"):
        print(f"FAIL: real PyTorch is required when CI is set: {problem}")
        return 1
    if problem:
        print(f"note: reference runs skipped: {problem}")
    if not os.access(binary, os.X_OK):
        print(f"devicescope binary not found or not executable: {binary}\n0 passed, {len(scripts)} failed")
        return 1
    passed = failed = 0
    pairs = []
    for script in scripts:
        ok, report, pair = run_one(binary, script, problem is None)
        print(report, flush=True)
        passed += ok
        failed += not ok
        if pair:
            pairs.append((pair, os.path.basename(script)))
    if times and pairs:
        ds_start, ref_start = startup_seconds(binary, problem is None)
        print(f"startup (import torch): devicescope {ds_start:.2f}s, real torch {ref_start:.2f}s")
        for label, ratio in (("whole process", lambda d, r: d / r),
                             ("script work (startup taken off)",
                              lambda d, r: max(d - ds_start, 0.05) / max(r - ref_start, 0.05))):
            ratios = sorted((ratio(d, r), n) for (d, r), n in pairs)
            print(f"slowdown vs real PyTorch, {label}, over {len(ratios)} scripts: "
                  f"median x{statistics.median(x for x, _ in ratios):.1f}, "
                  f"worst x{ratios[-1][0]:.1f} ({ratios[-1][1]})")
            if label.startswith("script"):
                print("  per script: " + ", ".join(f"{n[:-3]} x{x:.1f}" for x, n in ratios))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/python3
"""How much slower (or faster) the real-code corpus runs under DeviceScope than under real PyTorch, net of
start-up (issue 23's target: median <= 1.0x, worst <= 2x over the scripts with at least 0.5 s of torch work).

Usage: realcode_speed.py [--min-work S] [--repeat N] DEVICESCOPE_BINARY [PATH ...]
    PATH: a .py file or a folder (default: tests/realcode). Only scripts marked `# reference: real` run: the
    others need a GPU, or PyTorch 2.x, that Debian's CPU-only 1.13 does not have.

Each script runs in a fresh temporary folder under `devicescope --backend sim --sim-devices 2 run [# args:]
SCRIPT` (its "cuda" is a simulated GPU, computed on the host) and under /usr/bin/python3 with real PyTorch
(override with DEVICESCOPE_REF_PYTHON; on the CPU-only build a script's `torch.cuda.is_available()` is False
and it runs on the CPU). Both sides load Debian's OpenBLAS with the settings DeviceScope picks
(tests/tools/blas_env.py with_openblas_settings), as the other benchmarks do.

--repeat N: each side's best of N runs of a script, the two sides alternating run by run.

Each script runs through tests/bench/_timed_main.py, which imports torch and then runs the script as __main__,
and reports the CPU time the script itself took, measured inside the process: the "in-process" figures. They
need no start-up subtracted, so the noise of the (real side's 1.1-1.4 s) start-up does not reach them.

Start-up is measured apart on each side: an empty script (three times), and one that only imports torch (what
every script pays before its first torch call; three times, then again before every script), the best of each. A script's torch work is its time less the import-torch
start-up of its side. Both wall time and CPU time (user + system of the process and its children, from wait4)
are taken; CPU time is the headline, since on a shared machine other processes add wall time to whichever side
they happen to run beside. Scripts whose torch work is under --min-work seconds (0.5) on both sides are listed
but left out of the median and worst: their ratio is mostly noise (one that is slow on one side only counts).

Prints one line per script, the start-up figures and the summary; exits 1 when a script fails on either side
(a failed run has no meaningful time) or when no script had --min-work seconds of torch work, 77 when real
PyTorch cannot be imported, 0 otherwise. No time is asserted. Plain Python 3; never imports torch. Under OpenBLAS, real PyTorch's regression_polynomial stops on a
different batch and fails its own check (the BLAS-rounding sensitivity tests/tools/blas_env.py describes).
"""
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from blas_env import with_openblas_settings  # noqa: E402
from script_suite import collect  # noqa: E402
from run_realcode import headers  # noqa: E402  (the realcode runner's '# reference:' / '# args:' reader)

REF_PYTHON = os.environ.get("DEVICESCOPE_REF_PYTHON", "/usr/bin/python3")
TIMEOUT_S = int(os.environ.get("DEVICESCOPE_SCENARIO_TIMEOUT", "600"))


def env():
    e = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    e.pop("PYTHONPATH", None)
    e.pop("LD_LIBRARY_PATH", None)  # the libblas.so.3 alternative (OpenBLAS), not a reference BLAS put first
    return with_openblas_settings(e)


TIMED_MAIN = os.path.join(HERE, "_timed_main.py")


def run(cmd, in_process=None):
    """(exit code or None on timeout, wall seconds, CPU seconds, stderr) in a fresh temporary folder; with
    in_process=[], the script's own CPU seconds as _timed_main.py measured them are appended to it."""
    with tempfile.TemporaryDirectory(prefix="ds-speed-") as cwd:
        err_path = os.path.join(cwd, ".stderr")
        out_path = os.path.join(cwd, ".in_process")
        with open(err_path, "w") as err:
            for attempt in range(30):  # a binary being relinked by a build is missing or busy for a moment
                try:
                    start = time.monotonic()
                    p = subprocess.Popen(cmd, cwd=cwd, env=dict(env(), DS_SPEED_OUT=out_path),
                                         stdout=subprocess.DEVNULL, stderr=err)
                    break
                except OSError:
                    if attempt == 29:
                        raise
                    time.sleep(2)
            while True:
                pid, status, usage = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() - start > TIMEOUT_S:
                    p.kill()
                    os.wait4(p.pid, 0)
                    return None, time.monotonic() - start, 0.0, f"timed out after {TIMEOUT_S}s"
                time.sleep(0.01)
            wall = time.monotonic() - start
            p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, so Popen must not wait again
        with open(err_path, errors="replace") as f:
            stderr = f.read()
        if in_process is not None and os.path.exists(out_path):
            with open(out_path) as f:
                in_process.append(float(f.read()))
        return p.returncode, wall, usage.ru_utime + usage.ru_stime, stderr


def ds_command(binary, script, args="", timed=False):
    return [binary, "--backend", "sim", "--sim-devices", "2", "run"] + shlex.split(args) + (
        [TIMED_MAIN, "--", script] if timed else [script])


def probe_files(folder):
    """{what: path} of the start-up probes: an empty script, and one that only imports torch."""
    paths = {}
    for what, text in (("empty", ""), ("import torch", "import torch\n")):
        paths[what] = os.path.join(folder, what.replace(" ", "_") + ".py")
        with open(paths[what], "w") as f:
            f.write(text)
    return paths


def probe(binary, path, startups, what):
    """Runs one start-up probe on each side and keeps it in startups[(side, what)] (a list of (wall, cpu))."""
    for side, cmd in (("devicescope", ds_command(binary, path)), ("real", [REF_PYTHON, path])):
        for attempt in range(3):  # retried: a build beside this one can leave the binary unusable briefly
            rc, wall, cpu, err = run(cmd)
            if rc == 0:
                break
            if attempt == 2:
                raise SystemExit(f"start-up probe failed: {shlex.join(cmd)}\n{err[-2000:]}")
            time.sleep(10)
        startups.setdefault((side, what), []).append((wall, cpu))


def best(runs):
    """(wall, cpu): each the minimum over the runs (a loaded machine only ever adds time)."""
    return min(w for w, _ in runs), min(c for _, c in runs)


def main(argv):
    min_work, repeat = 0.5, 1
    args = []
    it = iter(argv[1:])
    for a in it:
        if a == "--min-work":
            min_work = float(next(it))
        elif a == "--repeat":
            repeat = int(next(it))
        else:
            args.append(a)
    if not args:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    binary = os.path.abspath(args[0])
    if not os.access(binary, os.X_OK):
        print(f"devicescope binary not found or not executable: {binary}")
        return 1
    probe_torch = subprocess.run([REF_PYTHON, "-c", "import torch"], capture_output=True, env=env())
    if probe_torch.returncode != 0:  # nothing to compare with: skipped (ctest SKIP_RETURN_CODE), not failed
        print(f"skipped: {REF_PYTHON} cannot import torch")
        return 77
    scripts = collect(args[1:] or [os.path.join(HERE, "..", "realcode")])
    scripts = [s for s in scripts if headers(s).get("reference") == "real"]
    if not scripts:
        print("no script marked '# reference: real' among the paths given", file=sys.stderr)
        return 2

    # The import-torch probe runs again before every script and the best of all is the start-up: a single
    # early measurement taken while something else loads the machine would be taken off every script.
    startups, times, failed = {}, [], 0
    with tempfile.TemporaryDirectory(prefix="ds-speed-probes-") as folder:
        probes = probe_files(folder)
        for _ in range(3):
            probe(binary, probes["empty"], startups, "empty")
            probe(binary, probes["import torch"], startups, "import torch")
        for script in scripts:
            probe(binary, probes["import torch"], startups, "import torch")
            name = os.path.splitext(os.path.basename(script))[0]
            sides, in_process, ok = {}, {}, True
            commands = (("devicescope", ds_command(binary, script, headers(script).get("args", ""), timed=True)),
                        ("real", [REF_PYTHON, TIMED_MAIN, script]))
            # The sides alternate (A B A B ...): a slow spell of the machine then slows a run of each side,
            # where N runs of one side followed by N of the other could land on one side only.
            for _ in range(repeat):
                for side, cmd in commands:
                    if not ok:
                        break
                    rc, wall, cpu, err = run(cmd, in_process.setdefault(side, []))
                    if rc != 0:
                        print(f"FAIL {name}: {side} exit code {rc}\n  command: {shlex.join(cmd)}\n  " +
                              "\n  ".join(err.rstrip().split("\n")[-10:]), flush=True)
                        failed += 1
                        ok = False
                    else:
                        sides.setdefault(side, []).append((wall, cpu))
            if ok and len(sides) == 2:
                own = tuple(min(in_process[s]) if in_process.get(s) else None for s in ("devicescope", "real"))
                times.append((name, best(sides["devicescope"]), best(sides["real"]), own))
                print(f"ran  {name}", flush=True)

    for what in ("empty", "import torch"):
        (dw, dc), (rw, rc) = best(startups[("devicescope", what)]), best(startups[("real", what)])
        print(f"start-up ({what} script, best of {len(startups[('real', what)])}): devicescope {dw:.2f}s wall / "
              f"{dc:.2f}s CPU, real PyTorch {rw:.2f}s wall / {rc:.2f}s CPU")
    ds0, ref0 = best(startups[("devicescope", "import torch")]), best(startups[("real", "import torch")])

    rows = []  # (cpu ratio, wall ratio, in-process cpu ratio or None, name)
    # Work under 0.05 s reads as 0.05 s, so a script that does almost nothing cannot give a huge ratio.
    net = lambda t, t0: max(t - t0, 0.05)  # noqa: E731
    for name, (dw, dc), (rw, rc_), (ds_own, real_own) in times:
        cpu_ratio, wall_ratio = net(dc, ds0[1]) / net(rc_, ref0[1]), net(dw, ds0[0]) / net(rw, ref0[0])
        own_ratio = None if ds_own is None or real_own is None else max(ds_own, 0.05) / max(real_own, 0.05)
        counted = max(rc_ - ref0[1], dc - ds0[1]) >= min_work
        own = "" if own_ratio is None else f" | in-process CPU {ds_own:.2f}s vs {real_own:.2f}s x{own_ratio:.2f}"
        print(f"{'ok  ' if counted else 'skip'} {name:32s} devicescope {dw:6.2f}s wall {dc:6.2f}s CPU | real "
              f"{rw:6.2f}s wall {rc_:6.2f}s CPU | net ratio CPU x{cpu_ratio:.2f}, wall x{wall_ratio:.2f}" + own
              + ("" if counted else f"  (under {min_work:g}s of torch work on both sides)"))
        if counted:
            rows.append((cpu_ratio, wall_ratio, own_ratio, name))

    if rows:
        measured = [r for r in rows if r[2] is not None]
        if measured:  # the script's own CPU time, from inside each process: no start-up to subtract
            ratios = sorted(measured, key=lambda r: r[2])
            print(f"in-process CPU time, {len(measured)} scripts: median x{statistics.median(r[2] for r in measured):.2f}, "
                  f"worst x{ratios[-1][2]:.2f} ({ratios[-1][3]})")
        for label, k in (("CPU time", 0), ("wall time", 1)):
            ratios = sorted(rows, key=lambda r: r[k])
            print(f"net of start-up, {label}, {len(rows)} scripts with >= {min_work:g}s of torch work: "
                  f"median x{statistics.median(r[k] for r in rows):.2f}, "
                  f"worst x{ratios[-1][k]:.2f} ({ratios[-1][3]})")
    else:
        print(f"no script had >= {min_work:g}s of torch work: nothing measured")
    print(f"{len(scripts) - failed} ran, {failed} failed")
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

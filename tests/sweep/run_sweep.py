#!/usr/bin/python3
"""Random conformance sweep: programs from generate.py run under real PyTorch and under `devicescope run`.

    run_sweep.py DEVICESCOPE_BINARY [--count 1000] [--seed 1] [--batch 50] [--jobs 2] [--max-report 20]
                 [--kind modules|ops]

Many programs go into one script per process (each wrapped so one failure does not stop the others, each
printing a "### program SEED:INDEX" header) and stdout is compared per program, line for line. A
divergence prints the diff and the whole program (rerun it alone: generate.py --seed S --index I). If a
process dies (crash, timeout) the program it was in fails and the rest of its batch runs again.
The last line is exactly "N passed, M failed". Exit code 0 when all passed, 1 otherwise, 77 when real
PyTorch is missing outside CI (with CI set that is a failure). Plain Python: never imports torch itself.
"""
import argparse
import concurrent.futures
import difflib
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from blas_env import with_reference_blas  # noqa: E402

REF_PYTHON = os.environ.get("DEVICESCOPE_REF_PYTHON", "/usr/bin/python3")
SKIP_EXIT = 77
HEADER = "### "


def clean_env():
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    return with_reference_blas(env)  # one BLAS for both sides (blas_env.py)


def reference_problem():
    probe = "import torch, sys; sys.stdout.write(torch.__file__)"
    try:
        p = subprocess.run([REF_PYTHON, "-c", probe], capture_output=True, text=True, timeout=120, cwd="/",
                           env=clean_env())
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"cannot run {REF_PYTHON}: {e}"
    if p.returncode != 0:
        return f"{REF_PYTHON} cannot import torch: {(p.stderr.strip().splitlines() or [''])[-1]}"
    if "engine/python" in p.stdout:
        return f"{REF_PYTHON} imported DeviceScope's torch: {p.stdout}"
    return None


def split_programs(stdout):
    """{program name: its output lines}, in order; the name of the last program started (or None)."""
    out, current = {}, None
    for line in stdout.split("\n"):
        if line.startswith(HEADER):
            current = line[len(HEADER):]
            out[current] = []
        elif current is not None:
            out[current].append(line)
    if current is not None and out[current] and out[current][-1] == "":
        out[current].pop()
    return out, current


def run_batch(cmd, script, timeout):
    try:
        p = subprocess.run(cmd + [script], capture_output=True, text=True, timeout=timeout, cwd=os.path.dirname(script),
                           env=clean_env(), errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out, f"timed out after {timeout}s"


def run_programs(cmd, seed, indices, workdir, tag, timeout, kind):
    """{index: (lines, problem or None)} for every program; reruns what follows a program that killed its process."""
    results, pending, attempt = {}, list(indices), 0
    while pending:
        attempt += 1
        script = os.path.join(workdir, f"{tag}_{pending[0]}_{attempt}.py")
        with open(script, "w") as f:
            f.write(generate.batch_script(seed, pending, kind))
        rc, stdout, stderr = run_batch(cmd, script, timeout)
        outputs, last = split_programs(stdout)
        names = {generate.program_name(seed, i): i for i in pending}
        if rc == 0:
            for name, i in names.items():
                results[i] = (outputs.get(name, []), None if name in outputs else "no output (header missing)")
            break
        # the process died inside `last` (or before the first header)
        died = names.get(last, pending[0])
        tail = "\n".join(stderr.rstrip().split("\n")[-12:])
        for name, i in names.items():
            if name in outputs and i != died:
                results[i] = (outputs[name], None)
        results[died] = (outputs.get(generate.program_name(seed, died), []),
                         f"the process died (exit {rc}) in this program; stderr tail:\n{tail}")
        pending = [i for i in pending if i not in results]
    return results


def _error_of(line):
    """The error type of a printed result line ('LABEL error TYPE message'), or None."""
    parts = line.split(" ", 3)
    return parts[2] if len(parts) >= 3 and parts[1] == "error" else None


def first_difference(exp_lines, got_lines):
    """The category of the first line where the two runs differ (how a divergence is bucketed)."""
    for e, g in zip(exp_lines, got_lines):
        if e != g:
            break
    else:
        return "missing or extra lines"
    ee, ge = _error_of(e), _error_of(g)
    if ee and ge:
        return "error text" if ee == ge else "error type"
    if ee or ge:
        return "raises on one side only"
    if " warning " in e or " warning " in g:
        return "warnings"
    return "values, strides or sharing"


def main(argv):
    ap = argparse.ArgumentParser(description="random conformance sweep against real PyTorch")
    ap.add_argument("devicescope")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=50, help="programs per process")
    ap.add_argument("--jobs", type=int, default=2, help="processes at a time")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per batch process")
    ap.add_argument("--max-report", type=int, default=20, help="divergences printed in full")
    ap.add_argument("--kind", choices=generate.KINDS, default="modules", help="which program generator")
    args = ap.parse_args(argv)

    problem = reference_problem()
    if problem:
        if os.environ.get("CI"):
            print(f"FAIL: real PyTorch is required when CI is set: {problem}\n0 passed, {args.count} failed")
            return 1
        print(f"SKIP: {problem}\n0 passed, 0 failed")
        return SKIP_EXIT
    binary = os.path.abspath(args.devicescope)
    if not os.access(binary, os.X_OK):
        print(f"devicescope binary not found or not executable: {binary}\n0 passed, {args.count} failed")
        return 1
    ds_cmd = [binary, "--backend", "sim", "--sim-devices", "2", "run"]
    ref_cmd = [REF_PYTHON]
    indices = list(range(args.count))
    batches = [indices[i:i + args.batch] for i in range(0, len(indices), args.batch)]
    expected, got = {}, {}
    with tempfile.TemporaryDirectory(prefix="ds_sweep_") as work, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        jobs = []
        for b in batches:
            jobs.append((expected, pool.submit(run_programs, ref_cmd, args.seed, b, work, "ref", args.timeout, args.kind)))
            jobs.append((got, pool.submit(run_programs, ds_cmd, args.seed, b, work, "ds", args.timeout, args.kind)))
        for target, job in jobs:
            target.update(job.result())

    passed = failed = reported = 0
    categories = {}
    for i in indices:
        name = generate.program_name(args.seed, i)
        exp_lines, exp_problem = expected[i]
        got_lines, got_problem = got[i]
        problems = []
        if exp_problem or any(l.startswith("!!! uncaught") for l in exp_lines):
            problems.append("GENERATOR BUG: the program fails under real PyTorch: " +
                            (exp_problem or next(l for l in exp_lines if l.startswith("!!!"))))
        if got_problem:
            problems.append(got_problem)
        if exp_lines != got_lines:
            cat = first_difference(exp_lines, got_lines)
            categories[cat] = categories.get(cat, 0) + 1
            diff = difflib.unified_diff(exp_lines, got_lines, "real torch", "devicescope", lineterm="", n=2)
            problems.append("stdout differs:\n" + "\n".join("    " + d for d in diff))
        if not problems:
            passed += 1
            continue
        failed += 1
        if reported < args.max_report:
            reported += 1
            print(f"FAIL {name}  (rerun alone: tests/sweep/generate.py --kind {args.kind} --seed {args.seed} --index {i})")
            for p in problems:
                print("  " + p)
            body = generate.program_lines(args.seed, i, args.kind)
            print("  program:\n" + "\n".join("    | " + l for l in body), flush=True)
    if failed > reported:
        print(f"({failed - reported} more failures not shown; --max-report)")
    if categories:
        print("by first differing line: " + ", ".join(f"{n} {c}" for c, n in sorted(categories.items(),
                                                                                      key=lambda kv: -kv[1])))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

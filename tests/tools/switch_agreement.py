"""Runs a script twice under `devicescope run` on two simulated GPUs - with an implementation switched off by an
environment variable (the reference) and with it on - and wants the same stdout. Each script prints a marker
line first (which implementation it ran on), so a run that did not take the path it was meant to fails instead
of comparing a path with itself. Shared by run_fast_path_agreement.py and run_autograd_engine_agreement.py.
Plain Python 3: this process never imports torch."""
import difflib
import os
import subprocess

TIMEOUT_S = 300


def run(binary, script, env_var, reference):
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop(env_var, None)
    if reference:
        env[env_var] = "1"
    script = os.path.abspath(script)
    p = subprocess.run([os.path.abspath(binary), "--backend", "sim", "--sim-devices", "2", "run", script],
                       capture_output=True, text=True, timeout=TIMEOUT_S, env=env, cwd=os.path.dirname(script))
    return p.returncode, p.stdout.splitlines(), p.stderr


def check(binary, script, env_var, reference, candidate):
    """reference/candidate: (label, marker line). Prints ok/FAIL for the script; returns whether it agrees."""
    problems = []
    results = {}
    for is_reference, (label, marker) in ((False, candidate), (True, reference)):
        rc, lines, err = run(binary, script, env_var, is_reference)
        if rc != 0:
            problems.append(f"exit status {rc} with the {label}:\n{err[-3000:]}")
        elif not lines or lines[0] != marker:
            problems.append(f"first line {lines[0] if lines else '(none)'!r}, wanted {marker!r}")
        results[is_reference] = lines[1:]
    if not problems and results[True] != results[False]:
        diff = difflib.unified_diff(results[True], results[False], reference[0], candidate[0], lineterm="", n=1)
        problems.append("\n".join(list(diff)[:80]))
    name = os.path.basename(script)
    if problems:
        print(f"FAIL {name}")
        for p in problems:
            print("  " + p.replace("\n", "\n  "))
        return False
    print(f"ok   {name} ({len(results[False])} lines agree)")
    return True


def main(argv, usage, env_var, reference, candidate):
    if len(argv) < 3:
        print(usage)
        return 2
    ok = [check(argv[1], s, env_var, reference, candidate) for s in argv[2:]]
    print(f"{sum(ok)} passed, {len(ok) - sum(ok)} failed")
    return 0 if all(ok) else 1

#!/usr/bin/python3
"""End to end: the conventions of every `devicescope` command line (app/cli/command_line.h).

Usage: check_command_line.py DEVICESCOPE_BINARY

- global options (--backend, --sim-devices, --sim-memory, --link) work before and after the subcommand;
  where they cannot apply (inspect, diff, record) they are refused, never silently ignored; the desktop
  app's flags next to a subcommand are refused too;
- usage errors exit 2 with one `devicescope: ...` line, unexpected arguments in the order typed;
- `run SCRIPT [ARGS...]` gives the script everything after it, and sys.argv and sys.path[0] are what
  /usr/bin/python3 gives the same script (run's own options still come before the script); `record` too;
- `--lesson` takes a number (`--lesson 3`, `--lesson 0`), a name or a path;
- `lessons --check` reports a step that stopped before its expected output (it crashed the checker).
Ends with "N passed, M failed"; exits 1 on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile

PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
TIMEOUT_S = 300

ARGV_SCRIPT = """import json, os, sys
import sibling
print(json.dumps({"argv": sys.argv, "path0": sys.path[0], "sibling": sibling.NAME}))
"""


def run(binary, args, cwd=None):
    p = subprocess.run([binary] + args, capture_output=True, text=True, timeout=TIMEOUT_S, cwd=cwd,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def device_lines(out):
    return [line for line in out.splitlines() if line.startswith("cuda:")]


def usage_problem(code, err, fragment):
    """A usage error: exit 2, first stderr line `devicescope: ...` containing the fragment, no CLI11 codes."""
    first = err.splitlines()[0] if err else ""
    if code != 2:
        return f"exit {code}, not 2 ({first!r})"
    if not first.startswith("devicescope: "):
        return f"first stderr line lacks the devicescope: prefix: {first!r}"
    if fragment.lower() not in first.lower():  # the words are the check, not their case
        return f"{fragment!r} not in {first!r}"
    return None


def case_global_options_anywhere(binary, tmp):
    problems = []
    for args, count in ((["devices", "--backend", "sim", "--sim-devices", "1"], 1),
                        (["--backend", "sim", "devices", "--sim-devices", "3"], 3),
                        (["--sim-devices", "2", "devices", "--link", "nvlink-c2c", "--sim-memory", "1GiB"], 2)):
        code, out, err = run(binary, args)
        if code != 0:
            problems.append(f"{args}: exit {code}: {err.strip()[:200]}")
        elif len(device_lines(out)) != count:
            problems.append(f"{args}: {len(device_lines(out))} devices listed, not {count}")
    code, out, _ = run(binary, ["devices", "--sim-memory", "2GiB", "--link", "nvlink-c2c", "--backend", "sim"])
    if code != 0 or not all("2.00 GiB" in line and "nvlink-c2c" in line for line in device_lines(out)):
        problems.append(f"options after `devices` were not applied: {device_lines(out)}")
    return problems


def case_options_that_do_not_apply(binary, tmp):
    problems = []
    for args, fragment in ((["--backend", "cuda", "inspect", "x.pickle"], "--backend does not apply to `inspect`"),
                           (["inspect", "x.pickle", "--sim-devices", "1"], "--sim-devices does not apply to `inspect`"),
                           (["diff", "a", "b", "--link", "pcie5-x16"], "--link does not apply to `diff`"),
                           (["--backend", "sim", "record", "x.py"], "--backend does not apply to `record`"),
                           (["--script", "x.py", "devices"], "--script is an option of the desktop app"),
                           (["--lesson", "3", "run", "x.py"], "--lesson is an option of the desktop app")):
        code, _, err = run(binary, args, cwd=tmp)
        p = usage_problem(code, err, fragment)
        if p:
            problems.append(f"{args}: {p}")
    return problems


def case_usage_errors_exit_2(binary, tmp):
    problems = []
    for args, fragment in ((["devices", "extra1", "extra2"], "unrecognized arguments: extra1 extra2"),
                           (["bogus"], "unrecognized arguments: bogus"),
                           (["run"], "script is required"),
                           (["run", "--timeout"], "--timeout"),
                           (["--backend", "bogus", "devices"], "--backend: bogus not in"),
                           (["devices", "--sim-devices", "99"], "--sim-devices"),
                           (["devices", "--no-such-option"], "--no-such-option"),
                           (["diff", "only-one"], "b is required")):
        code, _, err = run(binary, args, cwd=tmp)
        p = usage_problem(code, err, fragment)
        if p:
            problems.append(f"{args}: {p}")
    for args in (["--help"], ["--version"], ["run", "--help"], ["devices", "--help"]):
        code, out, err = run(binary, args)
        if code != 0 or not out.strip():
            problems.append(f"{args}: exit {code}, stdout {out[:80]!r}, stderr {err[:200]!r}")
    return problems


def script_run(binary, tmp, ds_args, script_args, trace=None):
    """(devicescope's json line, python3's json line) for the argv script with these arguments."""
    script = os.path.join(tmp, "scripts", "show_argv.py")
    code, out, err = run(binary, ["run"] + ds_args + [script] + script_args, cwd=tmp)
    if code != 0:
        return None, f"exit {code}: {err.strip()[-300:]}"
    return json.loads(out.strip().splitlines()[-1]), None


def python3_view(tmp, script_args):
    script = os.path.join(tmp, "scripts", "show_argv.py")
    p = subprocess.run([PYTHON, script] + script_args, capture_output=True, text=True, cwd=tmp, timeout=TIMEOUT_S)
    return json.loads(p.stdout.strip().splitlines()[-1])


def case_run_passes_arguments_like_python3(binary, tmp):
    problems = []
    for script_args in (["--steps", "2"], ["--steps", "2", "--", "x"], ["--trace", "t.json", "-v"],
                        ["--backend", "cuda", "--help"], ["plain", "--sim-devices", "0"], []):
        got, err = script_run(binary, tmp, [], script_args)
        want = python3_view(tmp, script_args)
        if err:
            problems.append(f"run SCRIPT {' '.join(script_args)}: {err}")
        elif got != want:
            problems.append(f"run SCRIPT {' '.join(script_args)}: {got} != python3's {want}")
    if os.path.exists(os.path.join(tmp, "t.json")):
        problems.append("`--trace t.json` after the script was taken by run, not given to the script")
    # run's own options before the script still work, and the older `SCRIPT -- ARGS` form drops its `--`.
    got, err = script_run(binary, tmp, ["--trace", "own.json", "--backend", "sim"], ["--x"])
    if err or got["argv"][1:] != ["--x"] or not os.path.exists(os.path.join(tmp, "own.json")):
        problems.append(f"run --trace own.json --backend sim SCRIPT --x: {err or got['argv']}, "
                        f"trace written: {os.path.exists(os.path.join(tmp, 'own.json'))}")
    got, err = script_run(binary, tmp, [], ["--", "a", "--b"])
    if err or got["argv"][1:] != ["a", "--b"]:
        problems.append(f"run SCRIPT -- a --b: {err or got['argv']}")
    return problems


def case_record_passes_arguments_like_python3(binary, tmp):
    """`record SCRIPT ARGS...` too (the same layer): its options before the script, the rest the script's."""
    if subprocess.run([PYTHON, "-c", "import torch"], capture_output=True).returncode != 0:
        return []  # no real PyTorch to record under: nothing to check here (record's own tests say so)
    script = os.path.join(tmp, "scripts", "show_argv.py")
    out = os.path.join(tmp, "r.json")
    code, stdout, err = run(binary, ["record", "--python", PYTHON, "--out", out, script, "--x", "1", "--out", "y"],
                            cwd=tmp)
    want = python3_view(tmp, ["--x", "1", "--out", "y"])
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    got = json.loads(lines[-1]) if lines else None
    if code != 0 or got is None or got["argv"][1:] != want["argv"][1:] or not os.path.exists(out):
        return [f"exit {code}, argv {got and got['argv']} (python3: {want['argv']}), stderr {err[-300:]!r}"]
    return []


def write_lesson(folder, name, text):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)


LESSON = "# %% lesson: {title}\n# %% step: A\nx = 1\n# expect: x == 1\n"


def case_lesson_numbers(binary, tmp):
    problems = []
    folder = os.path.join(tmp, "lessons")
    for name in ("000_zero.py", "003_three.py", "010_ten.py", "011_eleven.py"):
        write_lesson(folder, name, LESSON.format(title=name[:-3]))
    for wanted, stem in (("3", "003_three"), ("0", "000_zero"), ("003", "003_three"), ("10", "010_ten"),
                         ("011_eleven", "011_eleven"), ("01", "001"), (os.path.join(folder, "010_ten.py"), "010_ten")):
        code, out, err = run(binary, ["lessons", "--list", "--dir", folder, "--lesson", wanted])
        if stem == "001":  # no lesson 1: a clear refusal, exit 2
            if code != 2 or "no lesson number 1" not in err:
                problems.append(f"--lesson {wanted}: exit {code}, {err.strip()[:200]!r}")
            continue
        names = [line.split()[0] for line in out.splitlines() if line.strip()]
        if code != 0 or names != [stem]:
            problems.append(f"--lesson {wanted}: exit {code}, listed {names}, stderr {err.strip()[:200]!r}")
    return problems


def case_lesson_check_reports_a_stopped_step(binary, tmp):
    folder = os.path.join(tmp, "stopped")
    write_lesson(folder, "000_stops.py", "# %% lesson: Stops\n# %% step: A\nprint('a')\nraise RuntimeError('boom')\n"
                                         "# expect-stdout: a\n# expect-stdout: b\n")
    code, out, err = run(binary, ["--sim-devices", "0", "lessons", "--check", "--dir", folder])
    if code != 1 or "the step stopped early: RuntimeError: boom" not in out or "Traceback" in err:
        return [f"exit {code}, stdout {out[-400:]!r}, stderr {err[-400:]!r}"]
    return []


CASES = [case_global_options_anywhere, case_options_that_do_not_apply, case_usage_errors_exit_2,
         case_run_passes_arguments_like_python3, case_record_passes_arguments_like_python3, case_lesson_numbers,
         case_lesson_check_reports_a_stopped_step]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    passed = failed = 0
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "scripts"))
            with open(os.path.join(tmp, "scripts", "show_argv.py"), "w") as f:
                f.write(ARGV_SCRIPT)
            with open(os.path.join(tmp, "scripts", "sibling.py"), "w") as f:
                f.write("NAME = 'sibling next to the script'\n")
            try:
                problems = case(binary, tmp)
            except Exception as e:  # noqa: BLE001 - a crash in a case is its failure
                problems = [f"{type(e).__name__}: {e}"]
        if problems:
            failed += 1
            print(f"FAIL {case.__name__}")
            for p in problems:
                print(f"  {p}")
        else:
            passed += 1
            print(f"ok   {case.__name__}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

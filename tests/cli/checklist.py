"""What the `devicescope run --trace` end-to-end checks share (check_trace_names.py, check_run_trace_roles.py):
running a training script through `devicescope --backend sim run`, and the list of named checks they report."""
import os
import subprocess

TIMEOUT_S = 300


def run_script(binary, folder, script, export_args):
    """Writes `script` as train.py in `folder` and runs `devicescope --backend sim run EXPORT_ARGS train.py` there."""
    with open(os.path.join(folder, "train.py"), "w") as f:
        f.write(script)
    return subprocess.run([binary, "--backend", "sim", "run", *export_args, "train.py"], cwd=folder,
                          capture_output=True, text=True, timeout=TIMEOUT_S)


def report_checks(checks):
    """Prints each (name, passed, detail) check, the detail under a failed one, then "N passed, M failed";
    returns the exit status (1 on any failure)."""
    failed = 0
    for name, ok, detail in checks:
        print(("ok   " if ok else "FAIL ") + name)
        if not ok:
            failed += 1
            print("  " + detail)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0

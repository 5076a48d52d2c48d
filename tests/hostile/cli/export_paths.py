#!/usr/bin/python3
"""End to end: where `devicescope run --csv/--trace` writes, whatever the script and the path do.

Usage: export_paths.py DEVICESCOPE_BINARY

  - relative export paths mean the directory the command started in, even when the script calls os.chdir;
  - a symlink is followed: its target gets the export in place (the same inode), the link stays a link;
  - a file with another hard link is written in place (both names still show one file, with the export);
  - `--csv /dev/stdout` with stdout redirected to a file appends the CSV after what the script printed;
  - a FIFO with a reader is written through (the reader gets the CSV); one with no reader is refused at once
    (exit 2, "no process is reading the FIFO") and stays a FIFO;
  - a temporary left by an export that was killed (`r.csv.tmp.<dead pid>.<n>`) is removed by the next export.
Every run must end by itself (a hang guard of 300 s, never a speed bound). Ends with "N passed, M failed".
"""
import os
import stat
import subprocess
import sys
import tempfile
import threading

SCRIPT = """import os, sys
import torch
x = torch.ones(4).to("cuda").cpu()
if len(sys.argv) > 1:
    os.chdir(sys.argv[1])
print("done", flush=True)
"""
HANG_GUARD_S = 300
CSV_HEADER = "id,src,dst,bytes,route,"


def run(binary, cwd, script, exports, script_args=()):
    cmd = [binary, "--backend", "sim", "--sim-devices", "1", "run"] + exports + [script] + list(script_args)
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=HANG_GUARD_S, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "hung"
    return p.returncode, p.stderr.decode("utf-8", "replace")


def is_csv(path):
    with open(path) as f:
        return f.read().startswith(CSV_HEADER)


def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def case_relative_paths_and_chdir(binary, out, script):
    start, elsewhere = os.path.join(out, "start"), os.path.join(out, "elsewhere")
    os.makedirs(start)
    os.makedirs(elsewhere)
    os.makedirs(os.path.join(start, "sub"))
    code, err = run(binary, start, script, ["--csv", "r.csv", "--trace", "sub/../r.json"], [elsewhere])
    problems = [] if code == 0 else [f"exit code {code}: {err[-500:]}"]
    if sorted(os.listdir(elsewhere)):
        problems.append(f"exports followed the script's os.chdir: {sorted(os.listdir(elsewhere))}")
    if not os.path.exists(os.path.join(start, "r.csv")) or not os.path.exists(os.path.join(start, "r.json")):
        problems.append(f"exports missing from the starting directory: {sorted(os.listdir(start))}")
    return problems


def case_symlink_followed(binary, out, script):
    data = os.path.join(out, "data")
    os.makedirs(data)
    with open(os.path.join(data, "real.csv"), "w") as f:
        f.write("old\n")
    before = os.stat(os.path.join(data, "real.csv")).st_ino
    link = os.path.join(out, "latest.csv")
    os.symlink(os.path.join(data, "real.csv"), link)
    code, err = run(binary, out, script, ["--csv", link])
    problems = [] if code == 0 else [f"exit code {code}: {err[-500:]}"]
    if not os.path.islink(link):
        problems.append("the symlink was replaced by a regular file")
    if not is_csv(os.path.join(data, "real.csv")):
        problems.append("the symlink's target did not get the export")
    if os.stat(os.path.join(data, "real.csv")).st_ino != before:
        problems.append("the symlink's target was replaced by a new file (a new inode), not written in place")
    if os.listdir(data) != ["real.csv"]:
        problems.append(f"files left beside the target: {sorted(os.listdir(data))}")
    return problems


def case_hard_link_kept(binary, out, script):
    first, second = os.path.join(out, "r.csv"), os.path.join(out, "also.csv")
    with open(first, "w") as f:
        f.write("old\n")
    os.link(first, second)
    code, err = run(binary, out, script, ["--csv", first])
    problems = [] if code == 0 else [f"exit code {code}: {err[-500:]}"]
    if not os.path.samefile(first, second):
        problems.append("the export split the file from its other hard link")
    if not is_csv(second):
        problems.append("the other hard link does not show the export")
    return problems


def case_stdout_redirected_to_a_file(binary, out, script):
    # `devicescope run --csv /dev/stdout s.py > out.txt`: the CSV follows what the script printed, in the same
    # file (the shell's), which is never replaced.
    target = os.path.join(out, "out.txt")
    with open(target, "w") as f:
        before = os.fstat(f.fileno()).st_ino
        cmd = [binary, "--backend", "sim", "--sim-devices", "1", "run", "--csv", "/dev/stdout", script]
        try:
            p = subprocess.run(cmd, cwd=out, stdout=f, stderr=subprocess.PIPE, timeout=HANG_GUARD_S,
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return ["hung"]
    problems = [] if p.returncode == 0 else [f"exit code {p.returncode}: {p.stderr[-500:]!r}"]
    if os.stat(target).st_ino != before:
        problems.append("the file stdout was redirected to was replaced (a new inode)")
    with open(target) as f:
        text = f.read()
    if not text.startswith("done\n" + CSV_HEADER):
        problems.append(f"the file does not hold the script's output, then the CSV: {text[:120]!r}")
    if sorted(os.listdir(out)) != ["out.txt", "s.py"]:
        problems.append(f"unexpected files: {sorted(os.listdir(out))}")
    return problems


def case_fifo_with_reader(binary, out, script):
    fifo = os.path.join(out, "pipe.csv")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
    reader.start()  # blocks in open() until devicescope opens the FIFO for writing
    code, err = run(binary, out, script, ["--csv", fifo])
    reader.join(timeout=HANG_GUARD_S)
    problems = [] if code == 0 else [f"exit code {code}: {err[-500:]}"]
    if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
        problems.append("the FIFO was replaced by a regular file")
    if not got or not got[0].startswith(CSV_HEADER):
        problems.append(f"the FIFO's reader did not get the CSV: {got[:1]!r}")
    return problems


def case_fifo_without_reader(binary, out, script):
    fifo = os.path.join(out, "nobody.csv")
    os.mkfifo(fifo)
    code, err = run(binary, out, script, ["--csv", fifo])
    problems = []
    if code != 2:
        problems.append(f"exit code {code}, expected 2")
    if f"devicescope: cannot write {fifo}: no process is reading the FIFO" not in err:
        problems.append(f"stderr lacks the refusal: {err[-500:]!r}")
    if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
        problems.append("the FIFO was replaced by a regular file")
    return problems


def case_stale_temporary_removed(binary, out, script):
    stale = os.path.join(out, f"r.csv.tmp.{dead_pid()}.0")
    with open(stale, "w") as f:
        f.write("half an export from a run that was killed\n")
    code, err = run(binary, out, script, ["--csv", os.path.join(out, "r.csv")])
    problems = [] if code == 0 else [f"exit code {code}: {err[-500:]}"]
    if os.path.exists(stale):
        problems.append("the dead run's temporary is still there")
    if sorted(os.listdir(out)) != ["r.csv", "s.py"]:
        problems.append(f"unexpected files: {sorted(os.listdir(out))}")
    return problems


CASES = [case_relative_paths_and_chdir, case_symlink_followed, case_hard_link_kept, case_stdout_redirected_to_a_file,
         case_fifo_with_reader, case_fifo_without_reader, case_stale_temporary_removed]


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    passed = failed = 0
    for case in CASES:
        name = case.__name__[len("case_"):]
        with tempfile.TemporaryDirectory(prefix="ds_export_paths_") as out:
            script = os.path.join(out, "s.py")
            with open(script, "w") as f:
                f.write(SCRIPT)
            problems = case(binary, out, script)
        if problems:
            failed += 1
            print(f"FAIL {name}\n  " + "\n  ".join(problems))
        else:
            passed += 1
            print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

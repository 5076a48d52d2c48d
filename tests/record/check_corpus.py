#!/usr/bin/env python3
"""Records one script of tests/record/corpus (everyday training code) with `devicescope record` under a real
PyTorch and checks the recording against the expectations written in the script's header comments:

  # expect-exit: N                 the exit status of `devicescope record` (the script's own)
  # expect-stdout: TEXT            printed by the script (each line a separate expectation)
  # expect-stderr: TEXT
  # expect-owners: A, B, ...       storages allocated under these owner names (the recording's alloc events)
  # expect-transfer-owner: A       a copy whose owner is A (autocast's casts of a weight, a .to())
  # requires: torch.compile        skipped (exit 77, said why) when the torch has no torch.compile
  # launcher: torchrun N           run under `torchrun --nproc_per_node N --no_python devicescope record`:
                                   one recording per rank, each checked

Every recording must also keep the script, its arguments and its exit status in its metadata, and open in
`devicescope inspect --json`.

  check_corpus.py --devicescope BIN --python PY --work DIR NAME
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(77)


def expectations(path):
    want = {}
    for line in open(path):
        if not line.startswith("#"):
            break
        key, sep, value = line[1:].strip().partition(":")
        if sep and key.strip() in ("expect-exit", "expect-stdout", "expect-stderr", "expect-owners",
                                   "expect-transfer-owner", "requires", "launcher"):
            want.setdefault(key.strip(), []).append(value.strip() if key.strip() != "expect-stdout" else value[1:].rstrip("\n"))
    return want


def torch_has(python, attribute):
    run = subprocess.run([python, "-c", "import torch, sys; sys.stdout.write('%s %d' % (torch.__version__, "
                                        "hasattr(torch, '" + attribute + "')))"], capture_output=True, text=True)
    version, has = run.stdout.split()
    return version, has == "1"


def torchrun(python):
    """The torchrun command line: Debian's /usr/bin/torchrun, else the module it runs."""
    found = shutil.which("torchrun")
    return [found] if found else [python, "-m", "torch.distributed.run"]


def check_file(args, path, script, script_args, want, status):
    if not os.path.exists(path):
        fail("no recording at %s" % path)
    trace = json.load(open(path))
    meta = trace["metadata"]
    if (meta.get("script"), meta.get("script_args"), meta.get("exit_status")) != (script, script_args, status):
        fail("metadata script/args/exit: %s %s %s, expected %s %s %s" % (
            meta.get("script"), meta.get("script_args"), meta.get("exit_status"), script, script_args, status))
    if status and not meta.get("ended_by") and status == 1:
        fail("a failed run's recording does not say what ended it")
    owners = {row[7] for row in trace["devicescopeEvents"] if row[1] == "alloc"}
    roles = trace["devicescopeRecorder"]["storage_roles"]
    for line in want.get("expect-owners", []):
        for name in (n.strip() for n in line.split(",")):
            if name not in owners:
                fail("no storage named %r; the names: %s" % (name, sorted(owners)))
            ids = [row[4] for row in trace["devicescopeEvents"] if row[1] == "alloc" and row[7] == name]
            role = roles[str(ids[0])]
            expected = ("gradient" if name.endswith(".grad") else "optimizer-state" if ".state[" in name
                        else None)
            if expected and role != expected:
                fail("%s has role %s, expected %s" % (name, role, expected))
    transfers = [e["args"] for e in trace["traceEvents"] if e.get("cat") == "transfer"]
    for name in want.get("expect-transfer-owner", []):
        if not any(t["owner"].split(" @ ")[0] == name for t in transfers):
            fail("no copy owned by %s; copies: %s" % (name, sorted({t["owner"] for t in transfers})))
    run = subprocess.run([args.devicescope, "inspect", "--json", path], capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail("inspect refused %s: %s" % (path, run.stderr))
    report = json.loads(run.stdout)
    if report["events"] != len(trace["devicescopeEvents"]):
        fail("inspect counts %d events, the file has %d" % (report["events"], len(trace["devicescopeEvents"])))
    print("ok: %s: %d events, %d storages named, %d copies" % (path, report["events"], len(owners), len(transfers)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devicescope", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--work", required=True)
    ap.add_argument("name")
    args = ap.parse_args()
    script = os.path.join(CORPUS, args.name + ".py")
    want = expectations(script)
    if subprocess.run([args.python, "-c", "import torch"], capture_output=True).returncode:
        skip("%s has no torch" % args.python)
    for need in want.get("requires", []):
        version, has = torch_has(args.python, need.split(".", 1)[1])
        if not has:
            skip("torch %s has no %s (the script needs it; it came with PyTorch 2.0)" % (version, need))
    work = os.path.join(args.work, args.name)
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, args.name + ".json")
    script_args = [work] if args.name == "checkpoint" else []
    # No `--`: everything after the script is the script's, as with python3 (the checkpoint script gets a folder).
    record = [args.devicescope, "record", "--python", args.python, "--out", out, script] + script_args
    launcher = want.get("launcher", [""])[0].split()
    ranks = 1
    if launcher:
        ranks = int(launcher[1])
        # --redirects/--tee 1: Debian's torch 1.13 torchrun under Python 3.11 cannot parse its default "0"
        # (Std.from_str returns None: IntFlag no longer iterates its zero member); 1 = the ranks' stdout
        # teed to the console, what a user sees anyway.
        record = torchrun(args.python) + ["--standalone", "--nproc_per_node", str(ranks), "--redirects", "1",
                                          "--tee", "1", "--no_python"] + record
    run = subprocess.run(record, capture_output=True, text=True, timeout=600, cwd=work)
    print("$ " + " ".join(record) + "\n" + run.stdout + run.stderr)
    status = int(want.get("expect-exit", ["0"])[0])
    if run.returncode != status:
        fail("exit status %d, expected %d" % (run.returncode, status))
    for text in want.get("expect-stdout", []):
        if text not in run.stdout:
            fail("stdout lacks %r" % text)
    for text in want.get("expect-stderr", []):
        if text not in run.stderr:
            fail("stderr lacks %r" % text)
    if launcher:
        for rank in range(ranks):
            path = os.path.join(work, "%s.rank%d.json" % (args.name, rank))
            check_file(args, path, script, script_args, want, status)
            if json.load(open(path))["metadata"].get("rank") != str(rank):
                fail("%s: rank metadata" % path)
    else:
        check_file(args, out, script, script_args, want, status)


if __name__ == "__main__":
    main()

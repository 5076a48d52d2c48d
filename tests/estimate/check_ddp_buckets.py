#!/usr/bin/python3
"""Conformance: DDP's gradient buckets on DeviceScope equal real PyTorch's (Debian's torch 1.13, CPU, gloo).

Usage: check_ddp_buckets.py DEVICESCOPE_BINARY

Runs tests/estimate/ddp_bucket_cases.py under /usr/bin/python3 (real torch) and under `devicescope run`, and
compares what both print: dist._DEFAULT_FIRST_BUCKET_BYTES, dist._compute_bucket_assignment_by_size for 34
parameter lists x limits (bucket indices and per-bucket limits), and DistributedDataParallel's buckets (parameter
indices and bytes) as built and after the first iteration's rebuild, for 4 models. Exit 77 (skipped) without a
real torch that has torch.distributed.
"""
import json
import os
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "ddp_bucket_cases.py")
PYTHON = "/usr/bin/python3"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


def main():
    binary = sys.argv[1]
    probe = subprocess.run([PYTHON, "-c", "import torch.distributed as d; assert d.is_available()"],
                           capture_output=True)
    if probe.returncode != 0:
        print("skipped: no real torch with torch.distributed")
        return 77
    real = subprocess.run([PYTHON, CASES, free_port()], capture_output=True, text=True, timeout=600)
    ours = subprocess.run([binary, "run", "--backend", "sim", CASES], capture_output=True, text=True, timeout=600)
    if real.returncode != 0 or ours.returncode != 0:
        print("real:", real.returncode, real.stderr[-1500:])
        print("devicescope:", ours.returncode, ours.stderr[-1500:])
        return 1
    a, b = json.loads(real.stdout), json.loads(ours.stdout)
    failed = 0
    if a["first_bucket_bytes"] != b["first_bucket_bytes"]:
        failed += 1
        print("FAIL first bucket bytes", a["first_bucket_bytes"], b["first_bucket_bytes"])
    if len(a["assignments"]) != len(b["assignments"]) or len(a["ddp"]) != len(b["ddp"]):
        print("FAIL case counts differ")
        return 1
    for x, y in zip(a["assignments"], b["assignments"]):
        if x != y:
            failed += 1
            print("FAIL assignment\n  real:", x, "\n  ours:", y)
    for x, y in zip(a["ddp"], b["ddp"]):
        if x != y:
            failed += 1
            print("FAIL ddp", x["model"], "\n  real:", x, "\n  ours:", y)
        else:
            print("ok   ddp", x["model"], "built", [bytes_ for _, bytes_ in x["built"]], "rebuilt",
                  [bytes_ for _, bytes_ in x["rebuilt"]])
    multi = sum(1 for x in a["assignments"] if len(x["indices"]) > 1)
    print(f"{len(a['assignments'])} assignments ({multi} with several buckets), {len(a['ddp'])} DDP models; "
          f"{failed} differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""`devicescope diff A B [--json]` end to end (issue 16: compare two moments).

Usage: check_diff.py DEVICESCOPE WORK_DIR

- Two moments of one PyTorch snapshot (the fixtures of make_fixtures.py): device 0's peak (t:1007, 44.50 MiB
  live, `inspect` agrees) against the snapshot's end (12.50 MiB on device 0): model.py:17's 32 MiB block was
  freed; before the trace (e:0) against the peak: everything at the peak was allocated in between.
- The figures are checked against an independent replay of the fixture's trace done here in Python.
- Two moments of one DeviceScope recording (`devicescope run --trace`): the start against the end shows the
  model's parameters allocated on cuda:0 and the copies that moved them (route, owner, bytes).
- Refusals exit 2: a hostile pickle, a snapshot against a recording, a moment that is not one.
Ends with "N passed, M failed".
"""
import json
import os
import pickle
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MiB = 1 << 20
failures, passed = [], 0


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print("FAIL", what)


def run(devicescope, *args):
    return subprocess.run([devicescope, *args], capture_output=True, text=True, timeout=300)


def live_at(snapshot, device, entries):
    """Live bytes of `device` after `entries` trace entries, replayed forwards from the start (the end
    state minus the trace's net effect), independently of DeviceScope's C++."""
    trace = snapshot["device_traces"][device]
    end = sum(b["size"] for s in snapshot["segments"] if s["device"] == device for b in s["blocks"]
              if b["state"] != "inactive")
    delta = lambda e: e["size"] if e["action"] == "alloc" else -e["size"] if e["action"] == "free_completed" else 0
    start = end - sum(delta(e) for e in trace)
    return start + sum(delta(e) for e in trace[:entries])


def main():
    devicescope, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    subprocess.run(["/usr/bin/python3", os.path.join(HERE, "make_fixtures.py"), work], check=True, stdout=subprocess.DEVNULL)
    snap = os.path.join(work, "v2_small.pickle")
    with open(snap, "rb") as f:
        data = pickle.load(f)  # our own fixture: plain dicts and lists

    p = run(devicescope, "diff", snap + "@t:1007", snap, "--json")
    check(p.returncode == 0, f"diff peak..end exit {p.returncode}: {p.stderr}")
    r = json.loads(p.stdout) if p.returncode == 0 else {}
    peak_entries = sum(1 for e in data["device_traces"][0] if e["time_us"] <= 1007)
    want_a = live_at(data, 0, peak_entries) + live_at(data, 1, sum(1 for e in data["device_traces"][1] if e["time_us"] <= 1007))
    check(r.get("a", {}).get("live_bytes") == want_a, f"live at t:1007 {r.get('a')} != {want_a}")
    check(r.get("a", {}).get("live_bytes", 0) >= 44 * MiB, "device 0's peak is in A")
    owners = {(o["owner"], o["place"]): o for o in r.get("owners", [])}
    fwd = owners.get(("/home/u/model.py:17 forward", "cuda:0"), {})
    check(fwd.get("freed") == 32 * MiB and fwd.get("blocks_freed") == 1, f"model.py:17 freed 32 MiB: {fwd}")
    check(r.get("freed_bytes") == r.get("a", {}).get("live_bytes", 0) + r.get("allocated_bytes", 0) - r.get("b", {}).get("live_bytes", 0),
          "A - freed + allocated == B")

    p = run(devicescope, "diff", snap + "@e:0", snap + "@t:1007", "--json")
    r = json.loads(p.stdout) if p.returncode == 0 else {}
    check(r.get("freed_bytes") == 0 and r.get("allocated_bytes") == r.get("b", {}).get("live_bytes") - r.get("a", {}).get("live_bytes"),
          f"start..peak only allocates: {r.get('allocated_bytes')} {r.get('freed_bytes')}")
    text = run(devicescope, "diff", snap + "@t:1007", snap).stdout
    check("freed 32.00 MiB" in text and "model.py:17 forward" in text, f"text form: {text!r}")

    # A recording: the model moved to cuda between the start and the end.
    script = os.path.join(work, "move.py")
    with open(script, "w") as f:
        f.write("import torch\nimport torch.nn as nn\nmodel = nn.Sequential(nn.Linear(64, 32))\nmodel.to('cuda')\n")
    trace = os.path.join(work, "move.json")
    p = run(devicescope, "run", "--backend", "sim", script, "--trace", trace)
    check(p.returncode == 0, f"run --trace: {p.stderr}")
    p = run(devicescope, "diff", trace + "@e:0", trace, "--json")  # before its first event .. its end
    check(p.returncode == 0, f"diff of a recording: {p.stderr}")
    r = json.loads(p.stdout) if p.returncode == 0 else {}
    owners = {(o["owner"], o["place"]): o for o in r.get("owners", [])}
    w = owners.get(("model.0.weight", "cuda:0"), {})
    check(w.get("allocated") == 64 * 32 * 4, f"model.0.weight allocated on cuda:0: {w}")
    moved = {(m["route"], m["owner"]): m for m in r.get("moved", [])}
    mv = moved.get(("pageable -> cuda:0", "model.0.weight"), {})
    check(mv.get("bytes") == 64 * 32 * 4 and mv.get("copies") == 1, f"the weight's copy: {r.get('moved')}")

    for args, why in [((os.path.join(work, "hostile_reduce.pickle"), snap), "hostile pickle"),
                      ((snap, trace), "snapshot against recording"),
                      ((trace + "@x:3", trace), "not a moment"),
                      ((os.path.join(work, "missing.pickle"), snap), "missing file")]:
        p = run(devicescope, "diff", *args)
        check(p.returncode == 2 and "devicescope diff: refused" in p.stderr, f"{why}: exit {p.returncode} {p.stderr!r}")
    check(not os.path.exists(os.path.join(work, "MARKER")), "the hostile pickle ran nothing")
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

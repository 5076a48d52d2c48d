#!/usr/bin/python3
"""`devicescope diff A B [--json]` end to end (issue 16: compare two moments).

Usage: check_diff.py DEVICESCOPE WORK_DIR

- Two moments of one PyTorch snapshot (the fixtures of make_fixtures.py): device 0's peak (t:1007, 44.50 MiB
  live, `inspect` agrees) against the snapshot's end (8.50 MiB allocated on device 0; the 4 MiB block awaiting
  free is not allocated): model.py:17's 32 MiB block was freed; before the trace (e:0) against the peak: everything at the peak was allocated in between.
- The figures are checked against an independent replay of the fixture's trace done here in Python.
- Two moments of one DeviceScope recording (`devicescope run --trace`): the start against the end shows the
  model's parameters allocated on cuda:0 and the copies that moved them (route, owner, bytes).
- One moment numbering: inspect's "peak at e:N" is diff's FILE@e:N; e:-1 and e:99999 are refused; a missing
  file is said to be missing.
- Two files (two runs) are matched by allocation identity: two snapshots, and one script at two widths.
- Per place, b.live - a.live == allocated - freed.
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
    """Allocated bytes of `device` after `entries` trace entries, replayed forwards from the start (the end
    state minus the trace's net effect), independently of DeviceScope's C++. As c10 counts allocated_bytes:
    up at alloc, down at free_requested; a block awaiting free is not allocated. (The fixture's sizes are
    multiples of 512 that split exactly, so block sizes are the entries' sizes.)"""
    trace = snapshot["device_traces"][device]
    end = sum(b["size"] for s in snapshot["segments"] if s["device"] == device for b in s["blocks"]
              if b["state"] == "active_allocated")
    delta = lambda e: e["size"] if e["action"] == "alloc" else -e["size"] if e["action"] == "free_requested" else 0
    start = end - sum(delta(e) for e in trace)
    return start + sum(delta(e) for e in trace[:entries])


def places_add_up(r):
    """Per place: b.live - a.live == allocated - freed."""
    return all(p["live_bytes_b"] - p["live_bytes_a"] == p["allocated_bytes"] - p["freed_bytes"] for p in r.get("places", [])) \
        and bool(r.get("places"))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


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
    check("model.py:17 forward: 40.50 MiB -> 8.50 MiB  (-32.00 MiB in 1 frees)" in text, f"text form: {text!r}")
    check("cuda:0: 44.50 MiB -> 8.50 MiB live (allocated 0 bytes, freed 36.00 MiB)" in text, f"text per place: {text!r}")
    check(places_add_up(r), f"per place b - a == allocated - freed: {r.get('places')}")

    # One moment numbering: inspect's "peak at e:N" is diff's FILE@e:N, and holds the peak's bytes.
    ins = json.loads(run(devicescope, "inspect", snap, "--json").stdout)
    d0 = next(d for d in ins["devices"] if d["device"] == "cuda:0")
    n = d0["peak_allocated_at"]["entry"]
    p = run(devicescope, "diff", f"{snap}@e:{n}", f"{snap}@e:{n}", "--json")
    r = json.loads(p.stdout) if p.returncode == 0 else {}
    at_peak = next((pl["live_bytes_a"] for pl in r.get("places", []) if pl["place"] == "cuda:0"), None)
    check(at_peak == d0["peak_allocated_bytes"], f"diff @e:{n} on cuda:0 {at_peak} != inspect's peak {d0['peak_allocated_bytes']}")
    p = run(devicescope, "diff", f"{snap}@e:{n - 1}", f"{snap}@e:{n}", "--json")
    r = json.loads(p.stdout) if p.returncode == 0 else {}
    check(r.get("allocated_bytes") == 32 * MiB and r.get("freed_bytes") == 0, f"e:{n - 1}..e:{n} is the 32 MiB alloc: {r}")

    # Moments outside the trace are refused, never clamped; a missing file is said to be missing.
    p = run(devicescope, "diff", snap + "@x:3", snap)
    check(p.returncode == 2 and "'@x:3' is not a moment of" in p.stderr, f"@x:3: {p.stderr!r}")
    p = run(devicescope, "diff", snap)
    check(p.returncode == 2 and "B is required" in p.stderr, f"usage error: exit {p.returncode} {p.stderr!r}")
    for moment, says in (("@e:-1", "cannot be negative"), ("@e:99999", "past the end of the trace, which has 13 entries")):
        p = run(devicescope, "diff", snap + moment, snap)
        check(p.returncode == 2 and says in p.stderr, f"{moment}: exit {p.returncode} {p.stderr!r}")
    missing = os.path.join(work, "missing.pickle")
    p = run(devicescope, "diff", missing, snap)
    check(p.returncode == 2 and f"devicescope diff: cannot open '{missing}': No such file or directory" in p.stderr
          and "not one of each" not in p.stderr, f"missing file: {p.stderr!r}")

    # Two snapshot files: matched by allocation identity (device 0 is the same in both), never by address.
    p = run(devicescope, "diff", snap, os.path.join(work, "v2_one_device.pickle"), "--json")
    r = json.loads(p.stdout) if p.returncode == 0 else {}
    changed = {(o["owner"], o["place"]) for o in r.get("owners", [])}
    check(changed == {("/home/u/train.py:50 optimizer_step", "cuda:1")} and r.get("freed_bytes") == MiB,
          f"two files, device 0 unchanged: {r.get('owners')}")

    # A recording: the model moved to cuda between the start and the end.
    script = os.path.join(work, "move.py")
    with open(script, "w") as f:
        f.write("import torch\nimport torch.nn as nn\nmodel = nn.Sequential(nn.Linear(64, 32))\nmodel.to('cuda')\n")
    trace = os.path.join(work, "move.json")
    p = run(devicescope, "run", "--backend", "sim", "--trace", trace, script)  # options before the script: after it they are the script's
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

    # The same script at two widths (two runs): storage ids coincide, sizes do not. Matched by allocation
    # identity, the model's parameters are freed at A's size and allocated at B's; per place the totals add up.
    width = "import torch\nimport torch.nn as nn\nmodel = nn.Sequential(nn.Linear({w}, {w}), nn.ReLU(), nn.Linear({w}, 4)).to('cuda')\n" \
            "x = torch.randn(8, {w}, device='cuda')\ny = model(x)\n"
    traces = []
    for w in (16, 64):
        write(os.path.join(work, f"width{w}.py"), width.format(w=w))
        traces.append(os.path.join(work, f"width{w}.json"))
        p = run(devicescope, "run", "--backend", "sim", "--trace", traces[-1], os.path.join(work, f"width{w}.py"))
        check(p.returncode == 0, f"run width {w}: {p.stderr[-400:]}")
    p = run(devicescope, "diff", traces[0], traces[1], "--json")
    check(p.returncode == 0, f"diff of two widths: {p.stderr}")
    r = json.loads(p.stdout) if p.returncode == 0 else {}
    # (run --trace names a parameter "model.0.weight" or, before the names fix of issue 22, "0.weight")
    w0 = next((o for o in r.get("owners", []) if o["owner"].split("model.")[-1] == "0.weight" and o["place"] == "cuda:0"), {})
    check(w0.get("freed") == 16 * 16 * 4 and w0.get("allocated") == 64 * 64 * 4, f"model.0.weight at two widths: {r.get('owners')}")
    check(places_add_up(r), f"two widths, per place b - a == allocated - freed: {r.get('places')}")
    check("no owner's memory changed" not in run(devicescope, "diff", traces[0], traces[1]).stdout, "two widths: changes reported")

    for args, why in [((os.path.join(work, "hostile_reduce.pickle"), snap), "hostile pickle"),
                      ((snap, trace), "snapshot against recording"),
                      ((trace + "@x:3", trace), "not a moment"),  # says "'@x:3' is not a moment of ..."
                      ((trace + "@e:-1", trace), "negative moment of a recording")]:
        p = run(devicescope, "diff", *args)
        check(p.returncode == 2 and p.stderr.startswith("devicescope diff: "), f"{why}: exit {p.returncode} {p.stderr!r}")
    check(not os.path.exists(os.path.join(work, "MARKER")), "the hostile pickle ran nothing")
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

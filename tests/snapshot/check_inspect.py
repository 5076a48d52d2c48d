#!/usr/bin/python3
"""ctest snapshot_inspect: `devicescope inspect --json` on the generated snapshot fixtures, on files
DeviceScope itself writes (run --trace/--csv, bench --json) and on hostile files (exit 2, nothing run).

    check_inspect.py DEVICESCOPE WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

MiB = 1 << 20
KiB = 1 << 10
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def inspect(ds, path):
    p = subprocess.run([ds, "inspect", path, "--json"], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def report(ds, path):
    rc, out, err = inspect(ds, path)
    check(rc == 0, f"inspect {path}: rc {rc}, stderr {err.strip()}")
    return json.loads(out) if rc == 0 else {}


def main():
    ds, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "make_fixtures.py"), work], check=True)
    fx = lambda name: os.path.join(work, name)

    # 2.x snapshot: figures derived in make_fixtures.py.
    r = report(ds, fx("v2_small.pickle"))
    check(r.get("kind") == "pytorch-snapshot" and r.get("format") == "pickle-2.x", f"v2 kind/format {r.get('kind')} {r.get('format')}")
    devs = {d["device"]: d for d in r.get("devices", [])}
    check(sorted(devs) == ["cuda:0", "cuda:1"], f"v2 devices {sorted(devs)}")
    d0 = devs.get("cuda:0", {})
    # The 4 MiB block awaits free (active_pending_free): not live, not allocated (PyTorch's allocated_size).
    check(d0.get("segments") == 2 and d0.get("live_blocks") == 2, f"cuda:0 counts {d0}")
    check(d0.get("awaiting_free_blocks") == 1 and d0.get("awaiting_free_bytes") == 4 * MiB, f"cuda:0 awaiting free {d0}")
    check(d0.get("allocated_bytes") == 8 * MiB + 512 * KiB and d0.get("reserved_bytes") == 22 * MiB, f"cuda:0 now {d0}")
    check(d0.get("peak_allocated_bytes") == 44 * MiB + 512 * KiB, f"cuda:0 peak allocated {d0.get('peak_allocated_bytes')}")
    # Moments count entries done: the peak is reached by the alloc at index 7, so it is the moment e:8.
    check(d0.get("peak_allocated_at") == {"entry": 8, "time_us": 1007}, f"cuda:0 peak allocated at {d0.get('peak_allocated_at')}")
    check(d0.get("peak_reserved_bytes") == 86 * MiB and d0.get("peak_reserved_at") == {"entry": 7, "time_us": 1006}, f"cuda:0 peak reserved {d0}")
    check(r.get("top_owners_at") == {"moment": "end", "entry": 13}, f"top owners' moment {r.get('top_owners_at')}")
    text = subprocess.run([ds, "inspect", fx("v2_small.pickle")], capture_output=True, text=True, timeout=120).stdout
    check("peak allocated 44.50 MiB at e:8 (t=1007 us)" in text, f"text peak moment: {text!r}")
    check("largest owners at the snapshot's moment (its end, e:13)" in text, f"text owners' moment: {text!r}")
    check("1 blocks awaiting free (4.00 MiB, not allocated)" in text, f"text awaiting free: {text!r}")
    d1 = devs.get("cuda:1", {})
    check(d1.get("peak_reserved_bytes") == 4 * MiB and d1.get("peak_allocated_bytes") == MiB, f"cuda:1 peaks {d1}")
    owners = r.get("top_owners", [])
    check([o["owner"] for o in owners] == ["/home/u/model.py:17 forward", "/home/u/train.py:50 optimizer_step"], f"owners {owners}")
    check(owners and owners[0]["bytes"] == 8 * MiB + 512 * KiB and owners[0]["blocks"] == 2, f"owner bytes {owners}")
    check(r.get("events") == 17, f"events {r.get('events')}")
    check(r.get("event_counts") == {"alloc": 5, "free_requested": 2, "free_completed": 1, "segment_alloc": 3,
                                    "segment_free": 1, "segment_map": 2, "segment_unmap": 1, "oom": 1, "snapshot": 1},
          f"event_counts {r.get('event_counts')}")
    check(r.get("transfers") == 0 and r.get("distinct_frames") == 5, f"transfers/frames {r.get('transfers')} {r.get('distinct_frames')}")
    for other in ("v2_proto2.pickle", "v2_proto0.pickle", "v2_unshared.pickle"):
        o = report(ds, fx(other))
        o["file"] = r.get("file")
        check(o == r, f"{other} differs from the protocol-4 pickle")

    # What later 2.x files carry (v2_newer: see make_fixtures.py): block sizes in the peak (a 1000-byte request
    # holds 1024 bytes; 12,000,000 bytes in a fresh 12 MiB segment hold all of it: max_memory_allocated), the
    # backward thread's C++-only stack named for what it is, pinned host memory, private pools, metadata.
    r = report(ds, fx("v2_newer.pickle"))
    devs = {d["device"]: d for d in r.get("devices", [])}
    d0 = devs.get("cuda:0", {})
    check(d0.get("peak_allocated_bytes") == 12 * MiB + 1024 and d0.get("peak_allocated_at") == {"entry": 4, "time_us": 5003},
          f"newer: peak as max_memory_allocated counts {d0}")
    check(d0.get("allocated_bytes") == 2 * MiB + 1024 and d0.get("private_pool_bytes") == 20 * MiB, f"newer: cuda:0 {d0}")
    pinned = devs.get("pinned", {})
    check(pinned.get("allocated_bytes") == MiB and pinned.get("reserved_bytes") == 4 * MiB and pinned.get("segments") == 1,
          f"newer: pinned host memory {pinned}")
    owners = [o["owner"] for o in r.get("top_owners", [])]
    check(owners[:1] == ["<C++ only: autograd engine (backward)>"] and not any("??" in o for o in owners), f"newer: owners {owners}")
    check(r.get("annotations") == 1 and r.get("user_metadata") == ["epoch 1"]
          and r.get("compile_contexts") == ["[0/0] torch_dynamo_resume_in_forward"], f"newer: metadata {r}")

    # 1.x list of segments.
    r = report(ds, fx("v1_list.pickle"))
    check(r.get("format") == "pickle-1.x", f"v1 format {r.get('format')}")
    d = r.get("devices", [{}])[0]
    check(d.get("allocated_bytes") == 3 * MiB and d.get("peak_allocated_at") is None and d.get("segments") == 1, f"v1 device {d}")
    # No trace: the peak is unknown, not the current value.
    check(d.get("peak_allocated_bytes") is None and d.get("peak_reserved_bytes") is None, f"v1 peak unknown {d}")
    text = subprocess.run([ds, "inspect", fx("v1_list.pickle")], capture_output=True, text=True, timeout=120).stdout
    check("peak allocated n/a" in text and "peak allocated 3.00 MiB" not in text, f"v1 text peak: {text!r}")
    check(r.get("events") == 0, "v1 has no trace")

    # Refused files: exit 2, one clear line, nothing run.
    marker = fx("MARKER_reduce_ran")
    for name, says in (("hostile_reduce.pickle", "STACK_GLOBAL"), ("hostile_deep.pickle", "nested more than"),
                       ("hostile_huge_len.pickle", "runs past the end"), ("not_snapshot.pickle", "not a PyTorch memory snapshot")):
        rc, out, err = inspect(ds, fx(name))
        check(rc == 2 and says in err and out == "", f"{name}: rc {rc}, stderr {err.strip()!r}")
    check(not os.path.exists(marker), "the __reduce__ fixture ran code")
    whole = open(fx("v2_small.pickle"), "rb").read()
    with open(fx("cut.pickle"), "wb") as f:
        f.write(whole[: len(whole) // 3])
    rc, _, err = inspect(ds, fx("cut.pickle"))
    check(rc == 2 and "truncated" in err, f"truncated: rc {rc} {err.strip()!r}")
    rc, _, err = inspect(ds, work)
    check(rc == 2 and f"devicescope inspect: cannot open '{work}': Is a directory" in err, f"directory: rc {rc} {err.strip()!r}")
    rc, _, err = inspect(ds, fx("missing.pickle"))
    check(rc == 2 and f"devicescope inspect: cannot open '{fx('missing.pickle')}': No such file or directory" in err,
          f"missing file: rc {rc} {err.strip()!r}")
    with open(fx("garbage.txt"), "w") as f:
        f.write("hello, not a recording\n")
    rc, _, err = inspect(ds, fx("garbage.txt"))
    check(rc == 2 and err.startswith("devicescope inspect: refused"), f"garbage: rc {rc} {err.strip()!r}")

    # DeviceScope's own files.
    script = fx("small_run.py")
    with open(script, "w") as f:
        f.write("import torch\nw = torch.ones(256, 256, device='cuda:0')\nx = torch.zeros(1024, 1024)\n"
                "y = x.to('cuda:0')\ndel y\nz = torch.ones(64, device='cuda:1')\n")
    p = subprocess.run([ds, "--backend", "sim", "run", "--trace", fx("run.json"), "--csv", fx("run.csv"), script],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"run: {p.returncode} {p.stderr[-500:]}")
    if p.returncode == 0:
        r = report(ds, fx("run.json"))
        check(r.get("kind") == "devicescope-trace" and r.get("transfers") == 1 and r.get("transfer_bytes") == 4 * MiB, f"trace {r}")
        devs = {d["device"]: d for d in r.get("devices", [])}
        check("cuda:0" in devs and "cuda:1" in devs and "pageable" in devs, f"trace devices {sorted(devs)}")
        check(devs.get("cuda:0", {}).get("peak_allocated_bytes") == 256 * KiB + 4 * MiB, f"trace cuda:0 peak {devs.get('cuda:0')}")
        check(r.get("event_counts", {}).get("alloc") == 4 and r.get("event_counts", {}).get("free") == 1, f"trace counts {r.get('event_counts')}")
        r = report(ds, fx("run.csv"))
        check(r.get("kind") == "devicescope-csv" and r.get("transfers") == 1, f"csv {r}")
    # A dump DeviceScope wrote with history from the start: inspect's figures are the allocator's own
    # (memory_allocated() now, max_memory_allocated() at the peak: block sizes, cuBLAS workspace included).
    with open(fx("dump.py"), "w") as f:
        f.write("import json, sys, torch\ntorch.cuda.memory._record_memory_history()\n"
                "model = torch.nn.Linear(256, 250).cuda()\nx = torch.randn(63, 256, device='cuda')\ny = model(x)\ndel x\n"
                "torch.cuda.memory._dump_snapshot(sys.argv[1])\n"
                "print(json.dumps([torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated()]))\n")
    p = subprocess.run([ds, "--backend", "sim", "run", fx("dump.py"), fx("dump.pickle")], capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"dump run: {p.returncode} {p.stderr[-500:]}")
    if p.returncode == 0:
        now, peak = json.loads(p.stdout.strip().splitlines()[-1])
        d0 = {d["device"]: d for d in report(ds, fx("dump.pickle")).get("devices", [])}.get("cuda:0", {})
        check(d0.get("allocated_bytes") == now and d0.get("peak_allocated_bytes") == peak,
              f"DeviceScope dump: inspect {d0.get('allocated_bytes')}/{d0.get('peak_allocated_bytes')} != memory_allocated {now} / max {peak}")

    p = subprocess.run([ds, "--backend", "sim", "bench", "--sizes", "4KiB,1MiB", "--routes", "h2d", "--repeat", "1",
                        "--json", fx("bench.json")], capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"bench: {p.returncode} {p.stderr[-500:]}")
    if p.returncode == 0:
        r = report(ds, fx("bench.json"))
        check(r.get("kind") == "devicescope-bench" and r.get("points") == 8, f"bench {r}")

    print("snapshot_inspect:", "FAILED" if failures else "ok", f"({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

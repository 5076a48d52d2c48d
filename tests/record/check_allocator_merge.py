#!/usr/bin/env python3
"""The recorder's CUDA allocator part without a GPU (devicescope_recorder/allocator.py): a synthetic 2.x
snapshot, shaped as torch.cuda.memory._snapshot() gives it, goes through strip_own_frames and merge next to
the recorder's own events; then the merged recording is written and read back by `devicescope inspect`.
Also: _record_memory_history is called in its 2.1+ form, with the 2.0 and 1.13 forms as fallbacks; and a whole
recording session with torch.cuda faked (--work): history on, snapshot stripped, merged, FILE.pickle written.

  check_allocator_merge.py --recorder engine/recorder [--devicescope BIN --work DIR]
"""
import argparse
import json
import os
import subprocess
import sys

EPOCH0 = 1_700_000_000_000_000_000  # the recording's start in Unix ns
MS = 1_000_000


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def us(ms):
    """A time `ms` milliseconds into the recording, as the allocator's trace stamps it (Unix microseconds)."""
    return (EPOCH0 + int(ms * MS)) // 1000


def frames(package_dir, torch_dir, user_line, extra=()):
    # Innermost first, as the allocator stores them: what the dispatch mode runs, torch, then the user's line.
    return list(extra) + [
        {"filename": os.path.join(package_dir, "recorder.py"), "line": 480, "name": "on_op"},
        {"filename": os.path.join(package_dir, "recorder.py"), "line": 530, "name": "__torch_dispatch__"},
        {"filename": os.path.join(torch_dir, "nn", "modules", "linear.py"), "line": 114, "name": "forward"},
        {"filename": "/home/user/train.py", "line": user_line, "name": "<module>"}]


def snapshot(package_dir, torch_dir, timed=True):
    blas = [{"filename": "", "line": 0, "name": "at::cuda::getCurrentCUDABlasLtHandle() / cublasLt workspace"}]
    entries = [
        ("segment_alloc", 0x0, 2 << 20, 0.5, []),
        ("alloc", 0x1000, 4096, 0.9, frames(package_dir, torch_dir, 10)),           # the weight (storage 1)
        ("alloc", 0x100000, 1 << 20, 1.5, frames(package_dir, torch_dir, 12, blas)),  # a cuBLASLt workspace
        ("alloc", 0x3000, 8192, 1.95, frames(package_dir, torch_dir, 12)),          # the activation (storage 2)
        ("alloc", 0x200000, 512, 3.0, frames(package_dir, torch_dir, 13)),          # scratch no tensor shows
        ("free_requested", 0x200000, 512, 4.0, []),
        ("free_completed", 0x200000, 512, 4.1, []),
        ("alloc", 0x180000, 1024, 4.2, frames(package_dir, torch_dir, 14)),         # freed on another stream
        ("free_requested", 0x180000, 1024, 4.5, []),                                # awaiting free: not allocated
        ("free_requested", 0x3000, 8192, 5.0, []),
        ("free_completed", 0x3000, 8192, 5.1, []),
        ("alloc", 0x3000, 8192, 6.0, frames(package_dir, torch_dir, 15)),           # the address reused: no storage
    ]
    trace = []
    for action, addr, size, ms, fr in entries:
        e = {"action": action, "addr": addr, "size": size, "stream": 0, "frames": fr}
        if timed:
            e["time_us"] = us(ms)
        trace.append(e)
    blocks = [{"address": 0x1000, "size": 4096, "requested_size": 4096, "state": "active_allocated",
               "frames": frames(package_dir, torch_dir, 10)},
              {"address": 0x3000, "size": 8192, "requested_size": 8192, "state": "active_allocated",
               "frames": frames(package_dir, torch_dir, 15)},
              {"address": 0x100000, "size": 1 << 20, "requested_size": 1 << 20, "state": "active_allocated",
               "frames": frames(package_dir, torch_dir, 12, blas)},
              {"address": 0x180000, "size": 1024, "requested_size": 1000, "state": "active_awaiting_free",
               "frames": frames(package_dir, torch_dir, 14)},
              {"address": 0x200000, "size": (2 << 20) - 0x200000, "state": "inactive", "frames": []}]
    return {"segments": [{"device": 0, "address": 0, "total_size": 2 << 20, "stream": 0, "segment_type": "large",
                          "allocated_size": 4096 + 8192 + (1 << 20), "active_size": 4096 + 8192 + (1 << 20) + 1024,
                          "blocks": blocks}],
            "device_traces": [trace]}


def recorder_events():
    # [seq, kind, time_ns, place, storage, bytes, transfer, label, allocated, reserved] as recorder.finish has them.
    return [[1, "alloc", 1 * MS, "cuda:0", 1, 4096, 0, "model.fc.weight", 4096, 2 << 20],
            [2, "alloc", 2 * MS, "cuda:0", 2, 8192, 0, "model.fc [output]", 4096 + 8192, 2 << 20],
            [3, "alloc", 2 * MS + 10, "pageable", 3, 64, 0, "x", 64, 64],
            [4, "free", 5 * MS + 200000, "cuda:0", 2, 8192, 0, "model.fc [output]", 4096, 2 << 20]]


def check_merge(allocator, torch_dir):
    snap = snapshot(allocator.PACKAGE_DIR, torch_dir)
    removed = allocator.strip_own_frames(snap)
    own = [f for e in snap["device_traces"][0] for f in e["frames"] if f["filename"].startswith(allocator.PACKAGE_DIR)]
    own += [f for s in snap["segments"] for b in s["blocks"] for f in b["frames"] if f["filename"].startswith(allocator.PACKAGE_DIR)]
    if own or removed != 2 * (6 + 4):  # 6 alloc entries and 4 blocks carry the two recorder frames
        fail("the recorder's frames were not all stripped: %d removed, %d left" % (removed, len(own)))
    merged, roles, summary = allocator.merge(recorder_events(), snap, EPOCH0, {1: 0x1000, 2: 0x3000}, 4, torch_dir)
    if [r[0] for r in merged] != list(range(1, len(merged) + 1)) or [r[2] for r in merged] != sorted(r[2] for r in merged):
        fail("merged events are not renumbered in time order")
    added = [r for r in merged if r[4] >= 4]
    by_id = {}
    for r in added:
        by_id.setdefault(r[4], []).append((r[1], r[5], r[7]))
    want = {"workspace (allocator only) @ train.py:12": ([("alloc", 1 << 20)], "workspace"),
            "no tensor (allocator only) @ train.py:13": ([("alloc", 512), ("free", 512)], "allocator-only"),
            "no tensor (allocator only) @ train.py:14": ([("alloc", 1024), ("free", 1024)], "allocator-only"),
            "no tensor (allocator only) @ train.py:15": ([("alloc", 8192)], "allocator-only")}
    got = {rows[0][2]: ([(k, b) for k, b, _ in rows], roles[sid]) for sid, rows in by_id.items()}
    if got != want:
        fail("allocator-only blocks:\n got  %s\n want %s" % (got, want))
    if any(r[4] in (1, 2, 3) and r[7].endswith("(allocator only)") for r in merged):
        fail("a recorded storage was taken for an allocator-only block")
    last = [r for r in merged if r[3] == "cuda:0"][-1]
    if last[8] != 4096 + (1 << 20) + 8192:
        fail("allocated at the end %d, expected the weight, the workspace and the reused block" % last[8])
    if any(r[9] < r[8] for r in merged):
        fail("reserved below allocated")
    s = summary["cuda:0"]
    expect = {"reserved_bytes": 2 << 20, "allocated_bytes": 4096 + 8192 + (1 << 20), "awaiting_free_bytes": 1024,
              "allocator_only_bytes": (1 << 20) + 8192, "workspace_bytes": 1 << 20, "segments": 1}
    if any(s[k] != v for k, v in expect.items()) or s["cached_free_bytes"] != (2 << 20) - s["allocated_bytes"] - 1024:
        fail("allocator summary %s, expected %s" % (s, expect))
    # Without the allocator's clock (1.13, 2.0): a block is claimed by address alone.
    untimed = snapshot(allocator.PACKAGE_DIR, torch_dir, timed=False)
    allocator.strip_own_frames(untimed)
    merged2, roles2, _ = allocator.merge(recorder_events(), untimed, EPOCH0, {1: 0x1000, 2: 0x3000}, 4, torch_dir)
    labels2 = sorted(r[7] for r in merged2 if r[1] == "alloc" and r[4] >= 4)
    if labels2 != ["no tensor (allocator only) @ train.py:13", "no tensor (allocator only) @ train.py:14",
                   "workspace (allocator only) @ train.py:12"]:
        fail("untimed merge: %s" % labels2)
    return merged, roles, summary


def check_history_forms(allocator):
    calls = []

    class Memory:
        pass

    def v21(enabled="all", context="all", stacks="all", max_entries=sys.maxsize, device=None):
        calls.append(("2.1", enabled, context, stacks, max_entries))

    def v20(enabled, record_context=True, trace_alloc_max_entries=1, trace_alloc_record_context=False, device=None):
        calls.append(("2.0", enabled, trace_alloc_max_entries, trace_alloc_record_context))

    def v113(enabled, device=None):
        calls.append(("1.13", enabled))

    for fn, form, first in ((v21, "2.1", ("2.1", "all", "all", "python", 1234)),
                            (v20, "2.0", ("2.0", True, 1234, True)), (v113, "1.13", ("1.13", True))):
        calls.clear()
        torch = type("torch", (), {})()
        torch.cuda = type("cuda", (), {})()
        torch.cuda.memory = Memory()
        torch.cuda.memory._record_memory_history = fn
        if allocator.start_history(torch, 1234) != form or calls[-1] != first:
            fail("history form %s: %s" % (form, calls))
        allocator.stop_history(torch, form)
        if calls[-1][1] not in (None, False):
            fail("history not stopped in form %s: %s" % (form, calls[-1]))


def check_session(allocator, work):
    """The GPU wiring of a recording (session.py) with torch.cuda faked on this CPU-only torch: the history is
    started in its 2.1 form with a trace length, the snapshot taken at the end loses the recorder's frames, is
    merged (this run's storages are host storages, so every CUDA block is allocator-only) and written beside
    the recording as FILE.pickle; the history is stopped."""
    import pickle
    import torch
    from devicescope_recorder import session
    calls, cuda = [], torch.cuda
    fake = snapshot(allocator.PACKAGE_DIR, os.path.dirname(torch.__file__))
    saved = (cuda.is_available, cuda.get_device_name, cuda.device_count, cuda.memory_reserved,
             cuda.memory._record_memory_history, cuda.memory._snapshot)

    def history(enabled="all", context="all", stacks="all", max_entries=sys.maxsize, device=None):
        calls.append((enabled, context, stacks, max_entries))

    cuda.is_available, cuda.get_device_name, cuda.device_count = (lambda: True), (lambda i=0: "Fake GPU"), (lambda: 1)
    cuda.memory_reserved = lambda device=None: 2 << 20
    cuda.memory._record_memory_history, cuda.memory._snapshot = history, (lambda device=None: fake)
    try:
        out = os.path.join(work, "session.json")
        s = session.Session(out, {}, "train.py", ["--epochs", "1"])
        s.start()
        kept = torch.ones(256) * 2  # a host storage the recorder sees
        del kept
        s.stop(0, "")
    finally:
        (cuda.is_available, cuda.get_device_name, cuda.device_count, cuda.memory_reserved,
         cuda.memory._record_memory_history, cuda.memory._snapshot) = saved
    if calls != [("all", "all", "python", allocator.DEFAULT_MAX_ENTRIES), (None, "all", "all", sys.maxsize)]:
        fail("history calls %s" % calls)
    trace = json.load(open(out))
    only = sorted(r[7] for r in trace["devicescopeEvents"] if r[1] == "alloc" and r[3] == "cuda:0")
    if len(only) != 6 or not all("(allocator only)" in o for o in only) or "Fake GPU" not in trace["metadata"]["machine"]:
        fail("session merge: %s" % only)
    if trace["devicescopeRecorder"]["allocator"]["cuda:0"]["reserved_bytes"] != 2 << 20:
        fail("allocator summary %s" % trace["devicescopeRecorder"]["allocator"])
    written = pickle.load(open(out + ".pickle", "rb"))
    if any(f["filename"].startswith(allocator.PACKAGE_DIR) for e in written["device_traces"][0] for f in e["frames"]):
        fail("FILE.pickle keeps the recorder's frames")
    return out


def check_opened_in_app(devicescope, path):
    """The app colours the merged recording's blocks by the roles the merge gave them: the live workspace as a
    library workspace, the live block no tensor claims as "allocator only (no tensor)" (it showed as a tensor).
    Skipped where xvfb-run is missing."""
    import shutil
    if not shutil.which("xvfb-run"):
        print("skip the merged recording in the app: no xvfb-run")
        return
    png = path + ".png"
    run = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1920x1200x24", devicescope, "--open-trace", path,
                          "--screenshot", png, "--size", "1600x1000"], capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail("the app did not open the merged recording: " + run.stderr[-1000:])
    vm = json.load(open(png + ".json"))
    roles = {p["place"]: p.get("roles", {}) for p in vm["panes"]}.get("cuda:0", {})
    if roles.get("allocator only (no tensor)") != 1 or roles.get("library workspace (cuBLAS)") != 1:
        fail("the app's cuda:0 pane counts %s" % roles)
    if "allocator only (no tensor)" not in vm.get("colors", {}):
        fail("no legend colour for allocator-only blocks: %s" % vm.get("colors"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--devicescope")
    ap.add_argument("--work")
    args = ap.parse_args()
    sys.path.insert(0, args.recorder)
    from devicescope_recorder import allocator, trace_writer
    torch_dir = "/usr/lib/python3/dist-packages/torch"
    check_history_forms(allocator)
    merged, roles, summary = check_merge(allocator, torch_dir)
    if args.work:
        os.makedirs(args.work, exist_ok=True)
        check_session(allocator, args.work)
    if args.devicescope:
        path = os.path.join(args.work, "merged.json")
        meta = {"devicescope_version": "test", "backend": "cuda", "link_profile": "", "machine": "synthetic"}
        extra = {"storage_roles": {str(k): v for k, v in roles.items()}, "allocator": summary}
        trace_writer.write(path, meta, merged, [], extra)
        run = subprocess.run([args.devicescope, "inspect", "--json", path], capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            fail("inspect refused the merged recording: " + run.stderr)
        report = json.loads(run.stdout)
        dev = {d["device"]: d for d in report["devices"]}["cuda:0"]
        if dev["allocated_bytes"] != 4096 + (1 << 20) + 8192 or dev["reserved_bytes"] != 2 << 20:
            fail("inspect reads cuda:0 as %s" % dev)
        owners = {o["owner"] for o in report["top_owners"]}
        if "workspace (allocator only) @ train.py:12" not in owners:
            fail("inspect's owners lack the workspace: %s" % owners)
        check_opened_in_app(args.devicescope, path)
    print("ok")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""ctest snapshot_memory_history: DeviceScope's own torch.cuda.memory snapshots against PyTorch 2.x's format
and back through `devicescope inspect`.

    check_memory_history.py DEVICESCOPE WORK_DIR
    check_memory_history.py --structure FILE.pickle   only (c), on any snapshot (e.g. one real PyTorch wrote
                                                      on a GPU machine): every key or type that differs

Runs history_model.py under `devicescope run` (with and without _record_memory_history), then checks
  (a) `devicescope inspect --json` of the dump: devices, segments, live blocks and the named owners
      (model.fc1.weight, model.bn.running_mean, x, ...) with their block bytes;
  (b) the round trip: allocated / reserved per device in the pickle and in inspect's report equal
      torch.cuda.memory_allocated() / memory_reserved() at the dump;
  (c) the structure against the documented format (torch/cuda/memory.py `_snapshot`, Module.cpp
      `_cuda_memorySnapshot` of PyTorch 2.x): keys and value types of every segment, block, frame and trace
      entry, blocks tiling their segments, every action kind the allocator can produce, the trace replaying
      to the live blocks, pickle protocol 4 with no global (plain pickle.dump of builtins).
Plain Python 3: it never imports torch.
"""
import io
import json
import os
import pickle
import shutil
import subprocess
import sys

failures = []

# The keys a real PyTorch 2.11 _dump_snapshot has (checked on an H200, issue 22): no "external_annotations" when
# there are none, and no "snapshot" trace entry.
SNAPSHOT_KEYS = {"segments", "device_traces", "allocator_settings"}
SEGMENT_TYPES = {"device": int, "address": int, "total_size": int, "allocated_size": int, "active_size": int,
                 "requested_size": int, "stream": int, "segment_type": str, "segment_pool_id": tuple,
                 "is_expandable": bool, "frames": list, "blocks": list}
BLOCK_TYPES = {"address": int, "size": int, "requested_size": int, "state": str, "frames": list}
FRAME_TYPES = {"filename": str, "line": int, "name": str}
ENTRY_TYPES = {"action": str, "size": int, "stream": int, "time_us": int,  # + addr | device_free, frames
               "compile_context": str, "user_metadata": str}
ACTIONS = {"alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "oom"}
SETTINGS_KEYS = {"PYTORCH_CUDA_ALLOC_CONF", "max_split_size", "garbage_collection_threshold", "expandable_segments",
                 "pinned_num_register_threads", "release_lock_on_cudamalloc", "pinned_use_cuda_host_register",
                 "roundup_power2_divisions", "graph_capture_record_stream_reuse"}


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


class NoGlobals(pickle.Unpickler):
    """A snapshot is dicts, lists, tuples, strings, numbers, booleans and None: any global is wrong."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"global {module}.{name} in a memory snapshot")


def run_model(ds, here, work, tag, extra):
    pkl, js = os.path.join(work, tag + ".pickle"), os.path.join(work, tag + ".json")
    p = subprocess.run([ds, "run", os.path.join(here, "history_model.py"), "--", pkl, js] + extra,
                       capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"{tag}: devicescope run rc {p.returncode}: {p.stderr[-2000:]}")
    with open(pkl, "rb") as f:
        raw = f.read()
    with open(js) as f:
        figures = json.load(f)
    return pkl, raw, figures


def check_types(d, types, where):
    """True when d has every key with its type (the caller's further checks need them)."""
    if not check(isinstance(d, dict), f"{where}: a dict"):
        return False
    ok = True
    for key, t in types.items():
        if check(key in d, f"{where}: key {key}"):
            ok &= check(type(d[key]) is t, f"{where}: {key} is {type(d[key]).__name__}, want {t.__name__}")
        else:
            ok = False
    return ok


def check_frames(frames, where):
    for f in frames:
        check_types(f, FRAME_TYPES, where + " frame")
        check(set(f) == set(FRAME_TYPES), f"{where}: frame keys {sorted(f)}")


def check_structure(snap, figures, tag):
    """(c): every key and value type; blocks tile segments; the trace replays to the live blocks."""
    devices = len(figures["allocated"])
    check(type(snap) is dict and set(snap) == SNAPSHOT_KEYS, f"{tag}: top-level keys {sorted(snap)}")
    settings = snap.get("allocator_settings", {})
    check(set(settings) == SETTINGS_KEYS, f"{tag}: allocator_settings {sorted(settings)}")
    check(type(settings.get("graph_capture_record_stream_reuse")) is bool, f"{tag}: graph_capture_record_stream_reuse")
    roundup = settings.get("roundup_power2_divisions")
    check(type(roundup) is dict and all(type(k) is str and type(v) is int for k, v in roundup.items()),
          f"{tag}: roundup_power2_divisions {{'1': int, '2': int, ...}}")
    traces = snap.get("device_traces", [])
    check(type(traces) is list and len(traces) == devices and all(type(t) is list for t in traces),
          f"{tag}: one trace list per device")
    last_address = {}
    for i, seg in enumerate(snap.get("segments", [])):
        where = f"{tag} segment {i}"
        if not check_types(seg, SEGMENT_TYPES, where):
            continue
        check(set(seg) == set(SEGMENT_TYPES), f"{where}: keys {sorted(seg)}")
        check(seg["segment_type"] in ("small", "large"), f"{where}: segment_type")
        check(seg["segment_pool_id"] == (0, 0), f"{where}: segment_pool_id")
        check(seg["address"] > last_address.get(seg["device"], -1), f"{where}: address order per device")
        last_address[seg["device"]] = seg["address"]
        check_frames(seg["frames"], where)
        address, allocated, requested = seg["address"], 0, 0
        for j, b in enumerate(seg["blocks"]):
            bw = f"{where} block {j}"
            if not check_types(b, BLOCK_TYPES, bw):
                continue
            check(set(b) == set(BLOCK_TYPES), f"{bw}: keys {sorted(b)}")
            check(b["state"] in ("active_allocated", "active_pending_free", "inactive"), f"{bw}: state")
            check(b["address"] == address, f"{bw}: blocks tile the segment")
            check(b["size"] % 512 == 0 and b["size"] > 0, f"{bw}: size a multiple of 512")
            check_frames(b["frames"], bw)
            if b["state"] == "active_allocated":
                allocated += b["size"]
                requested += b["requested_size"]
                check(0 < b["requested_size"] <= b["size"], f"{bw}: requested_size")
            else:
                check(b["frames"] == [], f"{bw}: an inactive block has no frames")
            address += b["size"]
        check(address == seg["address"] + seg["total_size"], f"{where}: blocks cover total_size")
        check(seg["allocated_size"] == allocated == seg["active_size"], f"{where}: allocated/active_size")
        check(seg["requested_size"] == requested, f"{where}: requested_size")
        small = seg["segment_type"] == "small"
        check(small == (seg["total_size"] == 2 << 20), f"{where}: small segments are 2 MiB")
    for d, trace in enumerate(traces):
        last_time = 0
        live = {}
        for k, e in enumerate(trace):
            where = f"{tag} device {d} entry {k}"
            if not check_types(e, ENTRY_TYPES, where):
                continue
            check(e["action"] in ACTIONS, f"{where}: action {e['action']}")
            addr_key = "device_free" if e["action"] == "oom" else "addr"
            check(type(e.get(addr_key)) is int, f"{where}: {addr_key}")
            check(set(e) - {"frames"} == set(ENTRY_TYPES) | {addr_key}, f"{where}: keys {sorted(e)}")
            if "frames" in e:
                check(type(e["frames"]) is list and e["frames"], f"{where}: frames, when present, are not empty")
                check_frames(e["frames"], where)
            check(e["time_us"] >= last_time and e["time_us"] > 1_500_000_000_000_000, f"{where}: time_us")
            last_time = e["time_us"]
            if e["action"] == "alloc":
                check(e["addr"] not in live, f"{where}: alloc of a live address")
                live[e["addr"]] = e["size"]
            elif e["action"] in ("free_requested", "free_completed"):
                check(live.get(e["addr"]) == e["size"], f"{where}: {e['action']} matches an alloc")
                if e["action"] == "free_completed":
                    live.pop(e["addr"], None)
        if figures["recorded"]:
            blocks = {b["address"]: b["requested_size"] for s in snap["segments"] if s["device"] == d
                      for b in s["blocks"] if b["state"] == "active_allocated"}
            check(live == blocks, f"{tag} device {d}: the trace replays to the live blocks")
    return {e["action"] for t in traces for e in t}


def owner_of(frames):
    return [f["name"] for f in frames if f["filename"].startswith("<devicescope ")]


def structure_only(path):
    with open(path, "rb") as f:
        snap = NoGlobals(f).load()
    figures = {"allocated": [0] * len(snap.get("device_traces", [])), "recorded": False}
    actions = check_structure(snap, figures, os.path.basename(path))
    print("actions:", sorted(actions))
    print(f"{len(failures)} difference(s)" if failures else "ok: the format DeviceScope writes")
    return 1 if failures else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--structure":
        return structure_only(sys.argv[2])
    ds, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    here = os.path.dirname(os.path.abspath(__file__))

    for tag, extra in (("recorded", []), ("unrecorded", ["--no-history"])):
        path, raw, figures = run_model(ds, here, work, tag, extra)
        check(raw[:2] == b"\x80\x04", f"{tag}: pickle protocol 4 (pickle.dump's default), got {raw[:2]!r}")
        try:
            snap = NoGlobals(io.BytesIO(raw)).load()
        except pickle.UnpicklingError as e:
            check(False, f"{tag}: {e}")
            continue
        actions = check_structure(snap, figures, tag)
        # DeviceScope's mark of what made the memory (the app labels the file simulated from it).
        check(all(s["frames"] and s["frames"][-1] == {"filename": "<devicescope backend>", "line": 0, "name": "simulated CUDA"}
                  for s in snap["segments"]), f"{tag}: every segment's stack ends with the backend frame")
        if figures["recorded"]:
            check(actions == ACTIONS, f"{tag}: every action, got {sorted(actions)} want {sorted(ACTIONS)}")
        else:
            check(snap["device_traces"] == [[] for _ in figures["allocated"]], f"{tag}: empty traces per device")

        # (b) round trip: the pickle's sums and inspect's report equal the allocator's figures at the dump.
        for d, (alloc, res) in enumerate(zip(figures["allocated"], figures["reserved"])):
            segs = [s for s in snap["segments"] if s["device"] == d]
            check(sum(s["allocated_size"] for s in segs) == alloc, f"{tag} device {d}: allocated sum == memory_allocated")
            check(sum(s["total_size"] for s in segs) == res, f"{tag} device {d}: total_size sum == memory_reserved")
        p = subprocess.run([ds, "inspect", path, "--json"], capture_output=True, text=True, timeout=120)
        if not check(p.returncode == 0, f"{tag}: inspect rc {p.returncode}: {p.stderr.strip()}"):
            continue
        report = json.loads(p.stdout)
        check(report["kind"] == "pytorch-snapshot" and report["format"] == "pickle-2.x", f"{tag}: inspect kind/format")
        by_device = {r["device"]: r for r in report["devices"]}
        for d, (alloc, res) in enumerate(zip(figures["allocated"], figures["reserved"])):
            r = by_device.get(f"cuda:{d}", {})
            segs = [s for s in snap["segments"] if s["device"] == d]
            live = sum(1 for s in segs for b in s["blocks"] if b["state"] == "active_allocated")
            check(r.get("allocated_bytes") == alloc, f"{tag} cuda:{d}: inspect allocated {r.get('allocated_bytes')} != {alloc}")
            check(r.get("reserved_bytes") == res, f"{tag} cuda:{d}: inspect reserved {r.get('reserved_bytes')} != {res}")
            check(r.get("segments") == len(segs), f"{tag} cuda:{d}: inspect segments")
            check(r.get("live_blocks") == live, f"{tag} cuda:{d}: inspect live_blocks")
        check(report["events"] == sum(len(t) for t in snap["device_traces"]), f"{tag}: inspect events")

        # (a) owners: each named parameter / buffer / tensor is one live block of its size, named in the
        # pickle's frames and in inspect's top owners (the ten largest).
        named = {}
        for s in snap["segments"]:
            for b in s["blocks"]:
                for name in owner_of(b["frames"]):
                    named[name] = b["size"]
        for name, size in figures["owners"].items():
            check(named.get(name) == size, f"{tag}: block of {name} is {named.get(name)}, want {size}")
        top = {o["owner"]: o["bytes"] for o in report["top_owners"]}
        for name in ("model.fc1.weight", "x"):
            check(top.get(name) == figures["owners"][name], f"{tag}: inspect top owner {name}: {top.get(name)}")
        weight = [b for s in snap["segments"] for b in s["blocks"] if owner_of(b["frames"]) == ["model.fc1.weight"]]
        if weight and figures["recorded"]:
            frames = weight[0]["frames"]
            check(frames[0]["filename"] == "<devicescope parameter>", f"{tag}: the owner frame comes first")
            with open(os.path.join(here, "history_model.py")) as f:
                model_line = 1 + [line.startswith("model = Net().cuda()") for line in f].index(True)
            check(any(f["filename"].endswith("history_model.py") and f["line"] == model_line
                      and f["name"] == "<module>" for f in frames), f"{tag}: fc1.weight's frames reach the script's line")
            check(not any("_ds_session" in f["filename"] for f in frames), f"{tag}: DeviceScope's runner frames left out")
        elif weight:
            check(len(weight[0]["frames"]) == 1, f"{tag}: without history only the owner frame")

    print(f"{len(failures)} failure(s)" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

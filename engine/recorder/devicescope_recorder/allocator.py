"""The CUDA caching allocator's own history, taken beside a recording and merged into it.

The recorder sees storages (what tensors hold); the allocator also holds memory no tensor shows: cuBLAS /
cuBLASLt workspaces, other library scratch, the rounding of every block, and the cached segments
(reserved). With the allocator's history on, its snapshot (`torch.cuda.memory._snapshot()`) has every
alloc / free of the run with the Python stack that made it; merge() adds the blocks no recorded storage
claims to the recording as alloc / free events of their own ("allocator only", role "workspace" when their
stack says so), so a device's allocated figure is the allocator's, not only the tensors'.

The history API differs by version: 2.1+ `_record_memory_history(enabled="all", context="all",
stacks="python", max_entries=N)`; 2.0 `_record_memory_history(True, trace_alloc_max_entries=N,
trace_alloc_record_context=True)`; 1.13 `_record_memory_history(True)` (no trace length: its snapshot
holds the segments and a short history). Frames of this package (the dispatch mode runs every op from
recorder.py) are cut from every stack, so blocks are credited to the user's line.

Pure functions of dicts below start_history / stop_history / take: tests feed them synthetic snapshots.
"""
import bisect
import os

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MAX_ENTRIES = 200000  # alloc/free entries kept (a ring): each holds a Python stack, about 1 KB
# A recorded storage claims the allocator block at its address made at most this long after it (ns):
# the allocator's clock is converted to Unix time, the recorder's is perf_counter based.
CLOCK_SLACK_NS = 2000000
WORKSPACE_WORDS = ("workspace", "cublas", "cudnn", "cusolver", "cufft")


def start_history(torch, max_entries=DEFAULT_MAX_ENTRIES):
    """Turns the allocator's history on with the newest API this torch has; returns which form took."""
    record = torch.cuda.memory._record_memory_history
    try:
        record(enabled="all", context="all", stacks="python", max_entries=max_entries)
        return "2.1"
    except TypeError:  # 2.0 and 1.13: `enabled` is a bool and there is no `context` / `stacks`
        pass
    try:
        record(True, trace_alloc_max_entries=max_entries, trace_alloc_record_context=True)
        return "2.0"
    except TypeError:
        pass
    record(True)
    return "1.13"


def stop_history(torch, form):
    record = torch.cuda.memory._record_memory_history
    try:
        record(enabled=None) if form == "2.1" else record(False)
    except Exception:  # the history is only ours to stop: a failure here loses nothing written
        pass


def take(torch):
    """The snapshot as a dict with "segments" and "device_traces" (1.13 gives the same keys)."""
    snap = torch.cuda.memory._snapshot()
    if isinstance(snap, list):  # very old form: segments only
        snap = {"segments": snap, "device_traces": []}
    return snap


def strip_own_frames(value, package_dir=PACKAGE_DIR):
    """Removes this package's frames from every "frames" list in the snapshot, in place; returns the count."""
    removed = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            frames = v.get("frames")
            if isinstance(frames, list):
                kept = [f for f in frames if not (isinstance(f, dict) and str(f.get("filename", "")).startswith(package_dir))]
                removed += len(frames) - len(kept)
                v["frames"] = kept
            stack.extend(x for k, x in v.items() if k != "frames" and isinstance(x, (dict, list)))
        elif isinstance(v, list):
            stack.extend(x for x in v if isinstance(x, (dict, list)))
    return removed


def user_frame(frames, torch_dir):
    """'file:line' of the innermost frame outside torch (frames are innermost first), else ''."""
    for f in frames or ():
        fn = str(f.get("filename", ""))
        if fn and not fn.startswith(torch_dir) and not fn.startswith("<") and f.get("line", 0):
            return "%s:%d" % (os.path.basename(fn), f.get("line", 0))
    return ""


def role_of(frames):
    for f in frames or ():
        text = ("%s %s" % (f.get("name", ""), f.get("filename", ""))).lower()
        if any(w in text for w in WORKSPACE_WORDS):
            return "workspace"
    return "allocator-only"


def blocks_of(trace, segments, device):
    """Allocator blocks of one device from its trace: [addr, size, alloc_time_us or None, free_time_us or None,
    frames]. Blocks live at the snapshot with no alloc in the trace (made before the history started, or
    pushed out of its ring) come from the segments, with no times."""
    blocks, open_at = [], {}
    for e in trace:
        action, addr = e.get("action"), e.get("addr")
        if action == "alloc":
            b = [addr, e.get("size", 0), e.get("time_us"), None, e.get("frames") or []]
            open_at[addr] = b
            blocks.append(b)
        elif action == "free_requested" and addr in open_at:
            b = open_at.pop(addr)  # no longer allocated (PyTorch: awaiting free is not allocated)
            b[3] = e.get("time_us", b[2])
    for seg in segments:
        if seg.get("device", device) != device:
            continue
        for blk in seg.get("blocks", ()):
            if blk.get("state") != "active_allocated":
                continue
            addr = blk.get("address")
            if addr is None:  # 1.13 blocks carry no address: derive it from the segment's order
                continue
            if addr not in open_at:
                frames = blk.get("frames") or [f for h in blk.get("history", ()) for f in h.get("frames", ())]
                b = [addr, blk.get("size", 0), None, None, frames]
                open_at[addr] = b
                blocks.append(b)
    return blocks


def block_addresses(segments, device):
    """1.13 blocks have no "address": it is the segment's address plus the sizes of the blocks before it."""
    for seg in segments:
        if seg.get("device", device) != device:
            continue
        addr = seg.get("address", 0)
        for blk in seg.get("blocks", ()):
            blk.setdefault("address", addr)
            addr += blk.get("size", 0)


def merge(events, snapshot, epoch0_ns, storage_ptrs, next_id, torch_dir):
    """Adds the blocks only the allocator knows to a recording's events.

    events: rows [seq, kind, time_ns, place, storage_id, bytes, transfer_id, label, allocated, reserved] with
    string labels, time_ns on the recorder's clock (0 at the start, Unix time epoch0_ns); storage_ptrs:
    {storage id: data_ptr} of the recorded CUDA storages; next_id: the first free storage id.
    Returns (events renumbered in time order with each CUDA place's allocated recomputed, {storage id: role}
    of the added blocks, {device: summary of the allocator at the snapshot}).
    """
    segments = snapshot.get("segments") or []
    traces = snapshot.get("device_traces") or []
    claimed_at = {}  # (device, addr) -> sorted recorder alloc times
    for row in events:
        if row[1] == "alloc" and row[4] in storage_ptrs and row[3].startswith("cuda:"):
            claimed_at.setdefault((int(row[3][5:]), storage_ptrs[row[4]]), []).append(row[2])
    for times in claimed_at.values():
        times.sort()
    devices = set(range(len(traces))) | {s.get("device", 0) for s in segments}
    added, roles, summary = [], {}, {}
    for device in sorted(devices):
        block_addresses(segments, device)
        trace = traces[device] if device < len(traces) else []
        blocks = blocks_of(trace, segments, device)
        for addr, size, alloc_us, free_us, frames in blocks:
            start = None if alloc_us is None else max(alloc_us * 1000 - epoch0_ns, 0)
            end = None if free_us is None else max(free_us * 1000 - epoch0_ns, 0)
            if claimed(claimed_at.get((device, addr)), start, end):
                continue
            sid, place = next_id, "cuda:%d" % device
            next_id += 1
            role = roles[sid] = role_of(frames)
            where = user_frame(frames, torch_dir)
            label = ("%s (allocator only)" % ("workspace" if role == "workspace" else "no tensor")) + (" @ " + where if where else "")
            added.append([0, "alloc", start if start is not None else 0, place, sid, size, 0, label, 0, None])
            if end is not None:
                added.append([0, "free", max(end, start or 0), place, sid, size, 0, label, 0, None])
        summary["cuda:%d" % device] = device_summary(segments, device, roles, added)
    merged = sorted(events + added, key=lambda r: r[2])  # stable: the recorder's own order is kept
    recompute(merged)
    return merged, roles, summary


def claimed(times, start, end):
    """True when a recorded storage at the block's address began while the block was allocated."""
    if not times:
        return False
    if start is None:  # no clock (1.13, or the block is older than the trace): the address decides
        return True
    i = bisect.bisect_left(times, start - CLOCK_SLACK_NS)
    return i < len(times) and (end is None or times[i] <= end + CLOCK_SLACK_NS)


def device_summary(segments, device, roles, added):
    segs = [s for s in segments if s.get("device", device) == device]
    reserved = sum(s.get("total_size", 0) for s in segs)
    allocated = sum(b.get("size", 0) for s in segs for b in s.get("blocks", ()) if b.get("state") == "active_allocated")
    awaiting = sum(b.get("size", 0) for s in segs for b in s.get("blocks", ()) if b.get("state") == "active_awaiting_free")
    only = {r[4]: r[5] for r in added if r[1] == "alloc" and r[3] == "cuda:%d" % device}
    for r in added:
        if r[1] == "free":
            only.pop(r[4], None)
    return {"reserved_bytes": reserved, "allocated_bytes": allocated, "awaiting_free_bytes": awaiting,
            "cached_free_bytes": reserved - allocated - awaiting, "segments": len(segs),
            "allocator_only_bytes": sum(only.values()),
            "workspace_bytes": sum(v for k, v in only.items() if roles.get(k) == "workspace")}


def recompute(rows):
    """Renumbers seq and recomputes each CUDA place's allocated from its alloc / free rows in order. reserved:
    the recorder's rows read it from the allocator (torch.cuda.memory_reserved); added rows (reserved None)
    carry the last figure read before them; never below allocated."""
    live, reserved = {}, {}
    for n, row in enumerate(rows, 1):
        row[0] = n
        place = row[3]
        if not place.startswith("cuda:"):
            continue
        if row[1] == "alloc":
            live[place] = live.get(place, 0) + row[5]
        elif row[1] == "free":
            live[place] = live.get(place, 0) - row[5]
        if row[9] is not None:
            reserved[place] = row[9]
        row[8] = live.get(place, 0)
        row[9] = max(reserved.get(place, 0), row[8])

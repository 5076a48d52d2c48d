"""Writes a recording in DeviceScope's Chrome trace format (engine/trace/export_chrome_trace.cpp).

The layout is the C++ writer's, so `load_trace` (engine/trace/load_trace.cpp) reads it with nothing new:
  {"displayTimeUnit":"ns", "traceEvents":[...], "metadata":{...}, "devicescopeEvents":[[10 columns], ...]}
traceEvents hold one "X" slice per transfer (every TransferRecord field in args: load_trace requires them
all), allocated/reserved counters and module moves for Perfetto. devicescopeEvents hold every event.
The extra top-level "devicescopeRecorder" object (storage roles, the Python line of each transfer) is
skipped by today's reader and kept for the app to use later.
"""
import json
import os

FORMAT = "devicescope-chrome-trace"
FORMAT_VERSION = 1
EVENT_COLUMNS = ["seq", "kind", "time_ns", "place", "storage_id", "bytes", "transfer_id", "label",
                 "allocated_after", "reserved_after"]
HOST_PID = 1
DEVICE_PID_BASE = 100
FIRST_COPY_TID = 1000
DIRECTIONS = ["H2D", "D2H", "D2D", "P2P", "H2H"]


def _is_host(place):
    return not place.startswith("cuda:")


def _device(place):
    return int(place[5:])


def direction(src, dst):
    if _is_host(src) and _is_host(dst):
        return "H2H"
    if _is_host(src):
        return "H2D"
    if _is_host(dst):
        return "D2H"
    return "D2D" if src == dst else "P2P"


def _transfer_pid(t):
    src, dst = t["src"], t["dst"]
    if _is_host(src) and _is_host(dst):
        return HOST_PID
    for p in (src, dst):
        if not _is_host(p) and _device(p) == t["stream_device"]:
            return DEVICE_PID_BASE + t["stream_device"]
    return DEVICE_PID_BASE + _device(src if _is_host(dst) else dst)


def _us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def _text(s):
    # No \u escapes: Perfetto's tokenizer gives up on them (export_chrome_trace.cpp).
    return json.dumps(s, ensure_ascii=False)


def _lanes(transfers):
    """(pid, tid) per transfer: first fit in (pid, stream, direction) groups, as the C++ writer does."""
    keyed = []
    for i, t in enumerate(transfers):
        keyed.append((_transfer_pid(t), t["stream"], DIRECTIONS.index(direction(t["src"], t["dst"])),
                      t["start_ns"], t["id"], i))
    keyed.sort()
    lane_of = [0] * len(transfers)
    group, ends = None, []
    for pid, stream, d, start, _, i in keyed:
        if (pid, stream, d) != group:
            group, ends = (pid, stream, d), []
        lane = next((k for k, end in enumerate(ends) if end <= start), len(ends))
        if lane == len(ends):
            ends.append(0)
        ends[lane] = max(transfers[i]["end_ns"], start)
        lane_of[i] = (pid, stream, d, lane)
    tids = {key: FIRST_COPY_TID + n for n, key in enumerate(sorted(set(lane_of)))}
    return [(key[0], tids[key]) for key in lane_of], tids


def _metadata(name, pid, tid, value):
    return '{"name":"%s","ph":"M","pid":%d,"tid":%d,"args":{"name":%s}}' % (name, pid, tid, _text(value))


def write(path, meta, events, transfers, extra):
    """events: [seq, kind, time_ns, place, storage_id, bytes, transfer_id, label, allocated, reserved] rows
    (labels already resolved to strings); transfers: dicts with every stored TransferRecord field."""
    placed, tids = _lanes(transfers)
    devices = sorted({p for p, _ in placed if p != HOST_PID} |
                     {DEVICE_PID_BASE + _device(e[3]) for e in events if not _is_host(e[3])})
    rows = [_metadata("process_name", HOST_PID, HOST_PID, "host"),
            _metadata("thread_name", HOST_PID, HOST_PID, "python")]
    for pid in devices:
        rows.append(_metadata("process_name", pid, pid, "cuda:%d" % (pid - DEVICE_PID_BASE)))
    for (pid, stream, d, lane), tid in tids.items():
        name = "stream %d %s" % (stream, DIRECTIONS[d]) + (" lane %d" % (lane + 1) if lane else "")
        rows.append(_metadata("thread_name", pid, tid, name))
    for t, (pid, tid) in zip(transfers, placed):
        dur = max(t["end_ns"] - t["start_ns"], 0)
        args = {"id": t["id"], "bytes": t["bytes"], "GB/s": round(t["bytes"] / dur, 3) if dur else 0.0,
                "route": t["route"], "src": t["src"], "dst": t["dst"], "owner": t["owner"], "simulated": False,
                "non_blocking": t["non_blocking"], "async": t["async"], "complete": True,
                "stream_device": t["stream_device"], "stream": t["stream"], "enqueue_ns": t["enqueue_ns"],
                "start_ns": t["start_ns"], "end_ns": t["end_ns"], "measured_ns": t["measured_ns"],
                "src_storage": t["src_storage"], "dst_storage": t["dst_storage"]}
        name = direction(t["src"], t["dst"]) + (" " + t["owner"] if t["owner"] else "")
        rows.append('{"ph":"X","ts":%s,"dur":%s,"pid":%d,"tid":%d,"name":%s,"cat":"transfer","args":%s}' % (
            _us(t["start_ns"]), _us(dur), pid, tid, _text(name), json.dumps(args, ensure_ascii=False)))
    for e in events:
        kind, place = e[1], e[3]
        pid = HOST_PID if _is_host(place) else DEVICE_PID_BASE + _device(place)
        prefix = place + " " if _is_host(place) else ""
        if kind in ("alloc", "free"):
            for what, value in (("allocated", e[8]), ("reserved", e[9])):
                rows.append('{"ph":"C","ts":%s,"pid":%d,"tid":%d,"name":"%s%s","args":{"bytes":%d}}' % (
                    _us(e[2]), pid, pid, prefix, what, value))
        elif kind in ("module-move-begin", "module-move-end"):
            rows.append('{"ph":"%s","ts":%s,"pid":%d,"tid":%d,"name":%s,"cat":"module","args":{"seq":%d}}' % (
                "B" if kind.endswith("begin") else "E", _us(e[2]), HOST_PID, HOST_PID, _text(e[7] or "module move"),
                e[0]))
    metadata = dict(meta)
    metadata.update({"producer": "DeviceScope", "format": FORMAT, "format_version": FORMAT_VERSION,
                     "simulated": False, "timings": "measured", "transfer_count": len(transfers),
                     "event_count": len(events), "windowed": False, "events_dropped": 0,
                     "transfers_dropped": 0, "event_columns": EVENT_COLUMNS})
    tmp = path + ".partial"
    with open(tmp, "w", encoding="utf-8") as out:
        out.write('{"displayTimeUnit":"ns",\n"traceEvents":[\n')
        out.write(",\n".join(rows))
        out.write('\n],\n"metadata":%s,\n' % json.dumps(metadata, ensure_ascii=False))
        out.write('"devicescopeRecorder":%s,\n' % json.dumps(extra, ensure_ascii=False))
        out.write('"devicescopeEvents":[')
        out.write(",".join("\n" + json.dumps(e, ensure_ascii=False) for e in events))
        out.write("\n]}\n")
    os.replace(tmp, path)  # a reader never sees half a file

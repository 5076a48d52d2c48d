# From a tracked run (devicescope/_estimate_track.py) to the estimate's answer: each device's peak and when it
# happened, the forward and backward peaks, and at each of those moments the live bytes by module x category.
#
# Categories (issue 25; MemTracker's PARAM, BUFFER, GRAD, OPT, ACT, TEMP, OTH, plus the cuBLAS workspace):
#   parameter, buffer, gradient, optimizer state, cuBLAS workspace - the role the storage ended with (tags come
#     after the allocation: a gradient is an op result until it becomes .grad);
#   activation - made during forward and still alive when that forward ended (saved for backward, outputs), or
#     made by activation-checkpoint recomputation during backward;
#   temporary - made during forward and freed before it ended, made during backward (gradients of activations,
#     kernel buffers), or made by the optimizer step (foreach temporaries);
#   other - made outside forward, backward and step (inputs, targets, anything the script builds itself).
# Bytes are the allocator's (what memory_allocated counts: 512-byte rounding, unsplit remainders), taken from its
# figure after each event, so the rows of a moment add up to memory_allocated() then, to the byte.
import re

import _devicescope_C as _E

from . import _estimate_track as T

CATEGORIES = ("parameter", "buffer", "gradient", "optimizer state", "activation", "temporary",
              "cuBLAS workspace", "other")
_ROLE_CATEGORY = {"parameter": "parameter", "buffer": "buffer", "gradient": "gradient",
                  "optimizer_state": "optimizer state", "workspace": "cuBLAS workspace"}
_ROLES = _E.role_names()


def _forward_ends(transitions):
    """iteration -> the first event seq after its forward (None: the run ended inside it)."""
    ends = {}
    for i, (seq, phase, it) in enumerate(transitions):
        if phase == T.FORWARD:
            ends[it] = transitions[i + 1][0] if i + 1 < len(transitions) else None
    return ends


def _classify(tracker, live_roles):
    """Per alloc record index: (device, bytes, module, category); plus free record index -> alloc index."""
    records = tracker.records
    last = dict(tracker.baseline)
    size = {}
    freed_at = {}   # alloc index -> free seq
    free_role = {}  # alloc index -> role code when freed
    free_label = {}  # alloc index -> owner when freed
    by_sid = {}
    for i, r in enumerate(records):
        dev, after = r[2], r[4]
        before = last.get(dev, 0)
        last[dev] = after
        if r[1]:
            size[i] = after - before
            by_sid[r[3]] = i
        else:
            a = by_sid.pop(r[3], None)
            if a is not None:
                freed_at[a] = r[0]
                free_role[a] = r[5]
                free_label[a] = r[6]
    ends = _forward_ends(tracker.transitions)
    owners = tracker.storage_module
    info = {}
    for i, r in enumerate(records):
        if not r[1]:
            continue
        seq, _, dev, sid, _, module, phase, it, recompute = r
        if i in free_role:
            role = _ROLES[free_role[i]]
        else:
            role = _ROLES[live_roles[sid][0]] if sid in live_roles else "tensor"
        cat = _ROLE_CATEGORY.get(role)
        if cat is None:
            if phase == T.FORWARD:
                end = ends.get(it)
                free = freed_at.get(i)
                cat = "temporary" if (free is not None and end is not None and free < end) else "activation"
            elif phase == T.BACKWARD:
                cat = "activation" if recompute else "temporary"
            elif phase == T.OPTIMIZER:
                cat = "temporary"
            else:
                cat = "other"
        owner = owners.get(sid)
        if owner is None:
            # Library buffers that hold parameters or gradients (DDP buckets, FSDP all-gather and reduce-scatter
            # buffers) are named by their tag, not by the module that happened to run when they were made.
            label = free_label.get(i) if i in free_label else (live_roles[sid][1] if sid in live_roles else "")
            owner = label if (label and cat in ("gradient", "parameter")) else module
        info[i] = (dev, size[i], owner, cat)
    return info


def _moment(r):
    return {"seq": r[0], "phase": r[6], "module": r[5], "iteration": r[7]}


def _find_peaks(tracker):
    """Per device: index of the record at its global, forward and backward peaks (allocations only)."""
    peaks = {}
    for i, r in enumerate(tracker.records):
        if not r[1]:
            continue
        dev, after, phase = r[2], r[4], r[6]
        p = peaks.setdefault(dev, {"peak": None, "forward": None, "backward": None})
        for key, wanted in (("peak", True), ("forward", phase == T.FORWARD), ("backward", phase == T.BACKWARD)):
            j = p[key]
            if wanted and (j is None or after > tracker.records[j][4]):
                p[key] = i
    return peaks


def _replay(tracker, info, targets):
    """{record index: {(module, category): bytes}} of the device's live tracked bytes right after each target."""
    live = {}      # dev -> {(module, cat): bytes}
    alive = {}     # sid -> alloc index
    out = {}
    want = set(targets)
    for i, r in enumerate(tracker.records):
        if r[1]:
            dev, nbytes, module, cat = info[i]
            alive[r[3]] = i
            d = live.setdefault(dev, {})
            key = (module, cat)
            d[key] = d.get(key, 0) + nbytes
        else:
            a = alive.pop(r[3], None)
            if a is not None:
                dev, nbytes, module, cat = info[a]
                d = live[dev]
                d[(module, cat)] -= nbytes
        if i in want:
            out[i] = {k: v for k, v in live.get(r[2], {}).items() if v}
    return out, live


def _table(cells, baseline):
    """Rows {module, <category>: bytes, total}, largest total first; memory live before tracking is one row."""
    rows = {}
    for (module, cat), nbytes in cells.items():
        row = rows.setdefault(module or "(no module)", dict.fromkeys(CATEGORIES, 0))
        row[cat] += nbytes
    if baseline:
        row = rows.setdefault("(before tracking)", dict.fromkeys(CATEGORIES, 0))
        row["other"] += baseline
    out = []
    for module, row in rows.items():
        total = sum(row.values())
        if total:
            out.append(dict(module=module, total=total, **row))
    out.sort(key=lambda r: (-r["total"], natural_key(r["module"])))
    return out


def natural_key(name):
    """Module paths in the order people count: layers.2 before layers.10."""
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", name)]


def _by_category(rows):
    totals = dict.fromkeys(CATEGORIES, 0)
    for row in rows:
        for c in CATEGORIES:
            totals[c] += row[c]
    return totals


def analyse(tracker):
    """The per-device answer as a dict (the keys of `devicescope estimate --json`, see README)."""
    tracker.drain()
    live_roles = _E.estimate_live_roles()
    info = _classify(tracker, live_roles)
    peaks = _find_peaks(tracker)
    targets = [j for p in peaks.values() for j in p.values() if j is not None]
    at, live_end = _replay(tracker, info, targets)
    devices = []
    for dev in sorted(set(tracker.baseline) | set(peaks)):
        p = peaks.get(dev, {})
        base = tracker.baseline.get(dev, 0)
        entry = {"device": "cuda:%d" % dev}
        for key, label in (("peak", "peak"), ("forward", "forward_peak"), ("backward", "backward_peak")):
            j = p.get(key)
            if j is None:
                entry[label + "_bytes"] = base if key == "peak" else None
                entry[label + "_at"] = None
                entry[label + "_table"] = _table({}, base) if key == "peak" else []
                continue
            r = tracker.records[j]
            rows = _table(at[j], base)
            entry[label + "_bytes"] = r[4]
            entry[label + "_at"] = _moment(r)
            entry[label + "_table"] = rows
        entry["peak_by_category"] = _by_category(entry["peak_table"])
        entry["end_bytes"] = _E_allocated(dev)
        devices.append(entry)
    return {"categories": list(CATEGORIES), "iterations": tracker.iteration, "devices": devices,
            "events_lost": bool(tracker.lost_events)}


def _E_allocated(dev):
    import torch
    return int(torch.cuda.memory_allocated(dev))

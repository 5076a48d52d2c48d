# torch.cuda.memory_stats() with PyTorch's keys and torch.cuda.memory_summary() in its table layout, from
# DeviceScope's caching allocator: current values from its segments and blocks; peaks and the cumulative
# "allocated"/"freed" figures by replaying the runtime's alloc/free events on the device since the last
# reset_peak_memory_stats (a run longer than the event log's window counts only the window).
import _devicescope_C as _E

_POOLS = ("all", "large_pool", "small_pool")
_SMALL = 1 << 20   # PyTorch's small pool: blocks of at most 1 MiB
_ROUND = 512       # every block is a multiple of 512 bytes
_resets = {}       # device -> (event seq at the last peak reset, running values, allocated, freed at that point)


def _round(n):
    return max(_ROUND, (n + _ROUND - 1) // _ROUND * _ROUND)


def _current(device):
    cur = {}
    for key in ("allocation", "segment", "active", "inactive_split", "allocated_bytes", "reserved_bytes",
                "active_bytes", "inactive_split_bytes", "requested_bytes"):
        for pool in _POOLS:
            cur[(key, pool)] = 0
    for size, small, blocks in _E.memory_segments(device):
        for pool in ("all", "small_pool" if small else "large_pool"):
            cur[("segment", pool)] += 1
            cur[("reserved_bytes", pool)] += size
            for bsize, allocated in blocks:
                if allocated:
                    cur[("allocation", pool)] += 1
                    cur[("active", pool)] += 1
                    cur[("allocated_bytes", pool)] += bsize
                    cur[("active_bytes", pool)] += bsize
                elif len(blocks) > 1:
                    cur[("inactive_split", pool)] += 1
                    cur[("inactive_split_bytes", pool)] += bsize
    return cur


def _replay(device, cur):
    """peak / allocated / freed per (metric, pool) from the alloc/free events since the last reset."""
    seq0, base, allocated, freed = _resets.get(device, (0, None, None, None))
    running = dict(base) if base else {k: 0 for k in cur}
    peak = dict(running)
    allocated = dict(allocated) if allocated else {k: 0 for k in cur}  # cumulative: peak resets keep them
    freed = dict(freed) if freed else {k: 0 for k in cur}
    place = f"cuda:{device}"
    for _, kind, _, where, storage_id, nbytes, _, _ in _E.events_since(seq0):
        if where != place or kind not in ("alloc", "free") or nbytes == 0:
            continue
        size = _round(nbytes)
        pools = ("all", "small_pool" if size <= _SMALL else "large_pool")
        sign = 1 if kind == "alloc" else -1
        for pool in pools:
            for key, amount in (("allocation", 1), ("active", 1), ("allocated_bytes", size),
                                ("active_bytes", size), ("requested_bytes", nbytes)):
                running[(key, pool)] += sign * amount
                (allocated if sign > 0 else freed)[(key, pool)] += amount
                peak[(key, pool)] = max(peak[(key, pool)], running[(key, pool)])
    for k, v in cur.items():  # what the log cannot replay (segments, splits) peaks at least at its current value
        peak[k] = max(peak[k], v)
    return peak, allocated, freed, running


def _resolve(device):
    return _E.current_device() if device is None or device < 0 else device


def memory_stats(device):
    device = _resolve(device)
    cur = _current(device)
    peak, allocated, freed, running = _replay(device, cur)
    engine = _E.memory_stats(device)
    peak[("allocated_bytes", "all")] = max(peak[("allocated_bytes", "all")], engine["allocated_bytes.all.peak"])
    peak[("reserved_bytes", "all")] = max(peak[("reserved_bytes", "all")], engine["reserved_bytes.all.peak"])
    cur[("requested_bytes", "all")] = running[("requested_bytes", "all")]
    for pool in ("large_pool", "small_pool"):
        cur[("requested_bytes", pool)] = running[("requested_bytes", pool)]
    out = {}
    for (key, pool), value in cur.items():
        out[f"{key}.{pool}.current"] = value
        out[f"{key}.{pool}.peak"] = peak[(key, pool)]
        out[f"{key}.{pool}.allocated"] = allocated[(key, pool)]
        out[f"{key}.{pool}.freed"] = freed[(key, pool)]
    for key in ("oversize_allocations", "oversize_segments"):
        for stat in ("current", "peak", "allocated", "freed"):
            out[f"{key}.{stat}"] = 0
    out["max_split_size"] = -1
    out["num_alloc_retries"] = engine["num_alloc_retries"]
    out["num_ooms"] = engine["num_ooms"]
    out["num_sync_all_streams"] = 0
    out["num_device_alloc"] = out["segment.all.allocated"]
    out["num_device_free"] = out["segment.all.freed"]
    return dict(sorted(out.items()))


def reset_peak_memory_stats(device):
    """Peaks start again from the current values; the cumulative allocated/freed figures carry on."""
    device = _resolve(device)
    cur = _current(device)
    _, allocated, freed, running = _replay(device, cur)
    base = dict(cur)
    for pool in _POOLS:
        base[("requested_bytes", pool)] = running[("requested_bytes", pool)]
    _resets[device] = (_E.next_event_seq(), base, allocated, freed)


def memory_summary(device, abbreviated=False):
    device = _resolve(device)
    stats = memory_stats(device)

    def fmt_size(sz, pref_sz):
        prefixes = ["B  ", "KiB", "MiB", "GiB", "TiB", "PiB"]
        prefix = prefixes[0]
        for new_prefix in prefixes[1:]:
            if pref_sz < 768 * 1024:
                break
            prefix = new_prefix
            sz //= 1024
            pref_sz /= 1024
        return f"{sz:6d} {prefix}"

    def fmt_count(cnt, pref_cnt):
        prefixes = [" ", "K", "M"]
        prefix = prefixes[0]
        for new_prefix in prefixes[1:]:
            if pref_cnt < 750 * 1000:
                break
            prefix = new_prefix
            cnt //= 1000
            pref_cnt /= 1000
        return f"{cnt:7d} {prefix} "

    metrics = [("allocated_bytes", "Allocated memory", fmt_size), ("active_bytes", "Active memory", fmt_size),
               ("requested_bytes", "Requested memory", fmt_size), ("reserved_bytes", "GPU reserved memory", fmt_size),
               ("inactive_split_bytes", "Non-releasable memory", fmt_size), ("allocation", "Allocations", fmt_count),
               ("active", "Active allocs", fmt_count), ("segment", "GPU reserved segments", fmt_count),
               ("inactive_split", "Non-releasable allocs", fmt_count)]
    lines = ["=" * 75, f" {'':16} PyTorch CUDA memory summary, device ID {device:<17d} ", "-" * 75,
             f"  {'':9} CUDA OOMs: {stats['num_ooms']:<12d} | {'':6} cudaMalloc retries: "
             f"{stats['num_alloc_retries']:<8d}  ", "=" * 75,
             "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  "]
    for key, name, formatter in metrics:
        lines.append("-" * 75)
        subs = [("all", name)] + ([] if abbreviated else [("large_pool", "      from large pool"),
                                                           ("small_pool", "      from small pool")])
        pref = None
        for pool, label in subs:
            vals = [stats[f"{key}.{pool}.{s}"] for s in ("current", "peak", "allocated", "freed")]
            pref = pref or vals
            lines.append(f" {label:<21} | " + " | ".join(formatter(v, p) for v, p in zip(vals, pref)) + " ")
    for key, name in (("oversize_allocations", "Oversize allocations"), ("oversize_segments", "Oversize GPU segments")):
        lines.append("-" * 75)
        vals = [stats[f"{key}.{s}"] for s in ("current", "peak", "allocated", "freed")]
        lines.append(f" {name:<21} | " + " | ".join(fmt_count(v, v) for v in vals) + " ")
    lines.append("=" * 75)
    return "|" + "|\n|".join(lines) + "|\n"

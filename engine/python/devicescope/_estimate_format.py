# The text `devicescope estimate` prints: per device its peak with the moment and the split by category, then
# the module x category tables at the forward and backward peaks (like MemTracker's display_modulewise_snapshots,
# from one run). Sizes are human (binary units); --json has the exact bytes.

_SHORT = {"parameter": "param", "buffer": "buffer", "gradient": "grad", "optimizer state": "optim",
          "activation": "act", "temporary": "temp", "cuBLAS workspace": "cuBLAS ws", "other": "other"}
_MAX_ROWS = 25

from ._estimate_report import natural_key as _natural  # noqa: E402


def human(n):
    if n is None:
        return "-"
    n = int(n)
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(n) >= size:
            return "%.2f %s" % (n / size, unit)
    return "%d B" % n


def _moment(at):
    if not at:
        return "-"
    where = at["module"] or "no module"
    return "%s, in %s (iteration %d)" % (at["phase"], where, at["iteration"])


def _grouped(rows, categories, depth):
    """Rows merged by the first `depth` parts of their module path ("Llama.layers.3" has 3); 0 keeps them."""
    if not depth:
        return rows
    merged = {}
    for r in rows:
        name = r["module"]
        if not name.startswith("("):
            name = ".".join(name.split(".")[:depth])
        m = merged.setdefault(name, dict(module=name, total=0, **dict.fromkeys(categories, 0)))
        m["total"] += r["total"]
        for c in categories:
            m[c] += r[c]
    return list(merged.values())


def _table(rows, categories, lines, depth=0):
    rows = sorted(_grouped(rows, categories, depth), key=lambda r: (-r["total"], _natural(r["module"])))
    used = [c for c in categories if any(r[c] for r in rows)]
    width = max([len("module")] + [len(r["module"]) for r in rows[:_MAX_ROWS]] + [len("(%d more modules)" % 0)])
    width = min(width, 60)
    head = "  %-*s" % (width, "module") + "".join("%12s" % _SHORT[c] for c in used) + "%12s" % "total"
    lines.append(head)
    for r in rows[:_MAX_ROWS]:
        name = r["module"] if len(r["module"]) <= width else "..." + r["module"][-(width - 3):]
        lines.append("  %-*s" % (width, name) + "".join("%12s" % human(r[c]) for c in used)
                     + "%12s" % human(r["total"]))
    if len(rows) > _MAX_ROWS:
        rest = rows[_MAX_ROWS:]
        lines.append("  %-*s" % (width, "(%d more modules)" % len(rest))
                     + "".join("%12s" % human(sum(r[c] for r in rest)) for c in used)
                     + "%12s" % human(sum(r["total"] for r in rest)))


def format_text(result, depth=0):
    cats = result["categories"]
    lines = []
    cap = result["device_capacity_bytes"]
    mode = "virtual tensors (no bytes held)" if result["virtual"] else "real tensors"
    lines.append("estimate: %s on %d simulated device(s) of %s, %s"
                 % (result["script"], len(result["devices"]), human(cap), mode))
    if result["world_size"] > 1:
        lines.append("ranks: world size %d; %s" % (result["world_size"], result["ranks_note"]))
    lines.append("iterations seen: %d" % result["iterations"])
    if result.get("events_lost"):
        lines.append("warning: the event log dropped events before they were read; figures may be incomplete")
    for d in result["devices"]:
        if not d["peak_at"] and not d["peak_bytes"]:
            continue
        lines.append("")
        lines.append("%s peak %s (%.1f%% of %s) at %s"
                     % (d["device"], human(d["peak_bytes"]), 100.0 * d["peak_bytes"] / cap if cap else 0.0,
                        human(cap), _moment(d["peak_at"])))
        split = d["peak_by_category"]
        lines.append("  " + ", ".join("%s %s" % (c, human(split[c])) for c in cats if split[c]))
        if d["forward_peak_at"]:
            lines.append("  forward peak %s at %s" % (human(d["forward_peak_bytes"]), _moment(d["forward_peak_at"])))
        if d["backward_peak_at"]:
            lines.append("  backward peak %s at %s" % (human(d["backward_peak_bytes"]),
                                                        _moment(d["backward_peak_at"])))
    if result["world_size"] > 1 and result["devices"] and result["devices"][0]["peak_at"]:
        n = result["world_size"] - 1
        others = "cuda:1 (rank 1)" if n == 1 else "cuda:1..cuda:%d (ranks 1-%d)" % (n, n)
        lines.append("%s: the same program on the same shapes as rank 0, so the same peak %s (not simulated)"
                     % (others, human(result["devices"][0]["peak_bytes"])))
    for d in result["devices"]:
        for key, title in (("forward_peak", "forward peak"), ("backward_peak", "backward peak")):
            if not d[key + "_at"]:
                continue
            lines.append("")
            lines.append("%s at the %s (%s), by module x category%s:" % (
                d["device"], title, human(d[key + "_bytes"]), " (modules to depth %d)" % depth if depth else ""))
            _table(d[key + "_table"], cats, lines, depth)
    oom = result.get("oom")
    lines.append("")
    if oom:
        lines.append("OUT OF MEMORY during %s, in %s (iteration %d):" % (oom["phase"], oom["module"] or "no module",
                                                                        oom["iteration"]))
        lines.append("  torch.OutOfMemoryError: " + oom["message"])
        lines.append("does not fit")
    elif result.get("error"):
        e = result["error"]
        lines.append("the script stopped with %s: %s (figures up to there)" % (e["type"], e["message"]))
    else:
        lines.append("fits: the largest peak is %s of %s per device"
                     % (human(max((d["peak_bytes"] or 0) for d in result["devices"]) if result["devices"] else 0),
                        human(cap)))
    return "\n".join(lines) + "\n"

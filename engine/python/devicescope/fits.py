"""Lesson 019's what-fits-where view (the app calls it on the session's thread, PythonSession::call):

    from devicescope import fits
    fits.what_fits(model="1b", strategy="fsdp", checkpoint=False, seq=4096, batch=1, layers=None) -> dict

runs a Llama-shaped training step (assets/lessons/fits/fits_step.py) through devicescope.estimate on virtual
tensors - no bytes held, no values computed - on this session's devices, and returns what the view draws:
    {model, strategy, checkpoint, world_size, capacity, fits, categories, oom {message, phase, module, iteration} | None,
     error {type, message} | None,
     devices: [{device, simulated, note (why a device not simulated shows nothing), peak_bytes, peak_phase, peak_step, peak_module, by_category {cat: bytes}, table [{module, total, cat..}]}]}
"""
import os

_STRATEGIES = ("single", "ddp", "fsdp")
_TABLE_ROWS = 12  # the largest modules at each device's peak; the rest are summed by the estimate's total


def _script():
    from .lessons import default_dir
    return os.path.join(default_dir(), "fits", "fits_step.py")


def what_fits(model="1b", strategy="fsdp", checkpoint=False, seq=4096, batch=1, layers=None):
    from . import estimate
    if strategy not in _STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(_STRATEGIES)}, got {strategy!r}")
    argv = ["--model", str(model), "--strategy", strategy, "--seq", str(int(seq)), "--batch", str(int(batch))]
    if checkpoint:
        argv.append("--checkpoint")
    if layers:
        argv += ["--layers", str(int(layers))]
    try:
        r = estimate.estimate_file(_script(), argv, virtual=True)
    finally:
        # The step's model, optimizer and an out-of-memory traceback sit in reference cycles: free them now, so
        # the session's panes do not keep a failed estimate's gigabytes (virtual, but counted) until later.
        import gc
        import torch
        gc.collect()
        torch.cuda.empty_cache()
    devices = []
    simulated = {"cuda:%d" % k for k in r.get("simulated_ranks", [0])}
    for d in r.get("devices", []):
        at = d.get("peak_at") or {}
        # One rank is simulated; under DDP or sharding the others run the same program on the same shapes.
        idle = "idle: the step runs on cuda:0 only" if strategy == "single" else r.get("ranks_note", "")
        devices.append({"device": d["device"], "simulated": d["device"] in simulated,
                        "note": "" if d["device"] in simulated else idle,
                        "peak_bytes": d["peak_bytes"], "peak_phase": at.get("phase", ""), "peak_step": at.get("iteration", 0),
                        "peak_module": at.get("module", ""), "by_category": d.get("peak_by_category", {}),
                        "table": d.get("peak_table", [])[:_TABLE_ROWS]})
    oom = r.get("oom")
    return {"model": model, "strategy": strategy, "checkpoint": bool(checkpoint), "world_size": r.get("world_size", 1),
            "capacity": r.get("device_capacity_bytes", 0), "fits": r.get("fits"), "categories": r.get("categories", []),
            "oom": {k: oom.get(k) for k in ("message", "phase", "module", "iteration")} if oom else None,
            "error": r.get("error") or None, "devices": devices}

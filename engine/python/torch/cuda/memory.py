# torch.cuda.memory: the caching allocator's statistics (defined in torch/cuda/__init__.py, re-exported
# here as PyTorch does) and its memory history: _record_memory_history, _snapshot, _dump_snapshot and
# memory_snapshot write PyTorch 2.x's snapshot format (the dict of torch/cuda/memory.py `_snapshot`), so a
# DeviceScope run opens in pytorch.org/memory_viz and in `devicescope inspect`. The recorder and the dict
# are built in C++ (bindings_cuda_memory_history.cpp, Note [Memory history]); DeviceScope adds one frame per
# block and trace entry naming the owner: {"filename": "<devicescope parameter>", "line": 0,
# "name": "model.fc.weight"}.
import gc
import os
import pickle
import sys

import _devicescope_C as _E

from . import (_lazy_init, empty_cache, max_memory_allocated, max_memory_cached, max_memory_reserved,  # noqa: F401
               mem_get_info, memory_allocated, memory_cached, memory_reserved, memory_stats, memory_summary,
               reset_accumulated_memory_stats, reset_max_memory_allocated, reset_max_memory_cached,
               reset_peak_memory_stats, set_per_process_memory_fraction)

__all__ = ["empty_cache", "max_memory_allocated", "max_memory_cached", "max_memory_reserved", "mem_get_info",
           "memory_allocated", "memory_cached", "memory_reserved", "memory_snapshot", "memory_stats",
           "memory_summary", "reset_accumulated_memory_stats", "reset_max_memory_allocated",
           "reset_max_memory_cached", "reset_peak_memory_stats", "set_per_process_memory_fraction"]

# c10's RecordContext: frames for live blocks (state), also for alloc events (alloc), also for frees (all).
_CONTEXT_LEVELS = {None: 0, "state": 1, "alloc": 2, "all": 3}


def _runner_prefixes():
    """DeviceScope's own files that run the user's script: never part of a recorded stack."""
    python_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return [os.path.join(python_dir, "_ds_session.py"), os.path.join(python_dir, "devicescope") + os.sep]


def _record_memory_history_legacy(enabled, record_context=True, trace_alloc_max_entries=1,
                                  trace_alloc_record_context=False, device=None, record_context_cpp=False,
                                  clear_history=False):
    # memory_snapshot.cpp's legacy form: trace_alloc_record_context -> ALLOC, record_context -> STATE.
    _lazy_init()
    level = 2 if trace_alloc_record_context else (1 if record_context else 0)
    cpp = bool(record_context_cpp) and (bool(trace_alloc_record_context) or bool(record_context))
    _E.cuda_record_memory_history(bool(enabled), level, cpp, max(1, int(trace_alloc_max_entries)),
                                  bool(clear_history), _runner_prefixes())


def _record_memory_history_impl(enabled="all", context="all", stacks="all", max_entries=sys.maxsize,
                                device=None, clear_history=False):
    if enabled is not None and enabled not in ("state", "all"):
        raise RuntimeError("expected state to be 'state', 'all', or None")
    if context is not None and context not in ("state", "alloc", "all"):
        raise RuntimeError("expected context to be 'state', 'alloc', 'all', or None")
    if stacks not in ("python", "all"):
        raise RuntimeError("expected stacks to be 'python', or 'all'")
    _lazy_init()
    max_entries = int(max_entries) if enabled == "all" else 1  # "state" keeps no history of its own
    _E.cuda_record_memory_history(enabled is not None, _CONTEXT_LEVELS[context],
                                  enabled is not None and context is not None and stacks == "all",
                                  max(1, max_entries), bool(clear_history), _runner_prefixes())


def _record_memory_history(enabled="all", *args, **kwargs):
    """Enable recording of stack traces associated with memory allocations, so you can tell what
    allocated any piece of memory in torch.cuda.memory._snapshot(); enabled="all" also keeps a history
    of every alloc/free (up to max_entries per device). The bool form is PyTorch's legacy signature."""
    if isinstance(enabled, bool):
        return _record_memory_history_legacy(enabled, *args, **kwargs)
    return _record_memory_history_impl(enabled, *args, **kwargs)


def _holder_names():
    """storage id -> the names the script's globals reach it by ("model.fc.weight", "x"), from the same
    names graph the app draws. Never fails the user's call: no names is a snapshot without owner names."""
    main = sys.modules.get("__main__")
    if main is None:
        return {}
    try:
        from devicescope import names
    except ImportError:
        return {}
    last = names._last_graph  # the app's "changed since the last step" baseline stays the app's
    try:
        graph = names.build_object_graph(vars(main))
    except Exception:  # noqa: B902 - a user object whose __getattr__ raises must not fail the snapshot
        return {}
    finally:
        names._last_graph = last
    return {int(h["storage_id"]): list(h["names"]) for h in graph.get("holders", []) if h.get("storage_id")}


def _snapshot(device=None, augment_with_fx_traces=False):
    """Save a snapshot of CUDA memory state at the time it was called: {"segments": [...],
    "device_traces": [[...] per device], "allocator_settings": {...}} (the keys of PyTorch 2.11's dump). `device` is ignored, as in PyTorch: every device."""
    holders = _holder_names() if _E.device_count() else {}
    # A long trace is hundreds of thousands of new dicts: collector passes over them (and the user's heap)
    # would cost more than building them.
    collecting = gc.isenabled()
    gc.disable()
    try:
        # Without devices this is what a CUDA build on a machine without a GPU returns: no segments, no traces.
        return _E.cuda_memory_snapshot(holders)
    finally:
        if collecting:
            gc.enable()


def _dump_snapshot(filename="dump_snapshot.pickle", augment_with_fx_traces=False):
    """Save a pickled version of the _snapshot() dictionary to a file (pickle.dump, as PyTorch does), which
    pytorch.org/memory_viz and `devicescope inspect` open."""
    s = _snapshot(augment_with_fx_traces=augment_with_fx_traces)
    with open(filename, "wb") as f:
        pickle.dump(s, f)


def memory_snapshot(mempool_id=None):
    """The CUDA memory allocator state across all devices: the "segments" list of _snapshot()."""
    return _snapshot()["segments"]

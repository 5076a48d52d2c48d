"""What fits where: a training script's device memory by module and category, on simulated devices (issue 25).

    import devicescope.estimate as est
    result = est.estimate_file("train.py", argv=None, virtual=True)   # the dict `devicescope estimate --json` prints

    with est.track() as t:            # or around code of your own
        loss = model(x).sum(); loss.backward(); opt.step()
    result = t.result()

The script runs in this interpreter, on the devices the runtime has (devicescope estimate --devices N makes N
simulated ones). virtual=True runs it inside devicescope.virtual_mode(): every tensor it makes holds no bytes, so a
70B model's step is modelled, not computed. torch.distributed in the script sees a world of device_count() ranks
and this process is rank 0 (DeviceScope simulates rank 0: the ranks of DDP and full sharding run the same program
on the same shapes, so rank 0's figures are every rank's).

The result's keys are documented in README.md (`estimate --json` keys); devicescope/_estimate_report.py says what
each category holds.
"""
import os
import sys

from . import _estimate_report as _report
from . import _estimate_track as _track

__all__ = ["estimate_file", "track", "format_text"]


class track:
    """Context manager: tracks the device allocations made inside it; .result() is the estimate dict."""

    def __init__(self):
        self.tracker = None
        self._result = None

    def __enter__(self):
        self.tracker = _track.Tracker().install()
        return self

    def __exit__(self, *exc):
        self.tracker.remove()
        return False

    def result(self):
        if self._result is None:
            self._result = _report.analyse(self.tracker)
        return self._result


def _capacity(dev):
    import torch
    return int(torch.cuda.get_device_properties(dev).total_memory)


def _world_env(world_size):
    """torchrun's variables for rank 0 of `world_size`, set for the run (what the script reads)."""
    values = {"WORLD_SIZE": str(world_size), "RANK": "0", "LOCAL_RANK": "0", "LOCAL_WORLD_SIZE": str(world_size),
              "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500"}
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    return saved


def _restore_env(saved):
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


class _Run:
    """One estimate: begin() before the script, finish() after it (the CLI runs the script in between, as
    `devicescope run` does; estimate_file runs it itself)."""

    def __init__(self, script, virtual):
        import torch
        self.script = script
        self.virtual = bool(virtual)
        self.world_size = max(1, torch.cuda.device_count())
        self._saved_env = _world_env(self.world_size)
        self._virtual_ctx = None
        if self.virtual:
            from .tensors import virtual_mode
            self._virtual_ctx = virtual_mode()
            self._virtual_ctx.__enter__()
        self.tracking = track().__enter__()

    def finish(self, error_type="", error_message=""):
        import torch
        where = self.tracking.tracker.failure_context()
        self.tracking.__exit__(None, None, None)
        if self._virtual_ctx is not None:
            self._virtual_ctx.__exit__(None, None, None)
        _restore_env(self._saved_env)
        try:
            import torch.distributed as dist
            if dist.is_initialized():
                dist.destroy_process_group()
        except (ImportError, AttributeError):
            pass
        out = {"script": self.script, "virtual": self.virtual, "world_size": self.world_size,
               "simulated_ranks": [0],
               "ranks_note": ("rank 0 simulated on cuda:0; the other ranks run the same program on the same shapes"
                              if self.world_size > 1 else "one device"),
               "device_capacity_bytes": _capacity(0) if torch.cuda.device_count() else 0,
               "oom": None, "error": None}
        out.update(self.tracking.result())
        # Every rank's answer: rank 0's, measured; the others run the same program on the same shapes (DDP and
        # full sharding are symmetric), so their figures are rank 0's - said so by simulated: false.
        first = out["devices"][0] if out["devices"] else None
        out["ranks"] = [{"rank": r, "device": "cuda:%d" % r, "simulated": r == 0,
                         "peak_bytes": first["peak_bytes"] if first else 0,
                         "peak_by_category": first["peak_by_category"] if first else {}}
                        for r in range(self.world_size)]
        is_oom = error_type.endswith("OutOfMemoryError")
        if is_oom:
            phase, module, iteration = where
            out["oom"] = {"message": error_message, "phase": phase, "module": module, "iteration": iteration}
        elif error_type:
            out["error"] = {"type": error_type, "message": error_message}
        out["fits"] = not is_oom and not error_type
        return out


_current = None


_saved_stdout = None


def begin(script, virtual=True, as_json=False):
    """CLI: starts tracking (and virtual mode) for `script`, which the caller then runs as __main__. With
    as_json the script's own prints go to stderr, so that stdout is the JSON document alone."""
    global _current, _saved_stdout
    _current = _Run(script, virtual)
    if as_json:
        _saved_stdout = sys.stdout
        sys.stdout = sys.stderr
    return True


def finish(error_type="", error_message="", as_json=False, depth=0):
    """CLI: ends tracking and prints the answer (text, or JSON); returns the result dict."""
    global _current, _saved_stdout
    run, _current = _current, None
    if run is None:
        raise RuntimeError("devicescope estimate: finish() without begin()")
    if _saved_stdout is not None:
        sys.stdout.flush()
        sys.stdout, _saved_stdout = _saved_stdout, None
    out = run.finish(error_type, error_message)
    if as_json:
        import json
        sys.stdout.write(json.dumps(out, indent=1) + "\n")
    else:
        sys.stdout.write(format_text(out, depth))
    sys.stdout.flush()
    return {"fits": out["fits"], "oom": out["oom"] is not None}


def estimate_file(path, argv=None, virtual=True):
    """Runs the script at `path` as __main__ (sys.argv = [path] + argv) under tracking; returns the result
    dict. An out-of-memory error ends the run and is reported in result["oom"]; another exception in
    result["error"] (its traceback is not printed)."""
    import runpy
    run = _Run(path, virtual)
    saved_argv, saved_path0 = sys.argv, sys.path[0] if sys.path else None
    saved_main = sys.modules.get("__main__")
    sys.argv = [path] + list(argv or [])
    if sys.path:
        sys.path[0] = os.path.dirname(os.path.abspath(path))
    error_type = error_message = ""
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            error_type, error_message = "SystemExit", str(e.code)
    except BaseException as e:  # noqa: B902 - the user's script may raise anything; it is reported
        t = type(e)
        error_type = t.__name__ if t.__module__ == "builtins" else t.__module__ + "." + t.__name__
        if t.__name__ == "OutOfMemoryError":
            error_type = "torch.cuda.OutOfMemoryError"
        error_message = str(e)
    finally:
        sys.argv = saved_argv
        if saved_path0 is not None:
            sys.path[0] = saved_path0
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
    return run.finish(error_type, error_message)


def format_text(result, depth=0):
    """The CLI's text; depth > 0 groups the tables' rows by the first `depth` parts of the module path."""
    from ._estimate_format import format_text as fmt
    return fmt(result, depth)

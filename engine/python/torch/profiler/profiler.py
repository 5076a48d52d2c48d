# torch.profiler.profile: records ops (host wall-clock times, input shapes), the allocations and frees and the
# copies DeviceScope's runtime made meanwhile (memory columns, CUDA rows), with PyTorch's schedule/step and
# on_trace_ready protocol. export_chrome_trace writes DeviceScope's own Perfetto trace of the window, plus a
# process with the recorded ops on the host clock.
import enum
import json
import os
import time
import warnings

import _devicescope_C as _E

from . import _recorder
from ._events import DeviceType, EventList, FunctionEvent


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1
    MTIA = 2
    XPU = 3

    def __repr__(self):
        return f"<ProfilerActivity.{self.name}: {self.value}>"


def supported_activities():
    acts = {ProfilerActivity.CPU}
    if _E.device_count() > 0:
        acts.add(ProfilerActivity.CUDA)
    return acts


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    def schedule_fn(step):
        assert step >= 0
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        num_steps = wait + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < wait:
            return ProfilerAction.NONE
        if mod_step < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if mod_step < num_steps - 1 else ProfilerAction.RECORD_AND_SAVE
    assert wait >= 0 and warmup >= 0 and active > 0 and repeat >= 0 and skip_first >= 0, \
        "Invalid profiler schedule arguments"
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results")
    return schedule_fn


def _default_schedule_fn(_):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """on_trace_ready handler writing <dir>/<worker>.<timestamp ms>.pt.trace.json(.gz)."""
    import socket

    def handler_fn(prof):
        nonlocal worker_name
        os.makedirs(dir_name, exist_ok=True)
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{worker_name}.{time.time_ns() // 1000000}.pt.trace.json"
        if use_gzip:
            file_name += ".gz"
        prof.export_chrome_trace(os.path.join(dir_name, file_name))
    return handler_fn


class record_function:
    """A named range in the profile (`with record_function("model_inference"):`, or as a decorator)."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._rec = None

    def __enter__(self):
        rec = _recorder._state["active"]
        if rec is not None:
            self._rec = (rec, rec.enter(self.name, (), annotation=True))
        return self

    def __exit__(self, *exc):
        if self._rec is not None:
            rec, r = self._rec
            rec.exit(r)
            self._rec = None
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)
        return wrapped


class profile:
    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None):
        self.activities = set(activities) if activities else supported_activities()
        if use_cuda:
            self.activities.add(ProfilerActivity.CUDA)
        self.schedule = schedule or _default_schedule_fn
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self._recording = None
        self._step_range = None
        self._events = None      # EventList of the last finished trace
        self._window = None      # (first event seq, first transfer id, recording start) of that trace

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        _recorder.install()
        self._begin_if_needed()

    def stop(self):
        if self._recording is not None:
            self._finish(save=True)
        _recorder.uninstall()

    def step(self):
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if prev is ProfilerAction.RECORD_AND_SAVE or (
                self._recording is not None and self.current_action in (ProfilerAction.NONE,)):
            self._finish(save=prev is ProfilerAction.RECORD_AND_SAVE or prev is ProfilerAction.RECORD)
        elif self._step_range is not None:
            self._close_step_range()
        self._begin_if_needed()

    def _begin_if_needed(self):
        if self.current_action in (ProfilerAction.WARMUP, ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            if self._recording is None or self._recording == "warmup":
                self._recording = "warmup" if self.current_action is ProfilerAction.WARMUP else \
                    _recorder.Recording(self.record_shapes)
            if self._recording != "warmup":
                _recorder._state["active"] = self._recording
                if self.schedule is not _default_schedule_fn:
                    self._step_range = record_function(f"ProfilerStep#{self.step_num}").__enter__()
        else:
            _recorder._state["active"] = None

    def _close_step_range(self):
        if self._step_range is not None:
            self._step_range.__exit__(None, None, None)
            self._step_range = None

    def _finish(self, save):
        self._close_step_range()
        rec = self._recording
        _recorder._state["active"] = None
        self._recording = None
        if rec is None or rec == "warmup":
            return
        self._events = _build_events(rec, self.profile_memory, ProfilerActivity.CUDA in self.activities)
        self._window = (rec.first_seq, rec.first_transfer, rec.start_ns, rec)
        if save and self.on_trace_ready is not None:
            self.on_trace_ready(self)

    # ------------------------------------------------------------------ results
    def events(self):
        if self._events is None:
            raise AssertionError("Profiler must be initialized before getting the events")
        return self._events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        return self.events().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path):
        """DeviceScope's Perfetto trace of the profiled window (what `devicescope run --trace` writes), with the
        recorded ops as slices of an extra process "torch.profiler ops (host wall clock)"."""
        if self._window is None:
            raise AssertionError("Profiler must be initialized before exporting chrome trace")
        first_seq, first_transfer, start_ns, rec = self._window
        _E.write_chrome_trace(os.fspath(path), first_seq, first_transfer)
        with open(path, encoding="utf-8") as f:
            trace = json.load(f)
        ops = [{"ph": "M", "name": "process_name", "pid": 2, "tid": 2,
                "args": {"name": "torch.profiler ops (host wall clock)"}}]

        def walk(records, depth):
            for r in records:
                ops.append({"ph": "X", "cat": "user_annotation" if r.annotation else "cpu_op", "name": r.name,
                            "pid": 2, "tid": 2, "ts": round((r.start_ns - start_ns) / 1000, 3),
                            "dur": round((r.end_ns - r.start_ns) / 1000, 3),
                            "args": {"Input Dims": r.shapes} if r.shapes is not None else {}})
                walk(r.children, depth + 1)
        walk(rec.roots, 0)
        trace["traceEvents"].extend(ops)
        tmp = os.fspath(path) + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(trace, f)
        os.replace(tmp, path)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        raise NotImplementedError("DeviceScope's profiler records no Python stacks (with_stack)")

    def export_memory_timeline(self, path, device=None):
        raise NotImplementedError("DeviceScope shows the memory timeline in its own views (devicescope run --trace)")


def _build_events(rec, profile_memory, with_cuda):
    """FunctionEvents from the recorded ranges, with memory and copy times read from the runtime's log."""
    events = EventList(profile_memory=profile_memory, simulated=bool(_E.device_count() and _E.backend_simulated()))
    log = _E.events_since(rec.first_seq) if (profile_memory or with_cuda) else []
    seqs = [e[0] for e in log]
    transfers = {}
    if with_cuda:
        for t in _E.transfers():
            if t["id"] >= rec.first_transfer:
                transfers[t["id"]] = t
    import bisect
    counter = [0]

    def convert(r, parent):
        counter[0] += 1
        evt = FunctionEvent(counter[0], r.name, (r.start_ns - rec.start_ns) / 1000, (r.end_ns - rec.start_ns) / 1000,
                            input_shapes=r.shapes, is_user_annotation=r.annotation)
        evt.cpu_parent = parent
        lo, hi = bisect.bisect_left(seqs, r.seq0), bisect.bisect_left(seqs, r.seq1)
        for seq, kind, _, place, _, nbytes, _, _ in log[lo:hi]:
            sign = 1 if kind == "alloc" else -1 if kind == "free" else 0
            if sign and place.startswith("cuda"):
                evt.cuda_memory_usage += sign * nbytes
            elif sign:
                evt.cpu_memory_usage += sign * nbytes
        evt.kernels_us = sum(transfers[i]["duration_ns"] / 1000 for i in range(r.xfer0 + 1, r.xfer1 + 1)
                             if i in transfers)
        events.append(evt)
        for c in r.children:
            evt.cpu_children.append(convert(c, evt))
        return evt
    for root in rec.roots:
        convert(root, None)
    for t in transfers.values():
        counter[0] += 1
        name = _copy_name(t)
        k = FunctionEvent(counter[0], name, (t["start_ns"]) / 1000, (t["end_ns"]) / 1000,
                          device_type=DeviceType.CUDA)
        k.self_cuda_time_total = t["duration_ns"] / 1000
        events.append(k)
    return events


def _copy_name(t):
    """PyTorch's memcpy kernel names: "Memcpy HtoD (Pageable -> Device)" and the like."""
    def kind(place):
        return "Device" if place.startswith("cuda") else "Pinned" if place == "pinned" else "Pageable"
    src, dst = kind(t["src"]), kind(t["dst"])
    short = {"Device": "D", "Pinned": "H", "Pageable": "H"}
    return f"Memcpy {short[src]}to{short[dst]} ({src} -> {dst})"

# torch.utils.benchmark.Timer: timeit with PyTorch's warmup, block-size estimation and replicate loops, and
# CUDA synchronisation around every timed block when a CUDA device exists (as PyTorch does).
# On DeviceScope's simulated devices a block that copies is timed as a GPU machine would time it, not by the
# host's real cost of simulating it (a 4 MB copy costs the simulator about a ms of real memcpy and
# bookkeeping; timed by wall clock, the tutorials' autorange loops ran for minutes, noisy):
#   - device work (copies, kernels, launch overheads) on the modelled clock: what the simulated GPU takes;
#   - plus the host copies the modelled clock does not see (pin_memory()'s memcpy into page-locked memory),
#     at their measured time: that memcpy is real host work on any machine, so `pin_memory().to("cuda")`
#     costs the pin and the copy, as the pinned-memory tutorial shows on a real GPU. Added, not overlapped:
#     a pin that would run while an earlier non_blocking copy is still in flight is counted in full.
# A block that copies nothing (CPU tensor work, Python) keeps its wall time, which is real.
# The modelled-plus-measured times are also in Measurement.simulated_times (0: the block copied nothing), the
# wall times in host_times,
# and the Measurement says which its times are ("Simulated CUDA: ..."). Other host work inside a block that
# copies (Python, allocation) is not counted: the copies' own launch overheads stand for it.
import enum
import timeit

import numpy as np

import _devicescope_C as _E

from . import common

__all__ = ["Timer", "timer", "Language"]


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


def _synchronize_all():
    for d in range(_E.device_count()):
        _E.synchronize(d)


def timer():
    """timeit.default_timer after torch.cuda.synchronize() (PyTorch's default timer when CUDA exists)."""
    if _E.device_count() > 0:
        _E.synchronize(_E.current_device())
    return timeit.default_timer()


class Timer:
    _timer_cls = timeit.Timer

    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=timer, globals=None, label=None,
                 sub_label=None, description=None, env=None, num_threads=1, language=Language.PYTHON):
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError("DeviceScope's Timer runs Python statements only (no C++ timing)")
        if language not in (Language.PYTHON, "py", "python"):
            raise ValueError(f"Invalid language `{language}`.")
        import torch
        self._globals = dict(globals or {})
        self._globals.setdefault("torch", torch)
        if global_setup:
            raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most likely this code can simply "
                             "be moved to `setup`.")
        stmt = _dedent(stmt)
        setup = _dedent(setup)
        self._timer = self._timer_cls(stmt=stmt, setup=setup, timer=timer, globals=self._globals)
        self._task_spec = common.TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup, label=label,
                                          sub_label=sub_label, description=description, env=env,
                                          num_threads=num_threads)
        self._simulated = bool(_E.device_count() > 0 and _E.backend_simulated())

    def _timeit(self, number, sim_times=None, host_times=None):
        """Seconds for `number` executions: on a simulated device, a block that copied is timed as modelled
        device time plus its measured host copies (see the top of this file); any other block by wall time."""
        start_ns = first_transfer = 0
        if self._simulated:
            _synchronize_all()
            start_ns = _E.now_ns()
            first_transfer = _E.last_transfer_id()
        wall = max(self._timer.timeit(number), 1e-9)
        if not self._simulated:
            return wall
        _synchronize_all()
        host_ns, host_copies = _E.host_copy_ns_after(first_transfer)
        modelled = (_E.now_ns() - start_ns + host_ns) / 1e9
        copied = modelled > 0 or host_copies > 0
        if sim_times is not None:
            sim_times.append(modelled)
            host_times.append(wall)
        return max(modelled, 1e-9) if copied else wall

    def _measurement(self, number, times, sim_times, host_times):
        return common.Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec,
                                  simulated_times=sim_times if self._simulated else None,
                                  host_times=host_times if self._simulated else None)

    def timeit(self, number=1000000):
        self._timeit(number=max(int(number // 100), 2))  # warmup
        sims, hosts = [], []
        return self._measurement(number, [self._timeit(number, sims, hosts)], sims, hosts)

    def repeat(self, repeat=-1, number=-1):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _threaded_measurement_loop(self, number, time_hook, stop_hook, min_run_time, max_run_time=None,
                                   callback=None):
        total_time, can_stop, times = 0.0, False, []
        while total_time < min_run_time or not can_stop:
            spent = time_hook()
            times.append(spent)
            total_time += spent
            if callback:
                callback(number, spent)
            can_stop = stop_hook(times)
            if max_run_time and total_time > max_run_time:
                break
        return times

    def _estimate_block_size(self, min_run_time):
        """Grows the block (x10) until the timer's own overhead is under 0.01% of it (also the warmup)."""
        overhead = float(np.median([self._timeit(0) for _ in range(5)]))
        number = 1
        while True:
            taken = self._timeit(number)
            if overhead / taken <= 1e-4 and taken >= min_run_time / 1000:
                break
            if taken > min_run_time or number * 10 > 2147483647:
                break
            number *= 10
        return number

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0, callback=None):
        number = self._estimate_block_size(min_run_time=0.05)
        sims, hosts = [], []

        def stop_hook(times):
            return len(times) > 3 and common.Measurement(number, times, self._task_spec).meets_confidence(threshold)
        times = self._threaded_measurement_loop(number, lambda: self._timeit(number, sims, hosts), stop_hook,
                                                min_run_time, max_run_time, callback=callback)
        return self._measurement(number, times, sims, hosts)

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        number = self._estimate_block_size(min_run_time)
        sims, hosts = [], []
        times = self._threaded_measurement_loop(number, lambda: self._timeit(number, sims, hosts),
                                                lambda times: True, min_run_time=min_run_time, callback=callback)
        return self._measurement(number, times, sims, hosts)

    def collect_callgrind(self, *args, **kwargs):
        raise NotImplementedError("DeviceScope does not run valgrind (collect_callgrind)")


def _dedent(text):
    import textwrap
    text = textwrap.dedent(text)
    return (text[1:] if text and text[0] == "\n" else text).rstrip()

# Measurement and TaskSpec: what one Timer measured, printed the way PyTorch prints it.
import collections
import dataclasses
import math
import textwrap
from typing import Any, Dict, List, Optional

import numpy as np

_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9  # 25 ns
_IQR_WARN_THRESHOLD = 0.1
_IQR_GROSS_WARN_THRESHOLD = 0.25


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec:
    stmt: str
    setup: str
    global_setup: str = ""
    label: Optional[str] = None
    sub_label: Optional[str] = None
    description: Optional[str] = None
    env: Optional[str] = None
    num_threads: int = 1

    @property
    def title(self):
        if self.label is not None:
            return self.label + (f": {self.sub_label}" if self.sub_label else "")
        if "\n" not in self.stmt:
            return self.stmt + (f": {self.sub_label}" if self.sub_label else "")
        return f"stmt:{f' ({self.sub_label})' if self.sub_label else ''}\n{textwrap.indent(self.stmt, '  ')}"

    def setup_str(self):
        if self.setup == "pass" or not self.setup:
            return ""
        if "\n" in self.setup:
            return f"setup:\n{textwrap.indent(self.setup, '  ')}"
        return f"setup: {self.setup}"

    def summarize(self):
        sections = [self.title, self.description or "", self.setup_str()]
        return "\n".join(f"{s}\n" if "\n" in s else s for s in sections if s)


_TASKSPEC_FIELDS = tuple(f.name for f in dataclasses.fields(TaskSpec))


@dataclasses.dataclass(init=True, repr=False)
class Measurement:
    """Times of `number_per_run` executions each (raw_times, seconds). DeviceScope, on a simulated backend:
    `simulated_times` is the modelled device time of each run and `host_times` the host's wall time; raw_times
    holds the modelled time of the runs that did device work (the host's for the others). None elsewhere."""
    number_per_run: int
    raw_times: List[float]
    task_spec: TaskSpec
    metadata: Optional[Dict[Any, Any]] = None
    simulated_times: Optional[List[float]] = None
    host_times: Optional[List[float]] = None

    def __post_init__(self):
        self._sorted_times = ()
        self._warnings = ()
        self._median = self._mean = self._p25 = self._p75 = -1.0

    def __getattr__(self, name):
        if name in _TASKSPEC_FIELDS:
            return getattr(self.task_spec, name)
        return super().__getattribute__(name)

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self):
        self._lazy_init()
        return self._median

    @property
    def mean(self):
        self._lazy_init()
        return self._mean

    @property
    def iqr(self):
        self._lazy_init()
        return self._p75 - self._p25

    @property
    def significant_figures(self):
        self._lazy_init()
        n = len(self._sorted_times)
        inner = self._sorted_times[n // 4:int(math.ceil(3 * n / 4))]
        std = float(np.std(inner)) if inner else 0.0
        ci = max(1.645 * std / math.sqrt(len(inner) or 1), _MIN_CONFIDENCE_INTERVAL)
        figures = int(math.floor(math.log10(self._median / ci)))
        return min(max(figures, 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def has_warnings(self):
        self._lazy_init()
        return bool(self._warnings)

    @property
    def simulated_median(self):
        """Median modelled device time per execution (seconds) on a simulated backend, else None."""
        if not self.simulated_times:
            return None
        return float(np.median([t / self.number_per_run for t in self.simulated_times]))

    @property
    def host_median(self):
        """Median host wall time per execution (seconds) on a simulated backend, else None."""
        if not self.host_times:
            return None
        return float(np.median([t / self.number_per_run for t in self.host_times]))

    def _lazy_init(self):
        if self.raw_times and not self._sorted_times:
            self._sorted_times = tuple(sorted(self.times))
            arr = np.array(self._sorted_times, dtype=np.float64)
            self._median = float(np.quantile(arr, 0.5))
            self._mean = float(arr.mean())
            self._p25 = float(np.quantile(arr, 0.25))
            self._p75 = float(np.quantile(arr, 0.75))

            def add_warning(msg):
                rel_iqr = self.iqr / self.median * 100
                self._warnings += (f"  WARNING: Interquartile range is {rel_iqr:.1f}% of the median measurement.\n"
                                   f"           {msg}",)
            if not self.meets_confidence(_IQR_GROSS_WARN_THRESHOLD):
                add_warning("This suggests significant environmental influence.")
            elif not self.meets_confidence(_IQR_WARN_THRESHOLD):
                add_warning("This could indicate system fluctuation.")

    def meets_confidence(self, threshold=_IQR_WARN_THRESHOLD):
        return self.iqr / self.median < threshold

    @property
    def title(self):
        return self.task_spec.title

    @property
    def env(self):
        # PyTorch's property fails internally (it reads a misspelled attribute) and falls back to the task
        # spec's env, so None is what scripts see; Compare relies on it too.
        return self.task_spec.env

    @property
    def as_row_name(self):
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self):
        self._lazy_init()
        n = len(self._sorted_times)
        unit, scale = select_unit(self._median)
        lines = [object.__repr__(self), self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{self._median / scale:.2f} {unit}"]
        if n >= 4:
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} "
                         f"({self._p25 / scale:.2f} to {self._p75 / scale:.2f})")
        threads = f"{self.num_threads} thread{'s' if self.num_threads > 1 else ''}"
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {threads}")
        sim = self.simulated_median
        if sim:  # only statements that copied (to, from or on a simulated device, or pin_memory) have one
            lines.append("  Simulated CUDA: times are modelled device time (DeviceScope's simulated clock) plus "
                         "measured host copies (pin_memory); wall times are in host_times")
        lines += list(self._warnings)
        return "\n".join(lines).strip()

    @staticmethod
    def merge(measurements):
        grouped = collections.defaultdict(list)
        for m in measurements:
            grouped[m.task_spec].append(m)
        out = []
        for spec, group in grouped.items():
            times = [t for m in group for t in m.times]
            sims = [s / m.number_per_run for m in group for s in (m.simulated_times or [])]
            hosts = [s / m.number_per_run for m in group for s in (m.host_times or [])]
            out.append(Measurement(number_per_run=1, raw_times=times, task_spec=spec, metadata=None,
                                   simulated_times=sims or None, host_times=hosts or None))
        return out


def select_unit(t):
    exponent = int(math.log10(t) // 3) if t > 0 else -3
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(exponent, "s")
    return unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[unit]


def unit_to_english(u):
    return {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}[u]


def trim_sigfig(x, n):
    assert n == int(n)
    magnitude = int(math.ceil(math.log10(abs(x))))
    scale = 10 ** (magnitude - n)
    return float(round(x / scale) * scale)


def ordered_unique(elements):
    return list(collections.OrderedDict({i: None for i in elements}).keys())

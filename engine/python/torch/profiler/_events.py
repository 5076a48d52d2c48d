# The profiler's results: FunctionEvent (one recorded op, record_function range or copy), FunctionEventAvg
# (key_averages rows) and EventList.table() in PyTorch's table layout (profiler_util._build_table).
import enum


class DeviceType(enum.Enum):
    CPU = 0
    CUDA = 1


def _format_time(time_us):
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us, total_us):
    if total_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_us:.2f}%"


def _format_memory(nbytes):
    kb, mb, gb = 1024, 1024 ** 2, 1024 ** 3
    if abs(nbytes) >= gb:
        return f"{nbytes / gb:.2f} Gb"
    if abs(nbytes) >= mb:
        return f"{nbytes / mb:.2f} Mb"
    if abs(nbytes) >= kb:
        return f"{nbytes / kb:.2f} Kb"
    return f"{nbytes} b"


class _Times:
    @property
    def cpu_time(self):
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    @property
    def cuda_time(self):
        return 0.0 if self.count == 0 else self.cuda_time_total / self.count

    device_time = cuda_time

    @property
    def self_device_time_total(self):
        return self.self_cuda_time_total

    @property
    def device_time_total(self):
        return self.cuda_time_total

    def _fmt(name):  # noqa: N805 - helper used in the class body
        return property(lambda self: _format_time(getattr(self, name)))

    cpu_time_str = _fmt("cpu_time")
    cuda_time_str = _fmt("cuda_time")
    cpu_time_total_str = _fmt("cpu_time_total")
    cuda_time_total_str = _fmt("cuda_time_total")
    self_cpu_time_total_str = _fmt("self_cpu_time_total")
    self_cuda_time_total_str = _fmt("self_cuda_time_total")


class FunctionEvent(_Times):
    """One recorded range. Times in microseconds (CPU: host wall clock; CUDA: the device's clock, which on
    simulated devices is DeviceScope's modelled clock)."""

    def __init__(self, id, name, start_us, end_us, input_shapes=None, device_type=DeviceType.CPU,
                 is_user_annotation=False):
        self.id = id
        self.name = name
        self.key = name
        self.start_us = start_us
        self.end_us = end_us
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.device_type = device_type
        self.is_user_annotation = is_user_annotation
        self.cpu_children = []
        self.cpu_parent = None
        self.kernels_us = 0.0        # device time of the copies this range issued (itself and children)
        self.cpu_memory_usage = 0    # bytes allocated minus freed on the host, children included
        self.cuda_memory_usage = 0
        self.self_cuda_time_total = 0.0
        self.count = 1
        self.node_id = -1
        self.stack = []
        self.is_async = False
        self.is_legacy = False
        self.flops = 0

    @property
    def cpu_time_total(self):
        return 0.0 if self.device_type is DeviceType.CUDA else self.end_us - self.start_us

    @property
    def self_cpu_time_total(self):
        if self.device_type is DeviceType.CUDA:
            return 0.0
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cuda_time_total(self):
        return self.self_cuda_time_total if self.device_type is DeviceType.CUDA else self.kernels_us

    @property
    def self_cpu_memory_usage(self):
        return self.cpu_memory_usage - sum(c.cpu_memory_usage for c in self.cpu_children)

    @property
    def self_cuda_memory_usage(self):
        return self.cuda_memory_usage - sum(c.cuda_memory_usage for c in self.cpu_children)

    @property
    def time_range(self):
        return (self.start_us, self.end_us)

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} device_type={self.device_type} "
                f"cpu_time={self.cpu_time_total_str} start_us={self.start_us:.3f} end_us={self.end_us:.3f} "
                f"cpu_children={[c.id for c in self.cpu_children]} cuda_time={self.cuda_time_total_str} "
                f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage} "
                f"cuda_memory_usage={self.cuda_memory_usage}>")


class FunctionEventAvg(_Times):
    def __init__(self):
        self.key = None
        self.count = 0
        self.node_id = 0
        self.is_async = False
        self.is_remote = False
        self.cpu_time_total = 0.0
        self.cuda_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.self_cuda_time_total = 0.0
        self.input_shapes = None
        self.stack = None
        self.cpu_memory_usage = 0
        self.cuda_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.self_cuda_memory_usage = 0
        self.cpu_children = None
        self.cpu_parent = None
        self.device_type = DeviceType.CPU
        self.is_legacy = False
        self.flops = 0
        self.is_user_annotation = False

    def add(self, other):
        if self.key is None:
            self.key = other.key
            self.node_id = other.node_id
            self.input_shapes = other.input_shapes
            self.device_type = other.device_type
            self.cpu_parent = other.cpu_parent
            self.is_user_annotation = other.is_user_annotation
        self.cpu_time_total += other.cpu_time_total
        self.cuda_time_total += other.cuda_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.self_cuda_time_total += other.self_cuda_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.cuda_memory_usage += other.cuda_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        self.self_cuda_memory_usage += other.self_cuda_memory_usage
        self.count += other.count
        return self

    __iadd__ = add

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str}  self_cuda_time={self.self_cuda_time_total_str} "
                f"cuda_time={self.cuda_time_str} input_shapes={self.input_shapes} "
                f"cpu_memory_usage={self.cpu_memory_usage} cuda_memory_usage={self.cuda_memory_usage}>")


class EventList(list):
    def __init__(self, *args, profile_memory=False, simulated=False, **kwargs):
        super().__init__(*args)
        self._profile_memory = profile_memory
        self._simulated = simulated

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0):
        stats = {}
        for evt in self:
            key = (evt.key, str(evt.input_shapes) if group_by_input_shapes else None)
            stats.setdefault(key, FunctionEventAvg()).add(evt)
        return EventList(stats.values(), profile_memory=self._profile_memory, simulated=self._simulated)

    def total_average(self):
        total = FunctionEventAvg()
        for evt in self:
            total.add(evt)
        total.key = "Total"
        return total

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        return _build_table(self, sort_by=sort_by, header=header, row_limit=row_limit,
                            max_name_column_width=max_name_column_width,
                            max_shapes_column_width=max_shapes_column_width, profile_memory=self._profile_memory,
                            top_level_events_only=top_level_events_only, simulated=self._simulated)

    def __str__(self):
        return self.table()


_SORT_ALIASES = {"self_device_time_total": "self_cuda_time_total", "device_time_total": "cuda_time_total",
                 "device_time": "cuda_time", "self_device_memory_usage": "self_cuda_memory_usage",
                 "device_memory_usage": "cuda_memory_usage"}


def _build_table(events, sort_by=None, header=None, row_limit=100, max_name_column_width=55,
                 max_shapes_column_width=80, profile_memory=False, top_level_events_only=False, simulated=False):
    if len(events) == 0:
        return ""
    has_cuda_time = any(e.self_cuda_time_total > 0 for e in events)
    has_cuda_mem = any(e.self_cuda_memory_usage > 0 for e in events)
    has_shapes = any(e.input_shapes is not None and len(e.input_shapes) > 0 for e in events)
    if sort_by is not None:
        attr = _SORT_ALIASES.get(sort_by, sort_by)
        events = sorted(events, key=lambda e: getattr(e, attr), reverse=True)
    name_width = min(max(len(e.key) for e in events) + 4, max_name_column_width)
    shapes_width = min(max(len(str(e.input_shapes)) for e in events) + 4, max_shapes_column_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if has_cuda_time:
        headers += ["Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
        if has_cuda_mem:
            headers += ["CUDA Mem", "Self CUDA Mem"]
    headers.append("# of Calls")
    widths = [name_width] + [12] * (len(headers) - 1)
    if has_shapes:
        headers.append("Input Shapes")
        widths.append(shapes_width)
    row_format = "".join("{: >" + str(w) + "}  " for w in widths)
    separator = "".join("-" * w + "  " for w in widths)
    line_length = sum(widths) + 2 * (len(widths) - 1)

    total_cpu = sum(e.self_cpu_time_total for e in events)
    total_cuda = sum(e.self_cuda_time_total for e in events if e.device_type is DeviceType.CUDA)
    out = []
    if header is not None:
        out += ["=" * line_length, header]
    if top_level_events_only:
        out += ["=" * line_length, "This report only display top-level ops statistics"]
    out += [separator, row_format.format(*headers), separator]
    shown = 0
    for e in events:
        if shown == row_limit:
            break
        if top_level_events_only and e.cpu_parent is not None:
            continue
        shown += 1
        name = e.key
        if len(name) >= max_name_column_width - 3:
            name = name[:max_name_column_width - 3] + "..."
        row = [name, _format_time_share(e.self_cpu_time_total, total_cpu), e.self_cpu_time_total_str,
               _format_time_share(e.cpu_time_total, total_cpu), e.cpu_time_total_str, e.cpu_time_str]
        if has_cuda_time:
            row += [e.self_cuda_time_total_str, _format_time_share(e.self_cuda_time_total, total_cuda),
                    e.cuda_time_total_str, e.cuda_time_str]
        if profile_memory:
            row += [_format_memory(e.cpu_memory_usage), _format_memory(e.self_cpu_memory_usage)]
            if has_cuda_mem:
                row += [_format_memory(e.cuda_memory_usage), _format_memory(e.self_cuda_memory_usage)]
        row.append(e.count)
        if has_shapes:
            row.append(str(e.input_shapes)[:shapes_width])
        out.append(row_format.format(*row))
    out += [separator, f"Self CPU time total: {_format_time(total_cpu)}"]
    if has_cuda_time:
        out.append(f"Self CUDA time total: {_format_time(total_cuda)}" +
                   (" (DeviceScope's simulated clock)" if simulated else ""))
    return "".join(line + "\n" for line in out)



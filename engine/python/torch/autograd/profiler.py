# torch.autograd.profiler: the legacy spelling of torch.profiler (profile(use_cuda=..., record_shapes=...,
# profile_memory=...), record_function), recording the same way (torch/profiler).
from ..profiler import record_function  # noqa: F401
from ..profiler._events import EventList, FunctionEvent, FunctionEventAvg  # noqa: F401
from ..profiler.profiler import ProfilerActivity
from ..profiler.profiler import profile as _profile


class profile(_profile):
    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None):
        activities = [ProfilerActivity.CPU] if use_cpu else []
        if use_cuda or use_device == "cuda":
            activities.append(ProfilerActivity.CUDA)
        super().__init__(activities=activities, record_shapes=record_shapes, profile_memory=profile_memory,
                         with_stack=with_stack, with_flops=with_flops, with_modules=with_modules)
        self.enabled = enabled

    def __enter__(self):
        if self.enabled:
            self.start()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self.stop()
        return False

    @property
    def function_events(self):
        return self.events()

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        return self.events().table(sort_by=sort_by, row_limit=row_limit, header=header,
                                   max_name_column_width=max_name_column_width,
                                   max_shapes_column_width=max_shapes_column_width,
                                   top_level_events_only=top_level_events_only)

    @property
    def self_cpu_time_total(self):
        return self.events().self_cpu_time_total

    def total_average(self):
        return self.events().total_average()

    def __str__(self):
        return self.table()


class emit_nvtx:
    """NVTX ranges are for NVIDIA's tools; DeviceScope records nothing extra (a no-op context manager)."""

    def __init__(self, enabled=True, record_shapes=False):
        self.enabled = enabled

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

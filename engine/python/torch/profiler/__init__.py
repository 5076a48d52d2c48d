# torch.profiler, backed by DeviceScope's own records (see profiler.py).
from ._events import DeviceType, EventList, FunctionEvent, FunctionEventAvg  # noqa: F401
from .profiler import (ProfilerAction, ProfilerActivity, profile, record_function, schedule,  # noqa: F401
                       supported_activities, tensorboard_trace_handler)

__all__ = ["profile", "record_function", "schedule", "supported_activities", "tensorboard_trace_handler",
           "ProfilerAction", "ProfilerActivity"]

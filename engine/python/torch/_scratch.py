# Note [Scratch allocations] (engine/runtime/runtime.h): DeviceScope computes a composite op (GELU, a loss,
# attention) from smaller ops, but ATen's CUDA kernel allocates only its outputs and its own buffers. Inside
# `scratch()` this thread's device allocations are raw memory the allocator, the event log and every figure
# never see; _ops/_core.py's `materialize` then makes the one real allocation of a result, laid out as the
# kernel lays it, and `one_kernel` runs a formula as one kernel. (This module imports only the engine: the op
# modules import it.)
import contextlib

import _devicescope_C as _E


@contextlib.contextmanager
def scratch():
    _E.scratch_enter()
    try:
        yield
    finally:
        _E.scratch_exit()


@contextlib.contextmanager
def outside_scratch():
    """Allocations that are real even inside a composite (a cuBLAS workspace its matmul creates)."""
    depth = 0
    while _E.scratch_depth() > 0:
        _E.scratch_exit()
        depth += 1
    try:
        yield
    finally:
        for _ in range(depth):
            _E.scratch_enter()

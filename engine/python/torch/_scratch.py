# Note [Scratch allocations] (engine/runtime/runtime.h): DeviceScope computes a composite op (GELU, a loss,
# attention) from smaller ops, but ATen's CUDA kernel allocates only its outputs and its own buffers. Inside
# `scratch()` this thread's device allocations are raw memory the allocator, the event log and every figure
# never see; `materialize` then makes the one real allocation of a result, laid out as the kernel lays it.
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


def materialize(t):
    """A real allocation holding t's values without history: empty_like(t) (a dense layout is kept, as
    empty_like's preserve_format does; anything else becomes contiguous) and a copy inside the device, which
    records no transfer. Inside a scratch scope the allocation is scratch too."""
    from ._ops import _core as C
    from ._ops.layout import is_non_overlapping_and_dense
    impl = t._impl
    if is_non_overlapping_and_dense(impl.sizes, impl.strides):
        base = C.new_empty((impl.numel,), C.dtype_of(t), C.device_of(t), False, impl.is_virtual)
        out = C.wrap(_E.as_strided(base._impl, impl.sizes, impl.strides, 0))
    else:
        out = C.new_empty(tuple(impl.sizes), C.dtype_of(t), C.device_of(t), False, impl.is_virtual)
    if impl.numel:
        _E.copy_(out._impl, impl, False)
    return out


def fill(dst, src):
    """Copies src's values into dst (same device; no transfer is recorded) and returns dst."""
    if dst._impl.numel:
        _E.copy_(dst._impl, src._impl, False)
    return dst


def one_kernel(fn, *args):
    """fn(*args) as the one ATen kernel PyTorch runs for it (threshold_backward, tanh_backward, ...): its
    intermediates are scratch and its result one real allocation. Under create_graph (grad mode on during
    backward) the ops themselves run, so that double backward has its graph."""
    from .autograd import grad_mode
    if grad_mode._enabled[0]:
        return fn(*args)
    with scratch():
        r = fn(*args)
    return materialize(r)

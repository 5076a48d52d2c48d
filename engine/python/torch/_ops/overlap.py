# ATen's MemoryOverlap rules for writes: an output may not have several elements in one memory location
# (internal overlap), and may not share memory with an input unless it is that input exactly (partial
# overlap). Like ATen, only what is provable is refused: layouts that are neither dense nor expanded are
# "too hard" and allowed.
from . import _core as C
from . import layout

_INTERNAL = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
             "location. Please clone() the tensor before performing the operation.")
_PARTIAL = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
            "memory location. Please clone() the tensor before performing the operation.")


def is_non_overlapping_and_dense(impl):
    return layout.is_non_overlapping_and_dense(impl.sizes, impl.strides)


def has_internal_overlap(impl):
    """True when provably overlapping: an expanded (stride 0) dimension of size > 1."""
    if is_non_overlapping_and_dense(impl):
        return False
    return any(st == 0 and sz > 1 for sz, st in zip(impl.sizes, impl.strides))


def assert_no_internal_overlap(t):
    if has_internal_overlap(t._impl):
        raise RuntimeError(_INTERNAL)


def _partial(a, b):
    """get_overlap_status(a, b) == PARTIAL for two tensors."""
    ia, ib = a._impl, b._impl
    if ia is ib or ia.numel == 0 or ib.numel == 0:
        return False
    if not ia.same_storage(ib):
        return False
    if not (is_non_overlapping_and_dense(ia) and is_non_overlapping_and_dense(ib)):
        return False  # too hard to tell: allowed
    size_a, size_b = C.dtype_of(a).itemsize, C.dtype_of(b).itemsize
    a_begin, b_begin = ia.offset * size_a, ib.offset * size_b  # byte ranges inside the shared storage
    a_end, b_end = a_begin + ia.numel * size_a, b_begin + ib.numel * size_b
    if a_begin == b_begin and a_end == b_end:
        return tuple(ia.strides) != tuple(ib.strides)
    return a_begin < b_end and b_begin < a_end


def assert_no_partial_overlap(out, inputs):
    for x in inputs:
        if isinstance(x, C.Tensor) and _partial(out, x):
            raise RuntimeError(_PARTIAL)


def check_write(out, inputs):
    """TensorIterator's checks on an output before an op writes it."""
    assert_no_internal_overlap(out)
    assert_no_partial_overlap(out, inputs)

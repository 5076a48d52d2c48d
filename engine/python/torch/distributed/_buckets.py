# DDP's gradient bucket assignment, as c10d's reducer.cpp computes it (compute_bucket_assignment_by_size): walk the
# tensors in order, accumulate each into the open bucket of its (dtype, device), and close that bucket once its
# bytes reach the current size limit; each (dtype, device) steps through `bucket_size_limits` (the first bucket is
# small - dist._DEFAULT_FIRST_BUCKET_BYTES - then bucket_cap_mb each). Without tensor_indices the buckets are
# sorted by their smallest tensor index; with them (the gradient-ready order of a rebuild) they keep their order.
# Open buckets left at the end come in the order their (dtype, device) first appeared (reducer.cpp iterates an
# unordered_map there, whose order with several dtypes is its hash's; with one dtype both agree).

_DEFAULT_FIRST_BUCKET_BYTES = 1024 * 1024


def compute_bucket_assignment_by_size(tensors, bucket_size_limits, expect_sparse_gradient=(), tensor_indices=(),
                                      logger=None):
    tensors = list(tensors)
    limits = [int(x) for x in bucket_size_limits]
    expect_sparse_gradient = list(expect_sparse_gradient or ())
    tensor_indices = list(tensor_indices or ())
    if not tensors:
        raise RuntimeError("INTERNAL ASSERT FAILED: !tensors.empty()")
    if expect_sparse_gradient and len(expect_sparse_gradient) != len(tensors):
        raise RuntimeError("INTERNAL ASSERT FAILED: expect_sparse_gradient.empty() || "
                           "(tensors.size() == expect_sparse_gradient.size())")
    if not limits:
        raise RuntimeError("INTERNAL ASSERT FAILED: bucket_size_limits must not be empty")
    result = []      # [(indices, size_limit)]
    open_ = {}       # key -> [indices, size, size_limit]
    limit_at = {}    # key -> position in limits
    for i, t in enumerate(tensors):
        if getattr(t, "is_sparse", False):
            raise RuntimeError("No support for sparse tensors.")
        index = tensor_indices[i] if tensor_indices else i
        if expect_sparse_gradient and expect_sparse_gradient[index]:
            result.append(([index], 0))
            continue
        key = (str(t.dtype), str(t.device))
        bucket = open_.get(key)
        if bucket is None:
            bucket = open_[key] = [[], 0, 0]
        bucket[0].append(index)
        bucket[1] += t.numel() * t.element_size()
        pos = limit_at.setdefault(key, 0)
        bucket[2] = limits[pos]
        if bucket[1] >= bucket[2]:
            result.append((bucket[0], bucket[2]))
            open_[key] = [[], 0, 0]
            if pos + 1 < len(limits):
                limit_at[key] = pos + 1
    for bucket in open_.values():
        if bucket[0]:
            result.append((bucket[0], bucket[2]))
    if not tensor_indices:
        result.sort(key=lambda b: min(b[0]))  # stable, like std::sort on distinct minima
    return [list(b[0]) for b in result], [b[1] for b in result]

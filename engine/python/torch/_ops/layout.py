# Layout rules of c10/ATen: which strides are dense, and the strides memory_format=torch.preserve_format
# gives a new tensor (empty_like, clone, .to): a dense layout keeps its strides, any other strided one gets
# the dense strides that keep its dimension order (infer_dense_strides).


def contiguous_strides(shape):
    out = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        out[i] = out[i + 1] * max(shape[i + 1], 1)
    return tuple(out)


def is_non_overlapping_and_dense(sizes, strides):
    """c10's compute_non_overlapping_and_dense: dims of size >= 2, ordered by stride, tile memory exactly
    (dims of size 0 or 1 say nothing about the layout)."""
    if 0 in sizes or _is_contiguous(sizes, strides):  # c10: contiguous (an empty tensor is) implies dense
        return True
    if len(sizes) == 1:
        return sizes[0] < 2 or strides[0] == 1
    expected = 1
    for st, sz in sorted((st, sz) for sz, st in zip(sizes, strides) if sz >= 2):
        if st != expected:
            return False
        expected *= sz
    return True


def infer_dense_strides(sizes, strides):
    """ATen's infer_dense_strides: dims ordered by stride (ties: the larger size outer; stride 0 keeps its
    place), then dense strides in that order."""
    nd = len(sizes)
    perm = list(range(nd - 1, -1, -1))  # perm[0] is the innermost dim

    def should_swap(d0, d1):
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return 1 if s0 > s1 else -1
        return 1 if sizes[d0] > sizes[d1] else 0

    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    out = [0] * nd
    cur = 1
    for d in perm:
        out[d] = cur
        cur *= max(sizes[d], 1)
    return tuple(out)


def preserved_strides(sizes, strides):
    if is_non_overlapping_and_dense(sizes, strides):
        return tuple(strides)
    return infer_dense_strides(sizes, strides)


def _is_contiguous(sizes, strides):
    """PyTorch's is_contiguous: size-1 dims are ignored, empty tensors are contiguous."""
    if 0 in sizes:
        return True
    expected = 1
    for sz, st in zip(reversed(sizes), reversed(strides)):
        if sz != 1:
            if st != expected:
                return False
            expected *= sz
    return True


def pointwise_strides(shape, operands):
    """TensorIterator's layout for the result of a pointwise op of broadcast `shape` over `operands`
    ((sizes, strides, itemsize) of each tensor, outputs first): contiguous when every operand is, the
    operands' common dense strides when they all share them, else dims ordered by the operands' strides
    (reorder_dimensions: first operand with a strict order decides, broadcast dims are skipped)."""
    shape = tuple(shape)
    nd = len(shape)
    contiguous = contiguous_strides(shape)
    same_shape = all(tuple(sz) == shape for sz, _, _ in operands)
    if nd <= 1 or (same_shape and all(_is_contiguous(sz, st) for sz, st, _ in operands)):
        return contiguous
    if same_shape and \
            all(is_non_overlapping_and_dense(sz, st) for sz, st, _ in operands) and \
            len({tuple(st) for _, st, _ in operands}) == 1:
        return tuple(operands[0][1])
    aligned = []  # byte strides aligned to the result's dims; 0 where broadcast
    for sz, st, item in operands:
        off = nd - len(sz)
        row = [0] * nd
        for i, (s, t) in enumerate(zip(sz, st)):
            row[off + i] = 0 if (s == 1 and shape[off + i] != 1) else t * item
        aligned.append(row)

    def should_swap(d0, d1):
        for row in aligned:
            s0, s1 = row[d0], row[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(nd - 1, -1, -1))
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    if perm == list(range(nd - 1, -1, -1)):
        return contiguous
    out = [0] * nd
    cur = 1
    for d in perm:
        out[d] = cur
        cur *= shape[d]
    return tuple(out)

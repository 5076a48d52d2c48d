# out[index[i]] += rows[i], in index order: the accumulation of index_add_ (index_select's backward) and of
# embedding_dense_backward. ATen adds the slices one after the other in the gradient's own dtype, so a row that is
# named twice is ((0 + a) + b), rounded after each add; this gives the same bits without numpy's ufunc.at, whose
# per-element loop (numpy < 1.25) cost ~130 ns an element (a 64x128 embedding gradient: 1 ms, 1400x256: 50 ms).
import os

import numpy as np

import _devicescope_C as _E

# Below this many elements ufunc.at's fixed cost is smaller than sorting the index.
_SMALL = 256
# The same loop in C++ (bindings_scatter_rows.cpp) for its plain case (one float dtype, C-contiguous arrays, an
# int64 index in range); it returns False for anything else. DEVICESCOPE_NO_FAST_OPS=1 keeps the numpy version
# (tests/fastpath compares the two).
_add_rows_fast = getattr(_E, "add_rows", None) if os.environ.get("DEVICESCOPE_NO_FAST_OPS") != "1" else None


def add_rows(out, index, rows):
    """Adds rows[i] into out[index[i]] for i in order (out: [V, ...], index: [n] integers in [-V, V), rows: [n, ...]).
    Rows named once are added with one fancy-indexed add; the rest in index order, as ATen's loop adds them."""
    n = index.shape[0]
    if n == 0:
        return out
    if _add_rows_fast is not None and _add_rows_fast(out, index, rows):
        return out
    if rows.size <= _SMALL:
        np.add.at(out, index, rows)
        return out
    if index.min() < 0:
        index = np.where(index < 0, index + out.shape[0], index)  # -1 and V-1 are the same row
    order = np.argsort(index, kind="stable")
    s = index[order]
    first = np.empty(n, dtype=bool)
    first[0] = True
    np.not_equal(s[1:], s[:-1], out=first[1:])
    if first.all():
        out[index] += rows
        return out
    starts = np.flatnonzero(first)
    counts = np.diff(np.append(starts, n))
    # Rows named more than `heavy` times (a padding or end-of-sentence token) are summed group by group in order
    # ((a + b) + c: 0 + that is ATen's ((0 + a) + b) + c, the sign of an all-zero sum included); the others in rounds, round k adding every row's k-th occurrence. So the Python-level
    # steps stay under 2 * sqrt(n) however the indices repeat.
    heavy = max(4, int(n ** 0.5))
    if rows.dtype != out.dtype:
        heavy = n  # (wider rows, a fused a + s * b: each add must round to out's dtype, so rounds only)
    big = counts > heavy
    rank = np.arange(n) - np.repeat(starts, counts)  # sorted entry j is its row's rank[j]-th occurrence
    if big.any():
        rank[np.repeat(big, counts)] = -1
        for g in np.flatnonzero(big):
            members = order[starts[g]:starts[g] + counts[g]]  # (a stable sort keeps them in index order)
            out[s[starts[g]]] += _sum_in_order(np.ascontiguousarray(rows[members]))
    for k in range(int(counts[~big].max()) if not big.all() else 0):
        sel = order[rank == k]
        out[index[sel]] += rows[sel]
    return out


def _sum_in_order(block):
    """block[0] + block[1] + ... left to right (block: C-contiguous [k, ...]). numpy's reduction over the outer
    axis of a C-contiguous block adds whole rows in order; over single elements (rows of one value) it sums
    pairwise, so there np.add.accumulate, which is sequential by definition, gives the sum."""
    if block[0].size >= 2:
        return np.add.reduce(block, axis=0)
    return np.add.accumulate(block, axis=0)[-1]

# out[index[i]] += rows[i], in index order: the accumulation of index_add_ (index_select's backward) and of
# embedding_dense_backward. ATen adds the slices one after the other in the gradient's own dtype, so a row that is
# named twice is ((0 + a) + b), rounded after each add; this gives the same bits without numpy's ufunc.at, whose
# per-element loop (numpy < 1.25) cost ~130 ns an element (a 64x128 embedding gradient: 1 ms, 1400x256: 50 ms).
import numpy as np

# Below this many elements ufunc.at's fixed cost is smaller than sorting the index.
_SMALL = 256
# One round (a fancy-indexed add over the rows named for the k-th time) costs about as much as this many
# elements of ufunc.at: with more rounds than elements / _ROUND ufunc.at is the cheaper way.
_ROUND = 50


def add_rows(out, index, rows):
    """Adds rows[i] into out[index[i]] for i in order (out: [V, ...], index: [n] integers in [-V, V), rows: [n, ...]).
    Rows named once are added with one fancy-indexed add; a row named k times gets its k additions in k rounds,
    each round adding the rows' next occurrence, so every row sums in index order as ATen's loop does."""
    n = index.shape[0]
    if n == 0:
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
    # rank[j]: how many earlier entries (in index order) name the same row as sorted entry j
    rank = np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n)))
    rounds = int(rank.max()) + 1
    if rounds * _ROUND > rows.size:
        np.add.at(out, index, rows)
        return out
    for k in range(rounds):
        sel = order[rank == k]
        out[index[sel]] += rows[sel]
    return out

# Order statistics PyTorch runs as single kernels: median / nanmedian (of all elements, or along a dim with
# the index of the value chosen) and kthvalue, with PyTorch's choice among ties (ATen partitions indices with
# the ordering (value, index), so the chosen index is the k-th of a stable sort; kthvalue's quickselect
# lands where it lands), NaN rules (median returns the
# first NaN of a row; nanmedian skips them) and nodes (MedianBackward0 spreads the gradient evenly over the
# elements equal to the median; the dim forms scatter it to the chosen index). msort is sort(dim=0).values.
import sys

import numpy as np

from .. import _dtype as D
from .. import return_types
from ..autograd import grad_mode, graph
from . import _core as C


def _torch():
    return sys.modules["torch"]  # (torch imports this module: no import cycle at module level)


def _pick(row, k, nan_first):
    """(value, index) of the k-th smallest of a 1-D row under the ordering (value, index); NaN sorts last.
    nan_first: median's rule, a NaN anywhere is the answer (its first occurrence)."""
    nans = np.flatnonzero(np.isnan(row)) if row.dtype.kind == "f" else np.array([], dtype=np.int64)
    if nan_first and nans.size:
        return row[nans[0]], int(nans[0])
    order = np.argsort(np.where(np.isnan(row), np.inf, row) if nans.size else row, kind="stable")
    if nans.size:  # NaNs after every number, in index order
        order = np.concatenate([order[~np.isin(order, nans)], nans])
    i = int(order[k])
    return row[i], i


def _quick_select(row, k):
    """(value, index) of the k-th smallest as ATen's CPU kthvalue finds it: Sedgewick's quickselect with a
    median-of-three pivot over (values, indices) pairs, NaN greater than everything. Among equal values the
    index it lands on is the algorithm's, not the first one's."""
    arr, idx = list(row.tolist()), list(range(row.size))

    def gt(a, b):
        return (a != a and b == b) or a > b

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]
    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if gt(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        swap((lo + hi) >> 1, lo + 1)
        if gt(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j, piv = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while gt(piv, arr[i]):
                i += 1
            j -= 1
            while gt(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return row.dtype.type(arr[k]), idx[k]


def _along(x, dim, keepdim, choose, name, saved_extra=None):
    dev, dt = C.device_of(x), C.dtype_of(x)
    C.check_virtual(x, what=name)
    nd = x._impl.dim
    d = C.wrap_dim(dim, nd) if nd else 0
    xv = np.asarray(C.read(x)).reshape(tuple(x.shape) if nd else (1,))
    moved = np.moveaxis(xv, d, -1)
    lead = moved.shape[:-1]
    vals, idx = np.empty(lead, dtype=moved.dtype), np.empty(lead, dtype=np.int64)
    for pos in np.ndindex(*lead) if lead else [()]:
        vals[pos], idx[pos] = choose(moved[pos])
    if keepdim and nd:
        vals, idx = np.expand_dims(vals, d), np.expand_dims(idx, d)
    values = C.make(vals, dt, dev)
    indices = C.make(idx, D.int64, dev)
    if C.needs_grad(x) and dt.is_floating_point:
        shape = tuple(x.shape)

        def backward(gs):  # value_selecting_reduction_backward: the gradient goes to the chosen elements
            g = gs[0]
            if nd == 0:
                return (g if grad_mode._enabled[0] else C.make(C.read(g), dt, dev)),
            torch = _torch()
            gi = g if keepdim else g.unsqueeze(d)
            ii = indices if keepdim else indices.unsqueeze(d)
            if grad_mode._enabled[0]:
                return torch.zeros(shape, dtype=dt, device=dev).scatter(d, ii, gi),
            out = np.zeros(shape, dtype=np.float64)
            np.put_along_axis(out, np.asarray(C.read(ii)), np.asarray(C.read(gi), np.float64), d)
            return C.make(out, dt, dev),
        saved = {"dim": dim, "indices": indices, "keepdim": keepdim, "self_sym_sizes": tuple(x.shape)}
        saved.update(saved_extra or {})
        graph.attach(name, [values], [x], backward, saved=saved)
    return values, indices


def _all(x, ignore_nan, name):
    dev, dt = C.device_of(x), C.dtype_of(x)
    C.check_virtual(x, what=name)
    flat = np.asarray(C.read(x)).ravel()
    nans = int(np.isnan(flat).sum()) if flat.dtype.kind == "f" else 0
    if nans and not ignore_nan:
        value = np.nan
    else:
        value = np.sort(flat)[(flat.size - nans - 1) // 2] if flat.size > nans else np.nan
    out = C.make(np.asarray(value, dtype=flat.dtype), dt, dev)
    if C.needs_grad(x) and dt.is_floating_point:
        x_saved, rs = x.detach(), graph.SavedOutput(out)

        def backward(gs):  # evenly_distribute_backward: grad / (number of elements equal to the median)
            g, r = gs[0], rs.unpack()
            if grad_mode._enabled[0]:
                mask = x_saved.isnan() if bool(r.isnan()) else x_saved == r
                return g.new_zeros(x_saved.shape).masked_fill(mask, (g / mask.sum())),
            xv, rv = np.asarray(C.read(x_saved)), np.asarray(C.read(r))
            mask = np.isnan(xv) if np.isnan(rv) else xv == rv
            gv = np.asarray(C.read(g), np.float64) / mask.sum()
            return C.make(np.where(mask, gv, 0.0), dt, dev),
        node = graph.attach(name, [out], [x], backward, saved={"self": x, "result": out})
        rs.bind(node)
    return out


def median(input, dim=None, keepdim=False, *, out=None):  # noqa: A002
    if dim is None:
        return _all(input, False, "MedianBackward0")
    v, i = _along(input, dim, keepdim, lambda row: _pick(row, (row.size - 1) // 2, True), "MedianBackward1")
    return return_types.median((v, i))


def nanmedian(input, dim=None, keepdim=False, *, out=None):  # noqa: A002
    if dim is None:
        return _all(input, True, "NanmedianBackward0")

    def choose(row):
        nans = int(np.isnan(row).sum()) if row.dtype.kind == "f" else 0
        return _pick(row, max(0, (row.size - nans - 1) // 2), False)
    v, i = _along(input, dim, keepdim, choose, "NanmedianBackward1")
    return return_types.nanmedian((v, i))


def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):  # noqa: A002
    size = input.shape[C.wrap_dim(dim, input.dim())] if input.dim() else 1
    if not 0 < k <= size:
        raise RuntimeError("kthvalue(): selected number k out of range for dimension " + str(dim))
    v, i = _along(input, dim, keepdim, lambda row: _quick_select(row, k - 1), "KthvalueBackward0")
    return return_types.kthvalue((v, i))


def msort(input):  # noqa: A002
    return input.sort(dim=0)[0]

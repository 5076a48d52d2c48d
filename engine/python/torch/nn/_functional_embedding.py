# F.embedding with PyTorch's own backward node: EmbeddingBackward0 runs embedding_dense_backward (a zeroed
# [num_embeddings, dim] gradient, the incoming gradient's rows added at their indices, none at padding_idx, each
# scaled by 1/count under scale_grad_by_freq). The composite form (index_select, recomputed under grad mode in
# backward by _composite.named) stays as the reference: DEVICESCOPE_PY_COMPOSITE=1 runs it, and
# tests/composite_backward/*.py hold the two to the same values, nodes, saved values and allocator trace.
import numpy as np

import _devicescope_C as _E
import torch
from .._ops import _core as C
from .._ops import indexing as _indexing
from .._ops._scatter_rows import add_rows
from .._ops.layout import contiguous_strides
from .._virtual_values import VirtualValues
from ..autograd import grad_mode, graph
from ._checks import check_same_device
from ._composite import REFERENCE, named
from ._functional_embedding_bag import _no_grad_embedding_renorm_


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if input.dtype not in (torch.int64, torch.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                           "types: Long, Int; but got {} instead (while checking arguments for embedding)"
                           .format(input.type()))
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        # rows the input names are scaled down to max_norm in place first (torch.embedding_renorm_, no grad)
        input = input.contiguous()
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    check_same_device("_index_select", [("self", weight), ("index", input)])
    if REFERENCE:
        return _composite(input, weight, padding_idx, scale_grad_by_freq, sparse)
    # at::embedding: weight.index_select(0, indices.reshape(-1)).view(indices' sizes + [dim]); the view is the
    # op's output, not a view for autograd
    out = _lookup(input, weight)
    if out is None:
        prev = grad_mode._enabled[0]
        grad_mode._enabled[0] = False
        try:
            out = _indexing.index_select(weight, 0, input.reshape(-1))
        finally:
            grad_mode._enabled[0] = prev
    if input.dim() != 1:
        shape = tuple(input.shape) + (weight.shape[1],)
        out = C.wrap(_E.as_strided(out._impl, shape, contiguous_strides(shape), 0))
    if not C.needs_grad(weight):
        return out
    num_weights = weight.shape[0]

    def backward(grads):
        g = grads[0]
        if g is None:
            return (None,)
        gw = embedding_dense_backward(g, input, num_weights, padding_idx, scale_grad_by_freq)
        return (graph.linear_grad(gw, g, "EmbeddingDenseBackward0",
                                  lambda gg: _dense_double_backward(gg, input, padding_idx)),)

    # PyTorch's node keeps the indices and the weight's row count, not the weight
    graph.attach("EmbeddingBackward0", [out], [weight], backward,
                 saved={"indices": input, "padding_idx": padding_idx, "scale_grad_by_freq": scale_grad_by_freq,
                        "sparse": sparse, "weight_sym_argsize_0": num_weights})
    return out


def _lookup(input, weight):
    """index_select(weight, 0, input.reshape(-1)) without grad for the common lookup - contiguous real indices (the
    reshape is a view), a real 2-D weight, every index in [0, rows) - without the grad-mode switch,
    the reshape and index_select's checks (a word-level model does one lookup per step): the same take and the same
    one allocation. None otherwise: index_select runs and words the errors."""
    ii, wi = input._impl, weight._impl
    if ii.is_virtual or wi.is_virtual or not ii.is_contiguous or wi.dim != 2:
        return None
    iv = C.read(input).reshape(-1)
    rows = wi.sizes[0]
    if iv.size:
        if iv.size <= 32:  # (as index_select: a few indices compare faster as Python ints)
            ivl = iv.tolist()
            lo, hi = min(ivl), max(ivl)
        else:
            lo, hi = iv.min(), iv.max()
        if hi >= rows or lo < 0:  # (PyTorch refuses a negative index: index_select takes those calls)
            return None
    wv = C.read(weight)
    if type(wv) is not np.ndarray:  # (anything but plain host values: index_select's path)
        return None
    return C.make(wv.take(iv, axis=0), C.dtype_of(weight), C.device_of(weight))


def embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """embedding_dense_backward: grad_weight = zeros([num_weights, grad.size(-1)]) and the contiguous copies of
    indices and grad when they are not contiguous (temporaries, freed on return): the CPU kernel makes
    grad_weight first, the CUDA one last. Row i of the gradient is added to grad_weight[indices[i]] in order,
    skipped at padding_idx, times 1/count (a double rounded to the gradient's dtype) under scale_grad_by_freq.
    (CUDA's sort-based path for more than 3072 indices or scale_grad_by_freq also allocates its sort buffers;
    those are not modelled.)"""
    dim = grad.shape[-1]
    dtype, dev = C.dtype_of(grad), C.device_of(grad)
    on_cuda = dev is not None and dev.type == "cuda"
    if not on_cuda:
        out = C.new_empty((num_weights, dim), dtype, dev, False, grad._impl.is_virtual)
    temps = [C.wrap(_E.contiguous(t._impl)) for t in (indices, grad) if not t._impl.is_contiguous]
    if on_cuda:
        out = C.new_empty((num_weights, dim), dtype, dev, False, grad._impl.is_virtual)
    gv, iv = C.read(grad), C.read(indices)
    direct = None  # the result's own memory, when the sums can be made there (no zeroed copy to write back)
    if C.shape_only(gv) or out._impl.is_virtual:  # (virtual_mode makes every device allocation virtual)
        values = VirtualValues((num_weights, dim), gv.dtype)
    else:
        direct = _E.numpy_view(out._impl) if num_weights * dim else None
        if direct is not None and direct[0].dtype == gv.dtype and direct[0].flags.c_contiguous:
            values = direct[0]
            values[...] = 0
        else:
            direct = None
            values = np.zeros((num_weights, dim), dtype=gv.dtype)
    if not C.shape_only(values, iv):  # (shape-only indices: nothing to add, as with ufunc.at)
        idx = iv.reshape(-1)
        if idx.size and idx.min() < 0:  # (the forward's index_select takes -V..-1 as V-1..0)
            idx = np.where(idx < 0, idx + num_weights, idx)
        rows = gv.reshape(idx.shape[0], dim)
        if scale_grad_by_freq:
            counts = np.bincount(idx, minlength=num_weights)
            scale = np.asarray(1.0 / counts[idx], dtype=rows.dtype)
        if padding_idx >= 0:
            keep = idx != padding_idx
            if not keep.all():
                idx, rows = idx[keep], rows[keep]
                if scale_grad_by_freq:
                    scale = scale[keep]
        if scale_grad_by_freq:
            # add_kernel's a + alpha * b is a fused multiply-add: the product kept exact (in double for
            # float32 rows), rounded once with the sum
            wide = np.float64 if rows.dtype != np.float64 else np.longdouble
            rows = rows.astype(wide) * scale.astype(wide)[:, None]
        add_rows(values, idx, rows)
    if direct is None:
        C.write(out, values, bump=False)
    elif direct[1]:  # (a copy of device memory: it goes back)
        _E.upload(out._impl, values)
    del temps
    return out


def _dense_double_backward(gg, indices, padding_idx):
    """embedding_dense_double_backward: the gradient's rows gathered back at the indices, zero at padding_idx
    (scale_grad_by_freq is not applied again, as in PyTorch)."""
    rows = torch.index_select(gg, 0, indices.reshape(-1))
    if padding_idx >= 0:
        rows = rows.masked_fill((indices == padding_idx).reshape(-1, 1), 0)
    return rows.view(tuple(indices.shape) + (-1,))


def _composite(input, weight, padding_idx, scale_grad_by_freq, sparse):
    """The reference: index_select under _composite.named, whose backward recomputes it under grad mode (with
    the padding mask and the 1/count scaling folded into the recomputation) and asks autograd for the gradient."""
    shape = list(input.shape) + [weight.shape[1]]
    flat_idx = input.reshape(-1)

    def gather(w):
        return torch.index_select(w, 0, flat_idx).reshape(shape)

    def recompute(w):
        rows = w
        if scale_grad_by_freq:
            counts = torch.bincount(flat_idx.long(), minlength=w.shape[0]).clamp_min(1).to(w.dtype)
            rows = w / counts.unsqueeze(1)
        out = torch.index_select(rows, 0, flat_idx)
        if padding_idx >= 0:
            out = out * (flat_idx != padding_idx).to(w.dtype).unsqueeze(1)
        return out.reshape(shape)

    return named("EmbeddingBackward0", gather, (weight,),
                 recompute=recompute if (padding_idx >= 0 or scale_grad_by_freq) else None,
                 saved={"indices": input, "padding_idx": padding_idx, "scale_grad_by_freq": scale_grad_by_freq,
                        "sparse": sparse, "weight_sym_argsize_0": weight.shape[0]})

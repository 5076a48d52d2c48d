# F.embedding_bag as PyTorch runs it: functional.py's argument handling, then ATen's _embedding_bag (one
# EmbeddingBagBackward0 node on weight and per_sample_weights) with the four outputs the CUDA kernel allocates in
# its order - bag_size, offset2bag, output, max_indices ([0] unless mode='max') - the node keeping the last
# three (result1-3) with the indices and offsets.
#
# Values come from a differentiable composite (rows gathered, weighted and added into their bags, or the bag's
# per-feature maximum), so the gradients are autograd's of it: each selected row gets its bag's gradient (times
# its per-sample weight, or / bag size for 'mean'), max mode's gradient goes to the arg-max rows, and
# scale_grad_by_freq divides a row's gradient by its count in the batch (the backward recomputes with the rows
# pre-divided by their counts, which scales their gradient and nothing else). Entries equal to padding_idx
# take no part. The backward's grad_weight is one allocation (the CUDA backward's sort buffers are not modelled).
# Index values are read as the kernel reads them, in place (C.read): no device-to-host copy is recorded.
import warnings

import torch
from .._ops import _core as C
from .._scratch import scratch
from ._composite import named

_MODES = {"sum": 0, "mean": 1, "max": 2}


def _no_grad_embedding_renorm_(weight, input, max_norm, norm_type):
    """torch.embedding_renorm_: rows named by input whose norm exceeds max_norm are scaled down to it (in place;
    nothing to do on virtual tensors, which have no values and gain no allocation from it)."""
    if weight._impl.is_virtual or input._impl.is_virtual:
        return
    with torch.no_grad():
        for row in sorted(set(_values(input))):
            norm = float(C.read(weight[row].norm(norm_type)))
            if norm > max_norm:
                weight[row].mul_(max_norm / (norm + 1e-7))


def _values(t):
    """A tensor's values as a list, read where they live (no recorded transfer: the kernel reads them)."""
    return C.read(t).reshape(-1).tolist()


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    # Used to be embedding_bag(weight, input, ...); now is embedding_bag(input, weight, ...)
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError("embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape as "
                         "the input ({})".format(per_sample_weights.shape, input.shape))
    if weight.dim() != 2:
        raise ValueError("weight has to be a 2D Tensor, but got Tensor of dimension {}".format(weight.dim()))
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type {}".format(str(type(offsets))))
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError("input has to be 1D or 2D Tensor, but got Tensor of dimension {}".format(input.dim()))
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='{}'). Please open a feature request on "
                                  "GitHub.".format(mode))
    return _embedding_bag(weight, input, offsets, scale_grad_by_freq, _MODES[mode], sparse, per_sample_weights,
                          include_last_offset, padding_idx)[0]


def _virtual(*tensors):
    return any(t is not None and t._impl.is_virtual for t in tensors)


def _check(weight, indices, offsets, include_last_offset, padding_idx):
    """ATen's embedding_bag checks; returns the wrapped padding_idx (-1: none). Virtual operands (estimate mode)
    have no values to check."""
    pad = -1
    if padding_idx is not None:
        n = weight.size(0)
        if not -n <= padding_idx < n:
            raise RuntimeError("padding_idx must be within the number of embeddings, -{} through {}, but got {}"
                               .format(n, n - 1, padding_idx))
        pad = padding_idx + n if padding_idx < 0 else padding_idx
    for t in (indices, offsets):
        if t.dtype not in (torch.int64, torch.int32):
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                               "Long, Int; but got {} instead (while checking arguments for embedding_bag)"
                               .format(t.type()))
    if _virtual(weight, indices, offsets):
        return pad
    if offsets.numel() > 0:
        offs = _values(offsets)
        first, last = offs[0], offs[-1]
        if first != 0:
            raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                               "position 0. However, got {}".format(first))
        if last > indices.numel():
            raise RuntimeError("offsets[-1] can not be greater than input's length {} but got offsets[-1] of {}"
                               .format(indices.numel(), last))
    if include_last_offset and offsets.numel() < 1:
        raise RuntimeError("include_last_offset: numBags should be at least 1")
    rows = weight.size(0)
    for i in _values(indices):
        if not 0 <= i < rows:
            raise IndexError("index out of range in self")
    return pad


def _embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                   include_last_offset, padding_idx):
    pad = _check(weight, indices, offsets, include_last_offset, padding_idx)
    indices, offsets = indices.contiguous(), offsets.contiguous()
    if _virtual(weight, indices, offsets, per_sample_weights):
        return _embedding_bag_virtual(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                                      per_sample_weights, include_last_offset, pad)
    idx, offs = _values(indices), _values(offsets)
    num_bags = len(offs) - 1 if include_last_offset else len(offs)
    bounds = offs[:num_bags] + [len(idx)] if not include_last_offset else offs[:num_bags] + [offs[num_bags]]
    offset2bag, bag_size, members = [0] * len(idx), [0] * len(offs), []
    for b in range(num_bags):
        lo, hi = bounds[b], max(bounds[b], bounds[b + 1])
        for i in range(lo, min(hi, len(idx))):
            offset2bag[i] = b
        kept = [i for i in range(lo, min(hi, len(idx))) if idx[i] != pad]
        bag_size[b] = len(kept)
        members.append(kept)
    d, dev = weight.size(1), weight.device
    max_rows = None
    if mode == 2:  # the arg-max row per bag and feature (-1 for an empty bag)
        with torch.no_grad(), scratch():
            max_rows = []
            for kept in members:
                if not kept:
                    max_rows.append([-1] * d)
                    continue
                rows = torch.tensor([idx[i] for i in kept], dtype=torch.int64, device=dev)
                arg = _values(weight.index_select(0, rows).max(0)[1])
                max_rows.append([idx[kept[a]] for a in arg])
    sel = [i for kept in members for i in kept]
    starts = [0]
    for kept in members:
        starts.append(starts[-1] + len(kept))
    sel_bags = [offset2bag[i] for i in sel]

    def compute(w, psw, freq=None):
        # (index tensors made here, where the composite runs in scratch: the node holds no device memory for them)
        sel_rows = torch.tensor([idx[i] for i in sel], dtype=torch.int64, device=dev)
        sel_pos = torch.tensor(sel, dtype=torch.int64, device=dev)
        if mode == 2:
            flat = torch.tensor([[max(r, 0) for r in row] for row in max_rows], dtype=torch.int64,
                                device=dev).reshape(num_bags, d)
            empty = torch.tensor([row[0] < 0 for row in max_rows], dtype=torch.bool, device=dev).reshape(num_bags, 1)
            return w.gather(0, flat).masked_fill(empty, 0.0)
        rows = (w if freq is None else w / freq).index_select(0, sel_rows)
        if psw is not None:
            rows = rows * psw.index_select(0, sel_pos).unsqueeze(1)
        if mode == 1:
            sizes = torch.tensor([float(bag_size[b]) for b in sel_bags], dtype=w.dtype, device=dev)
            rows = rows / sizes.unsqueeze(1)
        # the selected entries run bag by bag: each bag sums a contiguous slice (an empty slice sums to zeros
        # that stay joined to w's graph)
        return torch.stack([rows[starts[b]:starts[b + 1]].sum(0) for b in range(num_bags)]) if num_bags \
            else rows.new_zeros((0, d))

    def recompute(w, psw):
        if not scale_grad_by_freq:
            return compute(w, psw)
        counts = [0.0] * w.size(0)
        for i in sel:
            counts[idx[i]] += 1.0
        freq = torch.tensor([c if c else 1.0 for c in counts], dtype=w.dtype, device=dev).unsqueeze(1)
        return compute(w, psw, freq)

    state = {}

    def allocate(values):
        # the CUDA kernel's order: bag_size, offset2bag, output, max_indices
        def index_tensor(values, shape):
            t = torch.empty(shape, dtype=indices.dtype, device=dev)
            C.write(t, values, bump=False)
            return t

        state["bag_size"] = index_tensor(bag_size, (len(offs),))
        state["offset2bag"] = index_tensor(offset2bag, (len(idx),))
        out = torch.empty((num_bags, d), dtype=weight.dtype, device=dev)
        state["max_indices"] = index_tensor(max_rows, (num_bags, d)) if mode == 2 else \
            torch.empty((0,), dtype=indices.dtype, device=dev)
        return out, []

    def saved(result):
        return {"indices": indices, "mode": mode, "offsets": offsets, "padding_idx": pad,
                "per_sample_weights": per_sample_weights, "result1": state["offset2bag"],
                "result2": state["bag_size"], "result3": state["max_indices"],
                "scale_grad_by_freq": scale_grad_by_freq, "sparse": sparse, "weight": weight,
                "weight_sym_argsize_0": weight.size(0)}

    out = named("EmbeddingBagBackward0", compute, (weight, per_sample_weights), recompute=recompute, saved=saved,
                allocate=allocate)
    return out, state["offset2bag"], state["bag_size"], state["max_indices"]


def _embedding_bag_virtual(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                           include_last_offset, pad):
    """Shape-only (estimate mode: no values to read): the same four outputs and node, computed as a gather of
    num_bags rows (the gradients then have the shapes of weight and per_sample_weights)."""
    num_bags = offsets.numel() - (1 if include_last_offset else 0)
    d, dev = weight.size(1), weight.device
    state = {}

    def compute(w, psw):
        rows = w.index_select(0, torch.zeros(num_bags, dtype=torch.int64, device=dev))
        return rows * psw.sum() if psw is not None else rows

    def allocate(values):
        state["bag_size"] = torch.empty((offsets.numel(),), dtype=indices.dtype, device=dev)
        state["offset2bag"] = torch.empty((indices.numel(),), dtype=indices.dtype, device=dev)
        out = torch.empty((num_bags, d), dtype=weight.dtype, device=dev)
        state["max_indices"] = torch.empty((num_bags, d) if mode == 2 else (0,), dtype=indices.dtype, device=dev)
        return out, []

    def saved(result):
        return {"indices": indices, "mode": mode, "offsets": offsets, "padding_idx": pad,
                "per_sample_weights": per_sample_weights, "result1": state["offset2bag"],
                "result2": state["bag_size"], "result3": state["max_indices"],
                "scale_grad_by_freq": scale_grad_by_freq, "sparse": sparse, "weight": weight,
                "weight_sym_argsize_0": weight.size(0)}

    out = named("EmbeddingBagBackward0", compute, (weight, per_sample_weights), saved=saved, allocate=allocate)
    return out, state["offset2bag"], state["bag_size"], state["max_indices"]

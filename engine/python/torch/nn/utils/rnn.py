# torch.nn.utils.rnn: PackedSequence and the pack / pad helpers, with PyTorch's layouts and errors.
# A packed batch is the time-major concatenation of each step's live rows (sequences sorted longest first);
# batch_sizes (int64, always on the CPU) says how many rows each step has.
from collections import namedtuple
from collections.abc import Iterable

import _devicescope_C as _E
import torch
from ..._ops import _core as _C
from ...autograd import graph
from .._composite import REFERENCE as _REFERENCE, named

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]

PackedSequence_ = namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


def bind(optional, fn):
    return None if optional is None else fn(optional)


class PackedSequence(PackedSequence_):
    """Holds the data and list of batch_sizes of a packed sequence (made by pack_padded_sequence)."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        return super().__new__(cls, *_packed_sequence_init_args(data, batch_sizes, sorted_indices, unsorted_indices))

    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes, bind(self.sorted_indices, lambda t: t.pin_memory()),
                          bind(self.unsorted_indices, lambda t: t.pin_memory()))

    def cuda(self, *args, **kwargs):
        ex = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.is_cuda:
            return self.to(*args, **kwargs)
        return self.to(*args, device="cuda", **kwargs)

    def cpu(self, *args, **kwargs):
        ex = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.device.type == "cpu":
            return self.to(*args, **kwargs)
        return self.to(*args, device="cpu", **kwargs)

    def double(self):
        return self.to(dtype=torch.double)

    def float(self):
        return self.to(dtype=torch.float)

    def half(self):
        return self.to(dtype=torch.half)

    def long(self):
        return self.to(dtype=torch.long)

    def int(self):
        return self.to(dtype=torch.int)

    def to(self, *args, **kwargs):
        """The data moves; batch_sizes stays on the CPU; the index tensors follow the data's device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        kwargs = {k: v for k, v in kwargs.items() if k not in ("device", "dtype")}
        sorted_indices = bind(self.sorted_indices, lambda t: t.to(data.device, **kwargs))
        unsorted_indices = bind(self.unsorted_indices, lambda t: t.to(data.device, **kwargs))
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def _packed_sequence_init_args(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:
        if batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should never be created manually. "
                "They should be instantiated by functions like pack_sequence and pack_padded_sequences in "
                "nn.utils.rnn. https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return data, batch_sizes, sorted_indices, unsorted_indices
    assert isinstance(data, (list, tuple)) and len(data) == 2
    return data[0], data[1], sorted_indices, unsorted_indices


def invert_permutation(permutation):
    if permutation is None:
        return None
    return torch.argsort(permutation)


def _check_lengths(lengths, batch_size, enforce_sorted):
    values = [int(v) for v in lengths.tolist()]
    if len(values) != batch_size:
        raise RuntimeError("Expected `len(lengths)` to be equal to batch_size, but got {} (batch_size={})"
                           .format(len(values), batch_size))
    if values and values[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if enforce_sorted and any(values[i] < values[i + 1] for i in range(len(values) - 1)):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You "
                           "can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep "
                           "this requirement if you do not need ONNX exportability.")
    return values


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded batch [T, B, *] (or [B, T, *]) whose sequences have the given lengths."""
    lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    unpacked = input  # (_pack_padded_sequence's own input: batch_first data is transposed inside the op)
    if batch_first:
        input = input.transpose(0, 1) if _REFERENCE else input.detach().transpose(0, 1)
    values = _check_lengths(lengths, input.shape[1], enforce_sorted or sorted_indices is not None)
    if values[0] > input.shape[0]:
        raise RuntimeError("Expected sequence length to be larger than or equal to {} (got {})".format(
            values[0], input.shape[0]))
    batch_sizes = [sum(1 for n in values if n > t) for t in range(values[0])]
    batch_sizes_t = torch.tensor(batch_sizes, dtype=torch.int64)
    saved = {"batch_first": batch_first, "input_sym_sizes": tuple(unpacked.shape), "result1": batch_sizes_t}
    if _REFERENCE:
        data = named("PackPaddedSequenceBackward0",
                     lambda x: torch.cat([x[t, :bs] for t, bs in enumerate(batch_sizes)], 0), (input,),
                     saved=saved, linear=(0,))
    else:
        data = _pack_padded(unpacked, values, batch_sizes, batch_first, saved)
    return PackedSequence(data, batch_sizes_t, sorted_indices, None)


def _pack_padded(input, lengths, batch_sizes, batch_first, saved):
    """ATen's _pack_padded_sequence: for each run of steps with the same batch size (scanning the lengths from the
    shortest), the block input[prev_l:l, :batch].contiguous() (a temporary copy unless the block is contiguous
    already), then one cat of the blocks, the temporaries freed after it; PackPaddedSequenceBackward0 saves no
    tensor of the input and its backward (_pack_padded_sequence_backward) is one zeros of the input's size with
    each step's rows copied in."""
    feature = tuple(input.shape[2:])
    batch = len(lengths)
    steps = input.transpose(0, 1) if batch_first else input
    with torch.no_grad():
        blocks = []
        prev_l = 0
        for i in range(batch):
            n = lengths[batch - 1 - i]
            if n > prev_l:
                blocks.append(steps[prev_l:n, :batch - i].contiguous().view((-1,) + feature))
                prev_l = n
        data = torch.cat(blocks)
        del blocks
    if not (torch.is_grad_enabled() and input.requires_grad):
        return data
    sizes = tuple(steps.shape)  # (time-major)
    del steps
    dtype, device = input.dtype, input.device

    def backward(grads):
        g = grads[0]
        if g is None:
            return (None,)
        with torch.no_grad():
            gx = torch.zeros(sizes, dtype=dtype, device=device)
            offset = 0
            for t, bs in enumerate(batch_sizes):
                gx[t, :bs] = g[offset:offset + bs]
                offset += bs
        # (double backward: the incoming gradient's gradient is that gradient packed again; PyTorch's node for the
        # backward's slice copies is a CopySlices, then its transpose's for batch_first)
        gx = graph.linear_grad(gx, g, "CopySlices", lambda gg: _pack_padded(gg, lengths, batch_sizes, False, None))
        return (gx.transpose(0, 1) if batch_first else gx,)
    graph.attach("PackPaddedSequenceBackward0", [data], [input], backward, saved=saved)
    return data


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Inverse of pack_padded_sequence: (padded batch, lengths as a CPU int64 tensor), original order."""
    sizes = [int(b) for b in sequence.batch_sizes.tolist()]
    max_seq_length = len(sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             "but got total_length={} and max sequence length being {}".format(
                                 total_length, max_seq_length))
        max_seq_length = total_length
    if _REFERENCE:
        padded, lengths = _pad_steps(sequence.data, sizes, batch_first, padding_value, max_seq_length)
    else:
        padded, lengths = _pad_packed(sequence.data, sizes, batch_first, padding_value, max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        return padded.index_select(0 if batch_first else 1, unsorted_indices), lengths[unsorted_indices.cpu()]
    return padded, lengths


def _pad_steps(data, sizes, batch_first, padding_value, max_seq_length):
    """pad_packed_sequence's reference (DEVICESCOPE_PY_COMPOSITE=1): each step's rows padded and stacked."""
    batch = sizes[0]
    feature = tuple(data.shape[1:])

    def pad_rows(x, n):
        if x.shape[0] == n:
            return x
        fill = torch.full((n - x.shape[0],) + feature, padding_value, dtype=data.dtype, device=data.device)
        return torch.cat([x, fill], 0)

    steps = [pad_rows(part, batch) for part in data.split(sizes, 0)]
    steps += [torch.full((batch,) + feature, padding_value, dtype=data.dtype, device=data.device)] * \
        (max_seq_length - len(sizes))
    padded = torch.stack(steps, 0)
    if batch_first:
        padded = padded.transpose(0, 1)
    lengths = torch.tensor([sum(1 for bs in sizes if bs > b) for b in range(batch)], dtype=torch.int64)
    return padded, lengths


def _pad_packed(data, sizes, batch_first, padding_value, max_seq_length):
    """ATen's _pad_packed_sequence: one full() output, then each run of steps with the same batch size copied into
    its block, output.slice(0, ...).slice(1, ...).copy_(data.slice(0, ...).view(...)); while autograd records,
    each copy is a CopySlices node over the previous one and the block's SliceBackward0 -> ViewBackward0 (its
    backward: a copy of the gradient with the block zeroed for the output so far, and a contiguous clone of the
    block's rows for the data). Returns (output, lengths as a CPU int64 tensor)."""
    batch = sizes[0]
    feature = tuple(data.shape[1:])
    output = torch.full((max_seq_length, batch) + feature, padding_value, dtype=data.dtype, device=data.device)
    track = torch.is_grad_enabled() and data.requires_grad
    lengths = [0] * batch
    n_steps = len(sizes)
    offset, prev_batch, prev_i = 0, batch, 0
    for i in range(n_steps + 1):
        bs = sizes[i] if i != n_steps else 0
        if bs != prev_batch:
            rows = prev_batch * (i - prev_i)
            block = data.narrow(0, offset, rows).view((i - prev_i, prev_batch) + feature)
            region = (slice(prev_i, i), slice(0, prev_batch))
            before = graph.edge_of(output) if track else None
            with torch.no_grad():
                output[region] = block
            if track:
                graph.attach_edges("CopySlices", [output], [before, graph.edge_of(block)],
                                   _copy_slices_backward(region, before[0] is not None))
            offset += rows
            prev_i = i
        for b in range(bs, prev_batch):  # (the sequences that ended before step i)
            lengths[b] = i
        prev_batch = bs
    if batch_first:
        output = output.transpose(0, 1)
    return output, torch.tensor(lengths, dtype=torch.int64)


def _copy_slices_backward(region, base_has_history):
    def backward(grads):
        g = grads[0]
        if g is None:
            return (None, None)
        # CopySlices: the output's gradient copied and the block's part zeroed (the copy overwrote it), then the
        # block's part cloned for the copied-in values
        base = g.clone()
        part = g[region].clone()
        base[region] = 0
        return (base if base_has_history else None, part)
    return backward


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stacks variable-length tensors [L_i, *] into [max L, B, *] (or [B, max L, *]), padding the rest."""
    if isinstance(sequences, torch.Tensor):
        sequences = sequences.unbind(0)
    elif not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg of type: {}"
                           .format(type(sequences)))
    sequences = tuple(sequences)
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.size(0) for s in sequences)
    if _plain_copies(sequences):
        # ATen's pad_sequence (PackedSequence.cpp): at::full of the padded shape in the first sequence's dtype
        # and device, then each sequence copy_'d into its slot (out.narrow(0, start, len).select(1, i), or
        # select then narrow when batch_first): one allocation, out's version counter at 1 + B (fill_ and each
        # copy_ go through autograd there). The copies are numpy assignments into out's memory (a data
        # loader's collate_fn pads every batch; per-row view ops and copy_ cost ~10 us each).
        first = sequences[0]
        out = torch.full(((len(sequences), max_len) if batch_first else (max_len, len(sequences)))
                         + tuple(first.shape[1:]), padding_value, dtype=first.dtype, device=first.device)
        oi = out._impl
        oi.bump_version()
        view, is_copy = (None, False) if oi.is_virtual else _E.numpy_view(oi)  # (virtual: no values to copy)
        for i, seq in enumerate(sequences):
            if view is not None:
                n = seq._impl.sizes[0]
                start = max_len - n if padding_side == "left" else 0
                if batch_first:
                    view[i, start:start + n] = _C.read(seq)
                else:
                    view[start:start + n, i] = _C.read(seq)
            oi.bump_version()
        if is_copy:
            _E.upload(oi, view)
        return out
    # With a gradient (or mixed dtypes / devices, virtual values): padded rows stacked. (ATen's copies into
    # views of a fresh tensor would give CopySlices nodes, which DeviceScope's in-place ops on views of a tensor
    # without history do not make yet.)
    rows = []
    for s in sequences:
        n = max_len - s.size(0)
        if n:
            fill = torch.full((n,) + tuple(s.shape[1:]), padding_value, dtype=s.dtype, device=s.device)
            s = torch.cat([s, fill] if padding_side == "right" else [fill, s], 0)
        rows.append(s)
    return torch.stack(rows, 0 if batch_first else 1)


def _plain_copies(sequences):
    """Whether pad_sequence's copies are plain value copies: no graph to record, one dtype (not bfloat16, which
    numpy holds as float32) and device, real values, at least 1-D, one trailing shape."""
    fi = sequences[0]._impl
    if fi.dtype_code == torch.bfloat16._code or fi.dim < 1:
        return False
    grad = torch.is_grad_enabled()
    shape = tuple(fi.sizes[1:])
    for seq in sequences:
        si = seq._impl
        if (si.dtype_code != fi.dtype_code or si.device_key != fi.device_key or si.is_virtual or si.dim < 1
                or tuple(si.sizes[1:]) != shape or (grad and seq.requires_grad)):
            return False
    return True


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(length)] for seq, length in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)

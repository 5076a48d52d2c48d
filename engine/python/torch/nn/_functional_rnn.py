# The recurrent layers behind nn.RNN / LSTM / GRU and their cells, with ATen's CPU structure: the input
# projection of a whole layer is one matmul, then one cell per time step (nn/_rnn_cells.py: ATen's LSTMCell /
# GRUCell / SimpleCell with their autograd nodes); gate order i, f, g, o (LSTM) and r, z, n (GRU) as in
# PyTorch's weights.
# Padded input is the packed case with every step's batch size equal to the batch.
import sys

import torch
from . import _rnn_cells as _cells
from . import functional as F


# ----------------------------------------------------------------------------- cells (one time step)
def _hidden_gates(hx, w_hh, b_hh):
    return F.linear(hx, w_hh, b_hh)


def rnn_tanh_step(igates, hx, w_hh, b_hh):
    return _cells.simple_cell(igates, hx, w_hh, b_hh, relu=False)


def rnn_relu_step(igates, hx, w_hh, b_hh):
    return _cells.simple_cell(igates, hx, w_hh, b_hh, relu=True)


def lstm_step(igates, state, w_hh, b_hh, w_hr=None):
    return _cells.lstm_cell(igates, state[0], state[1], w_hh, b_hh, w_hr)


def gru_step(igates, hx, w_hh, b_hh):
    return _cells.gru_cell(igates, hx, w_hh, b_hh)


STEPS = {"RNN_TANH": rnn_tanh_step, "RNN_RELU": rnn_relu_step, "LSTM": lstm_step, "GRU": gru_step}
_SIMPLE = ("RNN_TANH", "RNN_RELU")


def cell(mode, input, hx, w_ih, w_hh, b_ih, b_hh):
    """One step of RNNCell / LSTMCell / GRUCell (hx is a pair for LSTM)."""
    # (a function, not the input gates: each cell computes linear_ih where ATen's does, after linear_hh
    # except in GRUCell)
    return STEPS[mode](lambda: F.linear(input, w_ih, b_ih), hx, w_hh, b_hh)


# ----------------------------------------------------------------------------- state helpers
_SSIZE_MAX = 2 ** 63 - 1  # (the stop a slice without one gets: subscript's _PY_SSIZE_MAX)
_OPS = []  # [torch._ops.shape, torch._ops._core] once a forward has imported them (the _ops circle)


def _shape_ops():
    """torch._ops.shape and _core for slicing rows without Tensor.narrow / Tensor.__getitem__ around slice_dim
    (their argument handling cost more than the slice: a packed layer slices once or twice per step); None while
    the profiler wraps those methods to record aten::narrow / aten::index, so that it sees them."""
    recorder = sys.modules.get("torch.profiler._recorder")  # (not imported: it imports torch.nn)
    if recorder and recorder._installed:
        return None
    if not _OPS:
        from .._ops import _core, shape
        _OPS[:] = (shape, _core)
    return _OPS


def _rows_slice(t, start, stop):
    """t[start:stop] (stop None: to the end): while autograd records, subscript's path is slice_dim(t, 0, start,
    stop or the slice's maximum, 1), called here directly (the same view, SliceBackward0 and saved values)."""
    ops = _shape_ops()
    if ops is not None and ops[1].needs_grad(t):
        return ops[0].slice_dim(t, 0, start, _SSIZE_MAX if stop is None else stop, 1)
    return t[start:stop]


def _narrow_state(state, n):
    if isinstance(state, tuple):
        return tuple(_rows_slice(s, 0, n) for s in state)
    return _rows_slice(state, 0, n)


def _cat_states(parts):
    """hidden_concat: one cat of the pieces (of each state of a pair)."""
    if isinstance(parts[0], tuple):
        return tuple(torch.cat([p[k] for p in parts], 0) for k in range(len(parts[0])))
    return torch.cat(parts, 0)


def _output_of(state):
    return state[0] if isinstance(state, tuple) else state


# ----------------------------------------------------------------------------- one layer, one direction
def _run_direction(mode, step_input, batch_sizes, state0, weights, reverse, packed=True):
    """Runs one direction of one layer over the steps; step_input(t) gives step t's input gates
    ([batch_sizes[t], gates]: a piece of the layer's input projection, narrowed when it is asked for, as
    ATen's packed layers narrow it).

    Returns (outputs per step, final state). Sequences shorter than the batch's longest drop out of the
    step batch (packed input): their final state is the one at their own last step, as ATen's packed
    layers keep it. The reverse direction starts each sequence at its own last step.
    """
    step = STEPS[mode]
    w_hh, b_hh, w_hr = weights["w_hh"], weights["b_hh"], weights["w_hr"]
    extra = (w_hr,) if mode == "LSTM" else ()
    n = len(batch_sizes)
    outputs = [None] * n
    if not reverse:
        state = state0
        finished = []
        for t in range(n):
            bs = batch_sizes[t]
            igates = step_input(t)
            if bs < _rows(state):
                finished.append(_slice_rows(state, bs))
                state = _narrow_state(state, bs)
            state = step(igates, state, w_hh, b_hh, *extra)
            outputs[t] = _output_of(state)
        finished.append(state)
        final = state if len(finished) == 1 else _cat_states(finished[::-1])
        return outputs, final
    # (ATen's ReversedPackedLayer narrows the state to the last step's rows, a SliceBackward0 even when they are all
    # of them; the padded layers' reverse direction starts from the state itself)
    state = _narrow_state(state0, batch_sizes[-1]) if packed else state0
    for t in range(n - 1, -1, -1):
        bs = batch_sizes[t]
        have = _rows(state)
        if bs > have:
            state = _cat_states([state, _slice_rows(state0, have, bs)])
        state = step(step_input(t), state, w_hh, b_hh, *extra)
        outputs[t] = _output_of(state)
    return outputs, state


def _narrower(igates, sizes):
    """step t's rows of packed input gates: igates.narrow(0, offset, batch_sizes[t]) (a SliceBackward0 each)."""
    offsets = [0]
    for b in sizes:
        offsets.append(offsets[-1] + b)
    ops = _shape_ops()
    if ops is not None and min(sizes, default=0) >= 0 and offsets[-1] <= igates.shape[0]:
        # narrow's checks pass for every step (sizes >= 0 within the rows): its slice_dim(igates, 0, offset,
        # offset + size), directly
        slice_dim = ops[0].slice_dim
        return lambda t: slice_dim(igates, 0, offsets[t], offsets[t] + sizes[t])
    return lambda t: igates.narrow(0, offsets[t], sizes[t])


def _rows(state):
    return (state[0] if isinstance(state, tuple) else state).shape[0]


def _slice_rows(state, start, stop=None):
    if isinstance(state, tuple):
        return tuple(_rows_slice(s, start, stop) for s in state)
    return _rows_slice(state, start, stop)


# ----------------------------------------------------------------------------- the whole network
def rnn_forward(mode, input, batch_sizes, hx, layer_weights, num_layers, dropout, training, bidirectional):
    """input: [T, B, F] (batch_sizes None) or packed data [sum(batch_sizes), F].

    hx: [L*D, B, H] (a pair for LSTM). layer_weights[layer*D + direction]: dict w_ih, w_hh, b_ih, b_hh, w_hr.
    Returns (output, h_n) or (output, (h_n, c_n)); output is [T, B, D*H] or packed data.
    """
    num_directions = 2 if bidirectional else 1
    packed = batch_sizes is not None
    if packed:
        sizes = [int(b) for b in batch_sizes.tolist()]
    else:
        sizes = [input.shape[1]] * input.shape[0]
    # ATen's rnn entry points hand the layers their initial states as hx.unbind(0) (LSTM: h's pieces, then c's):
    # one UnbindBackward0 that every layer and direction starts from, not a select per layer
    if isinstance(hx, tuple):
        states = list(zip(*[h.unbind(0) for h in hx]))
    else:
        states = hx.unbind(0)
    layer_input = input
    finals = []
    for layer in range(num_layers):
        dir_outputs = []
        for direction in range(num_directions):
            idx = layer * num_directions + direction
            w = layer_weights[idx]
            igates = F.linear(layer_input, w["w_ih"], w["b_ih"])
            if packed:
                step_input = _narrower(igates, sizes)
            else:
                steps_in = igates.unbind(0)
                step_input = steps_in.__getitem__
            state0 = states[idx]
            outs = None
            if not packed and direction == 0 and mode in _SIMPLE:  # (the simple cells' steps in one frame)
                outs = _cells.simple_layer(steps_in, state0, w["w_hh"], w["b_hh"], mode == "RNN_RELU")
            if outs is not None:
                final = outs[-1] if outs else state0
            else:
                outs, final = _run_direction(mode, step_input, sizes, state0, w, direction == 1, packed)
            dir_outputs.append(torch.cat(outs, 0) if packed else torch.stack(outs, 0))
            finals.append(final)
        layer_output = dir_outputs[0] if num_directions == 1 else torch.cat(dir_outputs, -1)
        if dropout > 0 and training and layer < num_layers - 1:
            layer_output = F.dropout(layer_output, dropout, True)
        layer_input = layer_output
    if mode == "LSTM":
        return layer_input, (torch.stack([f[0] for f in finals], 0), torch.stack([f[1] for f in finals], 0))
    return layer_input, torch.stack(finals, 0)


def check_attributes(input, params, hiddens, check_dtype):
    """ATen's RNN check_attributes: every hidden state and parameter on the input's device (and dtype)."""
    # (every forward runs this, once per token in a decoder: the engine tensors' device keys and dtype codes are
    # compared, equal keys being equal devices; the Tensor properties only to word an error)
    key, code = input._impl.device_key, input._impl.dtype_code

    def check(name, t):
        if t is None:
            return
        impl = t._impl
        if impl.device_key != key:
            raise RuntimeError("Input and {0} tensors are not at the same device, found input tensor at {1} and "
                               "{0} tensor at {2}".format(name, input.device, t.device))
        if check_dtype and impl.dtype_code != code:
            raise RuntimeError("Input and {0} tensors are not the same dtype, found input tensor with {1} and "
                               "{0} tensor with {2}".format(name, _scalar_name(input.dtype), _scalar_name(t.dtype)))
    for h in hiddens:
        check("hidden", h)
    for p in params:
        check("parameter", p)


def _scalar_name(dtype):
    return {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
            torch.bfloat16: "BFloat16"}.get(dtype, str(dtype).replace("torch.", ""))

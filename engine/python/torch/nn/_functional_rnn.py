# The recurrent kernels behind nn.RNN / LSTM / GRU and their cells, built from primitive ops (so autograd
# comes for free), with ATen's CPU arithmetic: the input projection of a whole layer is one matmul, then one
# hidden matmul per time step; gate order i, f, g, o (LSTM) and r, z, n (GRU) as in PyTorch's weights.
# Padded input is the packed case with every step's batch size equal to the batch.
import torch
from . import functional as F


# ----------------------------------------------------------------------------- cells (one time step)
def _hidden_gates(hx, w_hh, b_hh):
    return F.linear(hx, w_hh, b_hh)


def rnn_tanh_step(igates, hx, w_hh, b_hh):
    return torch.tanh(igates + _hidden_gates(hx, w_hh, b_hh))


def rnn_relu_step(igates, hx, w_hh, b_hh):
    return torch.relu(igates + _hidden_gates(hx, w_hh, b_hh))


def lstm_step(igates, state, w_hh, b_hh, w_hr=None):
    hx, cx = state
    gates = igates + _hidden_gates(hx, w_hh, b_hh)
    # one sigmoid over all four gates (the g slice is unused) and one tanh: fewer nodes than four calls
    i, f, _, o = torch.sigmoid(gates).chunk(4, 1)
    g = torch.tanh(gates.chunk(4, 1)[2])
    cy = f * cx + i * g
    hy = o * torch.tanh(cy)
    if w_hr is not None:
        hy = hy.matmul(w_hr.t())
    return hy, cy


def gru_step(igates, hx, w_hh, b_hh):
    hgates = _hidden_gates(hx, w_hh, b_hh)
    h = hx.shape[1]
    # r and z in one sigmoid over the first two thirds
    r, z = torch.sigmoid(igates[:, :2 * h] + hgates[:, :2 * h]).chunk(2, 1)
    n = torch.tanh(igates[:, 2 * h:] + r * hgates[:, 2 * h:])
    return n + z * (hx - n)


STEPS = {"RNN_TANH": rnn_tanh_step, "RNN_RELU": rnn_relu_step, "LSTM": lstm_step, "GRU": gru_step}


def cell(mode, input, hx, w_ih, w_hh, b_ih, b_hh):
    """One step of RNNCell / LSTMCell / GRUCell (hx is a pair for LSTM)."""
    return STEPS[mode](F.linear(input, w_ih, b_ih), hx, w_hh, b_hh)


# ----------------------------------------------------------------------------- state helpers
def _narrow_state(state, n):
    if isinstance(state, tuple):
        return tuple(s[:n] for s in state)
    return state[:n]


def _cat_state(a, b):
    if isinstance(a, tuple):
        return tuple(torch.cat([x, y], 0) for x, y in zip(a, b))
    return torch.cat([a, b], 0)


def _output_of(state):
    return state[0] if isinstance(state, tuple) else state


# ----------------------------------------------------------------------------- one layer, one direction
def _run_direction(mode, steps_in, batch_sizes, state0, weights, reverse):
    """Runs one direction of one layer over the steps (each [batch_sizes[t], gates]: the input projection).

    Returns (outputs per step, final state). Sequences shorter than the batch's longest drop out of the
    step batch (packed input): their final state is the one at their own last step, as ATen's packed
    layers keep it. The reverse direction starts each sequence at its own last step.
    """
    step = STEPS[mode]
    w_hh, b_hh, w_hr = weights["w_hh"], weights["b_hh"], weights["w_hr"]
    extra = (w_hr,) if mode == "LSTM" else ()
    order = range(len(steps_in) - 1, -1, -1) if reverse else range(len(steps_in))
    outputs = [None] * len(steps_in)
    if not reverse:
        state = state0
        finished = []
        for t in order:
            bs = batch_sizes[t]
            if bs < _rows(state):
                finished.append(_slice_rows(state, bs))
                state = _narrow_state(state, bs)
            state = step(steps_in[t], state, w_hh, b_hh, *extra)
            outputs[t] = _output_of(state)
        finished.append(state)
        final = finished[-1]
        for part in reversed(finished[:-1]):
            final = _cat_state(final, part)
        return outputs, final
    state = _narrow_state(state0, batch_sizes[-1])
    for t in order:
        bs = batch_sizes[t]
        have = _rows(state)
        if bs > have:
            state = _cat_state(state, _slice_rows(state0, have, bs))
        state = step(steps_in[t], state, w_hh, b_hh, *extra)
        outputs[t] = _output_of(state)
    return outputs, state


def _rows(state):
    return (state[0] if isinstance(state, tuple) else state).shape[0]


def _slice_rows(state, start, stop=None):
    if isinstance(state, tuple):
        return tuple(s[start:stop] for s in state)
    return state[start:stop]


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
    layer_input = input
    finals = []
    for layer in range(num_layers):
        dir_outputs = []
        for direction in range(num_directions):
            idx = layer * num_directions + direction
            w = layer_weights[idx]
            igates = F.linear(layer_input, w["w_ih"], w["b_ih"])
            steps_in = igates.split(sizes, 0) if packed else igates.unbind(0)
            state0 = tuple(h[idx] for h in hx) if isinstance(hx, tuple) else hx[idx]
            outs, final = _run_direction(mode, steps_in, sizes, state0, w, direction == 1)
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
    def check(name, t):
        if t is None:
            return
        if t.device != input.device:
            raise RuntimeError("Input and {0} tensors are not at the same device, found input tensor at {1} and "
                               "{0} tensor at {2}".format(name, input.device, t.device))
        if check_dtype and t.dtype != input.dtype:
            raise RuntimeError("Input and {0} tensors are not the same dtype, found input tensor with {1} and "
                               "{0} tensor with {2}".format(name, _scalar_name(input.dtype), _scalar_name(t.dtype)))
    for h in hiddens:
        check("hidden", h)
    for p in params:
        check("parameter", p)


def _scalar_name(dtype):
    return {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
            torch.bfloat16: "BFloat16"}.get(dtype, str(dtype).replace("torch.", ""))

# The autograd graph one time step of nn.LSTM / GRU / RNN and of their cells records, against real PyTorch's CPU
# cells (ATen's LSTMCell / GRUCell / SimpleCell): every node reached from the outputs in next_functions order,
# with what it saves (shapes and strides of saved tensors: mul_'s clone of its self is contiguous, the gates
# are strided views of one [B, k*H] buffer), for a layer (input gates precomputed, one UnbindBackward0), a packed
# layer, the cells used by hand, given states that need gradients and frozen weights. Values: the layer and its
# cells against the cell formulas written with plain ops (same weights), forward and gradients.
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence


def fill(module, seed=0):
    with torch.no_grad():
        for i, (name, p) in enumerate(module.named_parameters()):
            n = p.numel()
            p.copy_(((torch.arange(n, dtype=torch.float64) * 0.37 + i + seed).sin() * 0.5).reshape(p.shape)
                    .to(p.dtype))
    return module


def inputs(*shape, scale=0.61):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float32) * scale).cos().reshape(shape)


def node_name(fn):
    name = type(fn).__name__
    return "AccumulateGrad" if name.endswith("AccumulateGrad") else name


def describe(fn):
    parts = []
    for attr in ("_saved_self", "_saved_other", "_saved_result", "_saved_mat1", "_saved_dim", "_saved_split_size",
                 "_saved_self_sizes", "_saved_alpha"):
        try:
            v = getattr(fn, attr)
        except (AttributeError, RuntimeError):
            continue
        if isinstance(v, torch.Tensor):
            parts.append(f"{attr[7:]}={tuple(v.shape)}/{v.stride()}")
        elif v is not None:
            parts.append(f"{attr[7:]}={tuple(v) if isinstance(v, (list, tuple)) else v}")
    return node_name(fn) + (" " + " ".join(parts) if parts else "")


def graph(label, *outputs):
    """Prints the nodes reachable from the outputs, depth first in next_functions order, each once."""
    seen = set()
    lines = []

    def walk(fn, depth):
        if fn is None:
            return
        if fn in seen:
            lines.append("  " * depth + "^" + node_name(fn))
            return
        seen.add(fn)
        lines.append("  " * depth + describe(fn))
        for nxt, nr in fn.next_functions:
            walk(nxt, depth + 1)
    for o in outputs:
        walk(o.grad_fn, 0)
    print(f"== {label}: {len(seen)} nodes")
    print("\n".join(lines))


# one layer of each kind, three time steps, batch 2, hidden 3
x = inputs(3, 2, 4)
lstm = fill(nn.LSTM(4, 3))
o, (h, c) = lstm(x)
graph("LSTM", o, h, c)
gru = fill(nn.GRU(4, 3))
o, h = gru(x)
graph("GRU", o, h)
for nl in ("tanh", "relu"):
    rnn = fill(nn.RNN(4, 3, nonlinearity=nl))
    o, h = rnn(x)
    graph("RNN " + nl, o, h)

# packed: the batch shrinks at the second step
packed = pack_padded_sequence(inputs(3, 2, 4), [3, 1])
o, (h, c) = lstm(packed)
graph("LSTM packed", o.data, h, c)
o, h = gru(packed)
graph("GRU packed", o.data, h)

# the cells by hand, states that need gradients
h0 = (inputs(2, 3, scale=0.3) * 0.5).requires_grad_(True)
c0 = (inputs(2, 3, scale=0.7) * 0.5).requires_grad_(True)
lc = fill(nn.LSTMCell(4, 3), 1)
graph("LSTMCell", *lc(x[0], (h0, c0)))
gc = fill(nn.GRUCell(4, 3), 2)
graph("GRUCell", gc(x[0], h0))
rc = fill(nn.RNNCell(4, 3), 3)
graph("RNNCell", rc(x[0], h0))
# a transposed cell state: the products follow its layout
ct = (inputs(3, 2, scale=0.4) * 0.5).t().requires_grad_(True)
hy, cy = lc(x[0], (h0, ct))
print("transposed cx: cy", tuple(cy.shape), cy.stride(), "hy", hy.stride())
graph("LSTMCell transposed cx", cy)

# frozen weights: only the input's gradient flows
for p in gc.parameters():
    p.requires_grad_(False)
xi = x[0].clone().requires_grad_(True)
graph("GRUCell frozen", gc(xi, h0))
print("GRUCell frozen, nothing needs grad:", gc(x[0], h0.detach()).grad_fn)
for p in gc.parameters():
    p.requires_grad_(True)


# values: the cells against their formulas with plain ops
def lstm_ref(x, h, c, w_ih, w_hh, b_ih, b_hh):
    i, f, g, o = (x @ w_ih.t() + b_ih + h @ w_hh.t() + b_hh).chunk(4, 1)
    c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c2), c2


def gru_ref(x, h, w_ih, w_hh, b_ih, b_hh):
    ir, iz, inn = (x @ w_ih.t() + b_ih).chunk(3, 1)
    hr, hz, hn = (h @ w_hh.t() + b_hh).chunk(3, 1)
    r, z = torch.sigmoid(ir + hr), torch.sigmoid(iz + hz)
    n = torch.tanh(inn + r * hn)
    return (1 - z) * n + z * h


def grads(out_fn, tensors):
    for t in tensors:
        t.grad = None
    out = out_fn()
    sum(o.pow(2).sum() * (k + 1) for k, o in enumerate(out if isinstance(out, tuple) else (out,))).backward()
    return [o.detach().clone() for o in (out if isinstance(out, tuple) else (out,))] + \
        [t.grad.clone() for t in tensors]


def close(a, b):
    return all(torch.allclose(p, q, rtol=1e-5, atol=1e-6) for p, q in zip(a, b)) and len(a) == len(b)


for dtype in (torch.float32, torch.float64):
    lc2 = fill(nn.LSTMCell(4, 3), 4).to(dtype)
    gc2 = fill(nn.GRUCell(4, 3), 5).to(dtype)
    xs = inputs(5, 2, 4).to(dtype).requires_grad_(True)
    hs = (inputs(2, 3, scale=0.3) * 0.5).to(dtype).requires_grad_(True)
    cs = (inputs(2, 3, scale=0.9) * 0.5).to(dtype).requires_grad_(True)
    lw = list(lc2.parameters())
    gw = list(gc2.parameters())

    def unroll(step, state):
        outs = []
        for t in range(5):
            state = step(xs[t], state)
            outs.append(state[0] if isinstance(state, tuple) else state)
        return torch.stack(outs), (state[1] if isinstance(state, tuple) else state)
    got = grads(lambda: unroll(lambda a, s: lc2(a, s), (hs, cs)), [xs, hs, cs] + lw)
    want = grads(lambda: unroll(lambda a, s: lstm_ref(a, *s, *lw), (hs, cs)), [xs, hs, cs] + lw)
    print(dtype, "LSTMCell unrolled matches its formula:", close(got, want))
    got = grads(lambda: unroll(lambda a, s: gc2(a, s), hs), [xs, hs] + gw)
    want = grads(lambda: unroll(lambda a, s: gru_ref(a, s, *gw), hs), [xs, hs] + gw)
    print(dtype, "GRUCell unrolled matches its formula:", close(got, want))
    # the layers give the cells' results (same weights)
    layer = nn.LSTM(4, 3).to(dtype)
    layer.load_state_dict({k + "_l0": v for k, v in lc2.state_dict().items()})
    got = grads(lambda: layer(xs, (hs[None], cs[None]))[0], [xs, hs, cs])
    want = grads(lambda: unroll(lambda a, s: lc2(a, s), (hs, cs))[0], [xs, hs, cs])
    print(dtype, "LSTM layer matches its cell:", close(got, want))
    layer = nn.GRU(4, 3).to(dtype)
    layer.load_state_dict({k + "_l0": v for k, v in gc2.state_dict().items()})
    got = grads(lambda: layer(xs, hs[None])[0], [xs, hs])
    want = grads(lambda: unroll(lambda a, s: gc2(a, s), hs)[0], [xs, hs])
    print(dtype, "GRU layer matches its cell:", close(got, want))

# double backward through a cell (create_graph): a gradient penalty reaches the weights
lc3 = fill(nn.LSTMCell(3, 2), 6).double()
xd = inputs(2, 3).double().requires_grad_(True)
hy, cy = lc3(xd)
g, = torch.autograd.grad(hy.pow(2).sum() + cy.sum(), xd, create_graph=True)
g.pow(2).sum().backward()
print("double backward:", [f"{v:.6f}" for v in g.flatten().tolist()], f"{lc3.weight_hh.grad.abs().sum().item():.6f}")

# a saved gate modified in place before backward: PyTorch's version-counter error
hy, cy = lc(x[0], (h0, c0))
try:
    with torch.no_grad():
        hy.grad_fn._saved_other.mul_(2)  # tanh(cy), saved by the last MulBackward0
    hy.sum().backward()
    print("no error")
except RuntimeError as e:
    print("RuntimeError:", str(e).split(";")[0])

# the cells' argument checks (their common case reads the engine sizes once): PyTorch's messages, including states of
# another rank, which reach the size checks too
for cell, states in ((nn.LSTMCell(4, 5), lambda *s: (torch.zeros(*s), torch.zeros(*s))), (nn.GRUCell(4, 5), torch.zeros),
                     (nn.RNNCell(4, 5), torch.zeros)):
    for x_shape, h_shape in (((3, 4), (2, 5)), ((3, 4), (3, 6)), ((3, 7), (3, 5)), ((3, 4), (1, 3, 5)),
                             ((3, 4), (3, 5))):
        try:
            out = cell(torch.zeros(*x_shape), states(*h_shape))
            print(type(cell).__name__, x_shape, h_shape, "ok", tuple((out[0] if isinstance(out, tuple) else out).shape))
        except (RuntimeError, IndexError, ValueError) as e:
            print(type(cell).__name__, x_shape, h_shape, type(e).__name__, str(e).splitlines()[0][:100])

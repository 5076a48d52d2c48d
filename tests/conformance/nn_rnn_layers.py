# nn.RNN / LSTM / GRU and the cells against real PyTorch: reprs, parameter names and shapes, outputs and
# gradients with weights set from a formula (num_layers, bias, batch_first, bidirectional, proj_size,
# unbatched input, given h0/c0), and the argument errors.
import torch
from torch import nn


def fill(module):
    with torch.no_grad():
        for i, (name, p) in enumerate(module.named_parameters()):
            n = p.numel()
            p.copy_((torch.arange(n, dtype=torch.float32) * 0.37 + i).sin().reshape(p.shape) * 0.4)


def inputs(*shape):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float32) * 0.61).cos().reshape(shape)


def show(label, t):
    vals = [f"{v:.4f}" for v in t.detach().flatten().tolist()[:6]]
    print(label, tuple(t.shape), f"{t.detach().sum().item():.2f}", vals)


def run(module, x, *hidden):
    fill(module)
    print(module)
    print([(n, tuple(p.shape)) for n, p in module.named_parameters()])
    x = x.clone().requires_grad_(True)
    out = module(x, *hidden)
    out_t, rest = out if isinstance(out, tuple) else (out, None)
    show("output", out_t)
    if isinstance(rest, tuple):
        show("h_n", rest[0])
        show("c_n", rest[1])
        total = out_t.pow(2).sum() + rest[0].sum() + rest[1].sum() * 0.5
    elif rest is not None:
        show("h_n", rest)
        total = out_t.pow(2).sum() + rest.sum()
    else:
        total = out_t.pow(2).sum()
    total.backward()
    show("x.grad", x.grad)
    for n, p in module.named_parameters():
        show(n + ".grad", p.grad)


run(nn.RNN(3, 4), inputs(5, 2, 3))
run(nn.RNN(3, 4, num_layers=2, nonlinearity="relu", bias=False), inputs(5, 2, 3))
run(nn.RNN(3, 4, batch_first=True, bidirectional=True), inputs(2, 5, 3), inputs(2, 2, 4) * 0.5)
run(nn.LSTM(3, 4), inputs(6, 2, 3))
run(nn.LSTM(3, 5, num_layers=2, batch_first=True, bidirectional=True), inputs(2, 4, 3))
run(nn.LSTM(3, 4), inputs(6, 3), (inputs(1, 4) * 0.3, inputs(1, 4) * -0.2))
run(nn.LSTM(3, 5, proj_size=2), inputs(4, 2, 3))
run(nn.GRU(3, 4), inputs(5, 2, 3))
run(nn.GRU(3, 4, num_layers=3, bidirectional=True), inputs(4, 1, 3))
run(nn.GRU(3, 4, batch_first=True), inputs(2, 5, 3), inputs(1, 2, 4) * 0.7)
run(nn.RNNCell(3, 4), inputs(2, 3))
run(nn.RNNCell(3, 4, nonlinearity="relu"), inputs(2, 3), inputs(2, 4))
run(nn.LSTMCell(3, 4), inputs(2, 3))
run(nn.LSTMCell(3, 4, bias=False), inputs(3), (inputs(4), inputs(4) * 0.5))
run(nn.GRUCell(3, 4), inputs(2, 3), inputs(2, 4) * 0.2)
run(nn.GRUCell(3, 4), inputs(3))

# a cell unrolled by hand gives the layer's result (same weights)
lstm = nn.LSTM(3, 4)
fill(lstm)
cell = nn.LSTMCell(3, 4)
cell.load_state_dict({k[:-3]: v for k, v in lstm.state_dict().items()})
x = inputs(5, 2, 3)
h = c = torch.zeros(2, 4)
for t in range(5):
    h, c = cell(x[t], (h, c))
out, (hn, cn) = lstm(x)
print("cell unroll matches", torch.allclose(out[-1], h, atol=1e-6), torch.allclose(cn[0], c, atol=1e-6))

# state_dict keys, all_weights, reprs of the other options
m = nn.GRU(2, 3, num_layers=2, bidirectional=True)
print(list(m.state_dict().keys()))
print([[tuple(w.shape) for w in ws] for ws in m.all_weights])
print(nn.LSTM(4, 8, 2, dropout=0.25), nn.GRU(4, 8, bias=False, batch_first=True), nn.RNNCell(2, 3, bias=False))
m = nn.LSTM(10, 20)
print(all(-0.2237 <= p.min().item() and p.max().item() <= 0.2237 for p in m.parameters()))

# grad_fn of the outputs (the composition PyTorch's CPU kernels make)
o, (hn, cn) = nn.LSTM(3, 4, batch_first=True)(inputs(2, 5, 3))
print(type(o.grad_fn).__name__, type(hn.grad_fn).__name__)
o, h = nn.GRU(3, 4)(inputs(5, 3))
print(type(o.grad_fn).__name__, type(h.grad_fn).__name__)
print(type(nn.LSTMCell(3, 4)(inputs(2, 3))[1].grad_fn).__name__, type(nn.GRUCell(3, 4)(inputs(2, 3)).grad_fn).__name__,
      type(nn.RNNCell(3, 4)(inputs(2, 3)).grad_fn).__name__)


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)


err(lambda: nn.LSTM(3, 4)(inputs(5, 2, 6)))
err(lambda: nn.LSTM(3, 4)(inputs(5, 2, 3, 1)))
err(lambda: nn.GRU(3, 4)(inputs(5, 2, 3), torch.zeros(2, 2, 4)))
err(lambda: nn.GRU(3, 4)(inputs(5, 2, 3), torch.zeros(2, 4)))
err(lambda: nn.GRU(3, 4)(inputs(5, 3), torch.zeros(1, 2, 4)))
err(lambda: nn.LSTM(3, 4)(inputs(5, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 3, 4))))
err(lambda: nn.LSTM(3, 4)(inputs(5, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(2, 4))))
err(lambda: nn.LSTM(3, 4, proj_size=4))
err(lambda: nn.LSTM(3, 4, proj_size=-1))
err(lambda: nn.GRU(3, 4, proj_size=2))
err(lambda: nn.RNN(3, 4, dropout=1.5))
err(lambda: nn.LSTMCell(3, 4)(inputs(2, 3), (torch.zeros(2, 4), torch.zeros(3, 4))))
err(lambda: nn.GRUCell(3, 4)(inputs(2, 5)))
err(lambda: nn.GRUCell(3, 4)(inputs(2, 3), torch.zeros(2, 5)))

# The recurrent cells' C++ step kernels (bindings_rnn.cpp: LSTM gates and state, the GRU step, the simple cell,
# the backward of their sigmoid / tanh / relu, mul, sub and unsafe_split nodes) against the numpy path they replace
# (DEVICESCOPE_PY_RNN=1), through tests/tools/run_rnn_kernel_agreement.py: values to the last bit, every node
# reached from the outputs with what it saves (shapes, strides), and the allocator trace. Layers (padded and packed,
# bidirectional, two layers), the cells used by hand, batch 1 (the GRU's one-row clone keeps the chunk's strides),
# float32 and float64 (values from 1e-9 to 1e3), frozen weights, no_grad, and cases the kernels leave to numpy (half, a transposed state).
import torch
from torch import nn
from torch.nn import _rnn_cells
from torch.nn.utils.rnn import pack_padded_sequence


def hexes(t):
    return " ".join(float(v).hex() for v in t.detach().double().reshape(-1).tolist())


def describe(fn):
    parts = [type(fn).__name__]
    for attr in ("_saved_self", "_saved_other", "_saved_result", "_saved_mat1", "_saved_mat2", "_saved_split_size"):
        try:
            v = getattr(fn, attr)
        except (AttributeError, RuntimeError):
            continue
        if isinstance(v, torch.Tensor):
            parts.append(f"{attr[7:]}={tuple(v.shape)}/{v.stride()}")
        elif v is not None:
            parts.append(f"{attr[7:]}={v}")
    return " ".join(parts)


def graph(*outputs):
    seen, lines, stack = set(), [], [o.grad_fn for o in outputs if o.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        lines.append(describe(fn))
        stack.extend(n for n, _ in reversed(fn.next_functions))
    return lines


def report(label, outs, grads):
    print(label, "graph:", " | ".join(graph(*[o for o in outs if o.requires_grad])))
    for t in outs:
        print("  out", tuple(t.shape), t.stride(), hexes(t))
    for g in grads:
        print("  grad", None if g is None else hexes(g))


def run(dev):
    for dtype in (torch.float32, torch.float64):
        for batch in (1, 3):
            torch.manual_seed(batch)
            for cls in (nn.LSTM, nn.GRU, nn.RNN):
                kw = {"nonlinearity": "relu"} if cls is nn.RNN and batch == 3 else {}
                m = cls(4, 5, num_layers=2, bidirectional=True, **kw).to(dev, dtype)
                x = torch.randn(4, batch, 4, device=dev, dtype=dtype, requires_grad=True)
                y, h = m(x)
                hh = h[0] if isinstance(h, tuple) else h
                (y.sin().sum() + hh.pow(2).sum()).backward()
                report(f"{dev} {dtype} B{batch} {cls.__name__}", [y, hh], [x.grad] + [p.grad for p in m.parameters()])
            for cls in (nn.LSTMCell, nn.GRUCell, nn.RNNCell):
                m = cls(4, 5).to(dev, dtype)
                x = torch.randn(batch, 4, device=dev, dtype=dtype, requires_grad=True)
                h0 = torch.randn(batch, 5, device=dev, dtype=dtype, requires_grad=True)
                st = (h0, torch.randn(batch, 5, device=dev, dtype=dtype)) if cls is nn.LSTMCell else h0
                outs = []
                for _ in range(3):
                    st = m(x, st)
                    outs.append(st[0] if isinstance(st, tuple) else st)
                torch.stack(outs).cos().sum().backward()
                report(f"{dev} {dtype} B{batch} {cls.__name__}", outs[-1:], [x.grad, h0.grad] +
                       [p.grad for p in m.parameters()])
        torch.manual_seed(5)
        for cls in (nn.LSTM, nn.GRU, nn.RNN):
            m = cls(3, 4, bidirectional=True).to(dev, dtype)
            x = torch.randn(5, 3, 3, device=dev, dtype=dtype, requires_grad=True)
            y, h = m(pack_padded_sequence(x, torch.tensor([5, 3, 2])))
            hh = h[0] if isinstance(h, tuple) else h
            (y.data.sum() + hh.sum()).backward()
            report(f"{dev} {dtype} packed {cls.__name__}", [y.data, hh], [x.grad] + [p.grad for p in m.parameters()])
    # frozen weights (the state needs a gradient), no_grad, half (numpy path), a transposed state (numpy path)
    torch.manual_seed(7)
    m = nn.GRU(4, 5).to(dev)
    for p in m.parameters():
        p.requires_grad_(False)
    h0 = torch.randn(1, 2, 5, device=dev, requires_grad=True)
    y, _ = m(torch.randn(3, 2, 4, device=dev), h0)
    y.sum().backward()
    report(f"{dev} frozen GRU", [y], [h0.grad])
    with torch.no_grad():
        for cls in (nn.LSTM, nn.GRU, nn.RNN):
            y, _ = cls(4, 5).to(dev)(torch.randn(3, 2, 4, device=dev))
            report(f"{dev} no_grad {cls.__name__}", [y], [])
    for cls in (nn.LSTMCell, nn.GRUCell):
        m = cls(4, 6).to(dev, torch.float16)
        x = torch.randn(3, 4, device=dev, dtype=torch.float16, requires_grad=True)
        y = m(x)
        y = y[0] if isinstance(y, tuple) else y
        y.float().sum().backward()
        report(f"{dev} half {cls.__name__}", [y], [x.grad])
        m = cls(4, 6).to(dev)
        hx = torch.randn(6, 3, device=dev).t().requires_grad_()
        y = m(torch.randn(3, 4, device=dev), (hx, torch.randn(3, 6, device=dev)) if cls is nn.LSTMCell else hx)
        y = y[0] if isinstance(y, tuple) else y
        y.sum().backward()
        report(f"{dev} transposed state {cls.__name__}", [y], [hx.grad])
    # a half simple-cell layer: rnn_simple_step declines each step, simple_layer finishes it through numpy
    m = nn.RNN(4, 6).to(dev, torch.float16)
    x = torch.randn(3, 2, 4, device=dev, dtype=torch.float16, requires_grad=True)
    y, h = m(x)
    y.float().sum().backward()
    report(f"{dev} half RNN", [y, h], [x.grad] + [p.grad for p in m.parameters()])


def extra(dev):
    """The steps with their nodes in C++ (bindings_rnn_graph.cpp) in the cases around the plain ones: dropout between
    layers, double backward through the cells (create_graph: the backward functions' differentiable branch), a hook
    on a hidden state, an LSTM with projections (Python path) and virtual steps."""
    torch.manual_seed(11)
    for cls in (nn.LSTM, nn.GRU, nn.RNN):
        m = cls(3, 4, num_layers=3, dropout=0.5).to(dev)
        x = torch.randn(4, 2, 3, device=dev, requires_grad=True)
        y, h = m(x)
        y.sum().backward()
        report(f"{dev} dropout {cls.__name__}", [y], [x.grad] + [p.grad for p in m.parameters()])
    for cls in (nn.LSTMCell, nn.GRUCell, nn.RNNCell):
        m = cls(3, 4).to(dev, torch.float64)
        x = torch.randn(2, 3, device=dev, dtype=torch.float64, requires_grad=True)
        h0 = torch.randn(2, 4, device=dev, dtype=torch.float64, requires_grad=True)
        st = (h0, torch.randn(2, 4, device=dev, dtype=torch.float64)) if cls is nn.LSTMCell else h0
        seen = []
        for _ in range(2):
            st = m(x, st)
            hx = st[0] if isinstance(st, tuple) else st
            hx.register_hook(lambda g: seen.append(hexes(g)))
        gx, = torch.autograd.grad(hx.tanh().sum(), x, create_graph=True)
        gx.pow(2).sum().backward()
        report(f"{dev} double backward {cls.__name__}", [hx, gx], [x.grad, h0.grad] + [p.grad for p in m.parameters()])
        print("  hooks", seen)
    # float64 steps through numpy's own exp / tanh loops (numpy_loops.h): inputs from 1e-9 to 1e3 of both signs and
    # zeros (saturated and tiny gates), 7 rows of 13 (no multiple of a SIMD width)
    torch.manual_seed(13)
    scale = torch.tensor([1e-9, 1e-3, 3.0, 1e3], dtype=torch.float64, device=dev)
    for cls in (nn.LSTMCell, nn.GRUCell, nn.RNNCell):
        m = cls(4, 13).to(dev, torch.float64)
        x = torch.randn(7, 4, device=dev, dtype=torch.float64) * scale
        x[0] = 0
        x.requires_grad_()
        st = m(x)
        st = m(x * -0.5, st)
        hx = st[0] if isinstance(st, tuple) else st
        hx.sum().backward()
        report(f"{dev} float64 range {cls.__name__}", [hx], [x.grad] + [p.grad for p in m.parameters()])
    m = nn.LSTM(3, 4, proj_size=2).to(dev)
    x = torch.randn(3, 2, 3, device=dev, requires_grad=True)
    y, (h, cc) = m(x)
    (y.sum() + cc.sum()).backward()
    report(f"{dev} proj LSTM", [y, cc], [x.grad] + [p.grad for p in m.parameters()])
    import devicescope
    with devicescope.virtual_mode():
        for cls in (nn.LSTM, nn.GRU, nn.RNN):
            m = cls(3, 4).to(dev)
            y, _ = m(torch.empty(3, 2, 3, device=dev))
            y.sum().backward()
            print(f"{dev} virtual {cls.__name__}", tuple(y.shape), y.is_virtual, y.grad_fn.name(),
                  graph(y))


# "on" only when the steps build their nodes in C++ too (_G), so that a run that lost them fails
print("rnn kernels:", "off" if _rnn_cells._K is _rnn_cells._NumpyOnly else "on" if _rnn_cells._G is not None
      else "kernels without the C++ steps")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
extra("cuda")
extra("cpu")
snap = torch.cuda.memory._snapshot()
for i, trace in enumerate(snap["device_traces"]):
    events = [f"{e['action']}:{e['size']}" for e in trace if e["action"] in ("alloc", "free_requested", "free_completed")]
    print(f"device {i} trace: {len(events)} events")
    for k in range(0, len(events), 12):
        print("  ", " ".join(events[k:k + 12]))

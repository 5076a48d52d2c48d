# torch.addmm's C++ entry (engine/python/bindings_linalg_fast.cpp) against the Python path it stands in front of
# (DEVICESCOPE_PY_LINALG=1), through tests/tools/run_linalg_agreement.py: values to the last bit, AddmmBackward0 and
# every node reached from the outputs with what it saves, gradients, the cuBLAS / cuBLASLt workspaces held, and the
# allocator's trace (every alloc and free, sizes in order). Cases: nn.Linear on the CPU and on a simulated GPU (2-D
# and 3-D input, float32 and float64, frozen weight, input that wants a gradient, no bias, no_grad), torch.addmm
# with a full-size input, a transposed mat1 (its gradient computed transposed), mat2 of one row (no cuBLASLt),
# keywords (the Python path either way), a second stream and a second device (new workspaces), a backward on the
# autograd engine's device thread, another Python thread, create_graph (the differentiable formulas), a non-contiguous gradient, and an
# RNN cell step (the cells call addmm themselves).
import threading

import torch
from torch import nn


def hexes(t):
    return " ".join(float(v).hex() for v in t.detach().double().reshape(-1).tolist())


def describe(fn, names):
    parts = [type(fn).__name__]
    for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        v = getattr(fn, attr)
        if isinstance(v, torch.Tensor):
            parts.append(f"{attr[7:]}={names.get(id(v), 'other')}{tuple(v.shape)}/{v.stride()}")
        else:
            parts.append(f"{attr[7:]}={v!r}")
    nexts = []
    for n, nr in fn.next_functions:
        nexts.append("None" if n is None else f"{type(n).__name__}:{nr}")
    return " ".join(parts) + " next=[" + ", ".join(nexts) + "]"


def graph_lines(t, names):
    out, seen, todo = [], set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        out.append("    " + describe(fn, names))
        todo.extend(n for n, _ in fn.next_functions)
    return out


def allocated():
    return [torch.cuda.memory_allocated(i) for i in range(torch.cuda.device_count())]


def show(label, y, leaves, names, grad=None):
    print(f"{label}: {tuple(y.shape)} {y.dtype} {y.stride()} {hexes(y)} alloc={allocated()}")
    if y.grad_fn is None:
        print("    no grad_fn")
        return
    for line in graph_lines(y, names):
        print(line)
    for t in leaves:
        t.grad = None
    y.backward(torch.ones_like(y) * 0.5 if grad is None else grad)
    for n, t in names_of(leaves, names):
        if t.grad is not None:
            print(f"    {n}.grad {tuple(t.grad.shape)} {t.grad.stride()} {hexes(t.grad)}")
    print(f"    after backward alloc={allocated()} held={sorted(torch._blas_workspace.held())}")


def names_of(leaves, names):
    return [(names[id(t)], t) for t in leaves]


print("linalg fast path:", "on" if type(torch.addmm).__name__ == "builtin_function_or_method" else "off")
torch.cuda.memory._record_memory_history(max_entries=100000)
for dev in ("cpu", "cuda:0"):
    torch.manual_seed(0)
    lin = nn.Linear(5, 3).to(dev)
    x = torch.randn(4, 5, device=dev)
    xg = torch.randn(4, 5, device=dev, requires_grad=True)
    x3 = torch.randn(2, 4, 5, device=dev)
    names = {id(lin.weight): "weight", id(lin.bias): "bias", id(x): "x", id(xg): "xg", id(x3): "x3"}
    leaves = [lin.weight, lin.bias, xg]
    show(f"{dev} linear 2-D", lin(x), leaves, names)
    show(f"{dev} linear input grad", lin(xg), leaves, names)
    show(f"{dev} linear 3-D", lin(x3), leaves, names)
    lin.weight.requires_grad_(False)
    show(f"{dev} frozen weight", lin(xg), leaves, names)
    lin.weight.requires_grad_(True)
    with torch.no_grad():
        show(f"{dev} no_grad", lin(x), leaves, names)
    lin64 = nn.Linear(5, 3).to(dev).double()
    names.update({id(lin64.weight): "w64", id(lin64.bias): "b64"})
    show(f"{dev} float64", lin64(x.double()), [lin64.weight, lin64.bias], names)
    # one output feature: the bias is one value filled down the column (pytorch_with_examples' Linear(3, 1))
    lin1 = nn.Linear(5, 1).to(dev)
    lin1d = nn.Linear(5, 1).to(dev).double()
    names.update({id(lin1.weight): "w1", id(lin1.bias): "b1", id(lin1d.weight): "w1d", id(lin1d.bias): "b1d"})
    show(f"{dev} one output", lin1(xg), [lin1.weight, lin1.bias, xg], names)
    show(f"{dev} one output float64", lin1d(x.double()), [lin1d.weight, lin1d.bias], names)
    full = torch.randn(4, 3, device=dev, requires_grad=True)
    m1 = torch.randn(5, 4, device=dev, requires_grad=True)  # used as m1.t(): column-major
    m2 = torch.randn(5, 3, device=dev, requires_grad=True)
    row = torch.randn(1, 3, device=dev, requires_grad=True)
    names.update({id(full): "full", id(m1): "m1", id(m2): "m2", id(row): "row"})
    mats = [full, m1, m2, row, lin.bias]
    show(f"{dev} addmm full input", torch.addmm(full, m1.t(), m2), mats, names)
    show(f"{dev} addmm one-row mat2", torch.addmm(lin.bias, m1.t()[:, :1], row), mats, names)
    show(f"{dev} addmm beta=2", torch.addmm(full, m1.t(), m2, beta=2), mats, names)
    show(f"{dev} addmm alpha kw", torch.addmm(lin.bias, m1.t(), m2, alpha=1), mats, names)
    show(f"{dev} Tensor.addmm", lin.bias.addmm(m1.t(), m2), mats, names)
    show(f"{dev} strided grad", torch.addmm(lin.bias, m1.t(), m2), mats, names,
         grad=torch.ones(3, 4, device=dev).t())
    y = torch.addmm(lin.bias, xg, lin.weight.t())
    gx, = torch.autograd.grad(y.pow(2).sum(), xg, create_graph=True)
    print(f"{dev} create_graph: {hexes(gx)}")
    for line in graph_lines(gx, names):
        print(line)
    gx.sum().backward()
    print(f"    weight.grad {hexes(lin.weight.grad)} bias.grad {lin.bias.grad}")
    lin.weight.grad = lin.bias.grad = None
    cell = nn.RNNCell(5, 3).to(dev)
    h = cell(x, torch.zeros(4, 3, device=dev))
    names.update({id(cell.weight_hh): "w_hh", id(cell.bias_hh): "b_hh", id(cell.weight_ih): "w_ih",
                  id(cell.bias_ih): "b_ih"})
    show(f"{dev} rnn cell", cell(x, h.detach()), [cell.weight_hh, cell.bias_hh, cell.weight_ih, cell.bias_ih], names)
    if dev != "cpu":
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            show(f"{dev} side stream", lin(x), leaves, names)
        lin1 = nn.Linear(5, 3).to("cuda:1")
        names.update({id(lin1.weight): "w1", id(lin1.bias): "b1"})
        show("cuda:1 linear", lin1(x.to("cuda:1")), [lin1.weight, lin1.bias], names)
        torch._C._cuda_clearCublasWorkspaces()
        show(f"{dev} after clear", lin(x), leaves, names)
        # another Python thread: its own cuBLAS handle, so its own workspace, given back to the pool when it ends
        worker = threading.Thread(target=lambda: show(f"{dev} thread", lin(x), leaves, names))
        worker.start()
        worker.join()
        show(f"{dev} after thread", lin(x), leaves, names)
    empty = torch.addmm(lin.bias, torch.randn(0, 5, device=dev), lin.weight.t())
    print(f"{dev} empty: {tuple(empty.shape)} alloc={allocated()}")
    try:
        torch.addmm(lin.bias, x, lin.weight)
    except RuntimeError as e:
        print(f"{dev} shape error: {e}")

snap = torch.cuda.memory._snapshot()
for i, trace in enumerate(snap["device_traces"]):
    events = [f"{e['action']}:{e['size']}" for e in trace if e["action"] in ("alloc", "free_requested", "free_completed")]
    print(f"device {i} trace: {len(events)} events")
    for k in range(0, len(events), 12):
        print("   ", " ".join(events[k:k + 12]))

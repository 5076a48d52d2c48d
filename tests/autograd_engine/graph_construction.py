# What graph construction builds, printed so that the C++ attach / attach_edges / edge_of
# (bindings_autograd_graph.cpp) and the Python reference (DEVICESCOPE_PY_AUTOGRAD=1: graph.py's _attach_py & co.)
# can be held to the same output by tests/tools/run_autograd_engine_agreement.py: node classes and names,
# next_functions (node names, output numbers, AccumulateGrad's variable), the `_saved_<name>` attributes (tensors,
# a saved output as a new tensor whose grad_fn is the node, lists of tensors, wrapped numbers, plain values), the
# version-counter error for a saved input and a saved output, the saved tensors freed by backward, the leaf's
# cached AccumulateGrad, the order of sequence numbers, a non-tensor input's error, checkpoint's attach hook, and
# the allocator's trace of it all.
import torch
import torch.nn as nn
import torch.utils.checkpoint as checkpoint
from torch.autograd import graph

print("engine:", "python" if graph._PY_ENGINE else "C++")


def hexes(t):
    return "None" if t is None else " ".join(float(v).hex() for v in t.detach().reshape(-1).tolist())


def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__, str(e)[:300])


def describe(fn, depth=0, seen=None):
    """The graph below fn: names, output numbers, leaves' shapes (ids vary between runs, so they are not shown)."""
    seen = set() if seen is None else seen
    if fn is None:
        print("  " * depth + "None")
        return
    tag = type(fn).__name__ + ("(seen)" if id(fn) in seen else "")
    if isinstance(fn, graph.AccumulateGrad):
        tag += f" variable {tuple(fn.variable.shape)}"
    print("  " * depth + tag, "metadata", fn.metadata)
    if id(fn) in seen:
        return
    seen.add(id(fn))
    for n, nr in fn.next_functions:
        print("  " * (depth + 1) + f"nr {nr}:")
        describe(n, depth + 2, seen)


def saved(node, *names):
    for n in names:
        try:
            v = getattr(node, "_saved_" + n)
        except Exception as e:
            print(" ", n, type(e).__name__, str(e)[:120])
            continue
        if isinstance(v, torch.Tensor):
            gf = type(v.grad_fn).__name__ if v.grad_fn is not None else None
            print(" ", n, "tensor", tuple(v.shape), v.dtype, "grad_fn", gf, "is node", v.grad_fn is node, hexes(v))
        elif isinstance(v, tuple) and v and isinstance(v[0], torch.Tensor):
            print(" ", n, "tensors", [tuple(t.shape) if isinstance(t, torch.Tensor) else t for t in v])
        else:
            print(" ", n, repr(v))


def run(dev):
    torch.manual_seed(0)
    x = torch.randn(3, 4, device=dev, requires_grad=True)
    w = torch.randn(4, 2, device=dev, requires_grad=True)
    h = (x * 2.0 + 1).relu()
    y = h @ w
    e = y.exp()
    s = e.sum()
    describe(s.grad_fn)
    print(dev, "leaf node cached:", x.grad_fn is None, h.grad_fn.next_functions[0][0].next_functions[0][0]
          .next_functions[0][0] is (x * 3).grad_fn.next_functions[0][0])
    print(dev, "seq order:", e.grad_fn._seq > y.grad_fn._seq > h.grad_fn._seq)
    print(dev, "mul saved:", sorted(n for n in dir(h.grad_fn.next_functions[0][0].next_functions[0][0])
                                    if n.startswith("_saved_")))
    saved(h.grad_fn.next_functions[0][0].next_functions[0][0], "self", "other")
    saved(h.grad_fn, "result")
    saved(y.grad_fn, "self", "mat2", "self_sym_sizes")
    saved(e.grad_fn, "result")
    saved(s.grad_fn, "self_sym_sizes")
    idx = torch.tensor([2, 0], device=dev)
    z = x[idx, idx]
    saved(z.grad_fn, "indices", "self_sym_sizes")
    parts = x.unbind(1)
    print(dev, "unbind outputs", [p.output_nr for p in parts], type(parts[0].grad_fn).__name__,
          parts[0].grad_fn is parts[3].grad_fn)
    saved(parts[0].grad_fn, "dim")
    s.backward(retain_graph=True)
    print(dev, "grads", hexes(x.grad), hexes(w.grad))
    s.backward()
    saved(e.grad_fn, "result")
    saved(y.grad_fn, "self", "self_sym_sizes")
    # version-counter errors: a saved input and a saved output changed in place
    a = torch.randn(5, device=dev, requires_grad=True)
    b = a * 1
    c = b * b
    b.add_(1)
    attempt(dev + " saved input", lambda: c.sum().backward())
    d = a.sigmoid()
    d.mul_(2)
    attempt(dev + " saved output", lambda: d.sum().backward())
    # attach called directly, with keyword arguments, and a non-tensor input
    p = torch.randn(2, device=dev, requires_grad=True)
    out = p.detach() * 3
    node = graph.attach("MyBackward", [out, None], [p, None], lambda gs: (gs[0] * 3, None),
                        saved={"self": p, "result": out, "k": graph.Wrapped(3), "dims": (0,), "none": None,
                               "pair": [p, 1]})
    print(dev, "attach node", type(node).__name__, node._noutputs, node.next_functions[1], out.grad_fn is node)
    saved(node, "self", "result", "k", "dims", "none", "pair")
    out.sum().backward()
    print(dev, "attach grad", hexes(p.grad))
    q = p.detach()
    n2 = graph.attach_edges(name="ListBackward", outputs=[q], edges=(graph.edge_of(p),), fn=lambda gs: gs,
                            saved=[p])
    print(dev, "list saved", n2._saved is not None, n2._names, type(n2).__name__)
    attempt(dev + " non-tensor input", lambda: graph.attach("BadBackward", [p.detach()], [3], lambda gs: gs))
    attempt(dev + " edge_of None", lambda: graph.edge_of(None))
    attempt(dev + " edge_of detached", lambda: graph.edge_of(p.detach()))
    # checkpoint's attach hook sees every node made in its frame
    lin = nn.Linear(4, 4).to(dev)
    xin = torch.randn(2, 4, device=dev, requires_grad=True)
    outc = checkpoint.checkpoint(lambda t: lin(t).tanh() * 2, xin, use_reentrant=False)
    outc.sum().backward()
    print(dev, "checkpoint grads", hexes(xin.grad), hexes(lin.weight.grad))


torch.cuda.memory._record_memory_history(max_entries=200000)
for dev in ("cpu", "cuda"):
    run(dev)
snap = torch.cuda.memory._snapshot()
for i, trace in enumerate(snap["device_traces"]):
    blocks = {}  # addresses by first use: the simulated device's base address changes from run to run
    events = [f"{e['action']}:b{blocks.setdefault(e['addr'], len(blocks))}:{e['size']}" for e in trace
              if e["action"] in ("alloc", "free_requested", "free_completed")]
    print(f"device {i} trace: {len(events)} events")
    for k in range(0, len(events), 8):
        print("  " + " ".join(events[k:k + 8]))

# F.embedding's direct EmbeddingBackward0 (nn/_functional_embedding.py: embedding_dense_backward) against the
# composite it replaced (DEVICESCOPE_PY_COMPOSITE=1: index_select recomputed under grad mode in backward), through
# tests/tools/run_composite_backward_agreement.py: gradients to the last bit, node names, saved values, the
# allocator trace. Repeated indices, padding_idx, scale_grad_by_freq (counts 1, 2 and 4: 1/count is exact, so the
# reference's division and PyTorch's multiplication agree), non-contiguous gradients, max_norm, index_select's
# own backward (IndexSelectBackward0, whose accumulation add_rows now does), int32 and empty indices and
# errors.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import _composite
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def node(tag, y):
    """The node and its saved values (before backward frees the indices)."""
    fn = y.grad_fn
    print(tag, type(fn).__name__, [type(n).__name__ for n, _ in fn.next_functions], tuple(y.shape), y.is_contiguous(),
          y._base is None, tuple(fn._saved_indices.shape), fn._saved_indices.data_ptr() == fn._saved_indices.data_ptr(),
          fn._saved_padding_idx, fn._saved_scale_grad_by_freq, fn._saved_sparse, fn._saved_weight_sym_argsize_0,
          hexes(y))


def show(y, w):
    print("   grad", hexes(w.grad))


def run(dev):
    torch.manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        w = torch.randn(9, 5, device=dev, dtype=dtype, requires_grad=True)
        idx = torch.tensor([[1, 4, 4, 0], [4, 8, 4, 1]], device=dev)
        for kw in ({}, {"padding_idx": 4}, {"padding_idx": -1}, {"scale_grad_by_freq": True},
                   {"padding_idx": 1, "scale_grad_by_freq": True}, {"sparse": False}):
            w.grad = None
            y = F.embedding(idx, w, **kw)
            node(f"{dev} {dtype} {sorted(kw.items())}", y)
            y.backward(torch.linspace(-2, 3, y.numel(), device=dev, dtype=dtype).reshape(y.shape))
            show(y, w)
        # 1-D indices, many repeats (the rounds of add_rows), a big row count
        big = torch.randn(50, 64, device=dev, dtype=dtype, requires_grad=True)
        ix = torch.randint(0, 7, (300,), device=dev)
        y = F.embedding(ix, big)
        node(f"{dev} {dtype} repeats", y)
        y.backward(torch.randn(300, 64, device=dev, dtype=dtype))
        show(y, big)
        # index_select's own backward, along dims 0 and 1
        for d in (0, 1):
            x = torch.randn(20, 30, device=dev, dtype=dtype, requires_grad=True)
            i = torch.randint(0, 20, (200,), device=dev)
            z = torch.index_select(x, d, i)
            z.backward(torch.randn(z.shape, device=dev, dtype=dtype))
            print(dev, dtype, "index_select dim", d, type(z.grad_fn).__name__, hexes(x.grad))
    # indices the direct path's lookup (_lookup) takes without index_select: int32, none at all
    for tag, ix in (("int32", idx.to(torch.int32)), ("empty", idx[:, :0])):
        w.grad = None
        y = F.embedding(ix, w)
        node(f"{dev} {tag}", y)
        y.backward(torch.linspace(-2, 3, y.numel(), device=dev, dtype=w.dtype).reshape(y.shape))
        show(y, w)
    # the nn.Embedding module, with max_norm (rows renormed in place before the lookup)
    emb = nn.Embedding(10, 3, max_norm=1.0).to(dev)
    y = emb(torch.tensor([[2, 3], [3, 9]], device=dev))
    node(f"{dev} module max_norm", y)
    y.sum().backward()
    show(y, emb.weight)
    # no grad: no node
    with torch.no_grad():
        print(dev, "no_grad", F.embedding(idx, w).grad_fn)
    # errors: float indices, out of range, saved indices modified in place, a second backward
    for bad in (torch.tensor([1.0], device=dev), torch.tensor([9], device=dev)):
        try:
            F.embedding(bad, w)
        except Exception as e:  # noqa: BLE001 - the message is what is compared
            print(dev, "error:", type(e).__name__, str(e).splitlines()[0][:120])
    ii = torch.tensor([1, 2], device=dev)
    y = F.embedding(ii, w)
    ii.add_(1)
    try:
        y.sum().backward()
    except RuntimeError as e:
        print(dev, "version:", str(e)[:160])
    y = F.embedding(torch.tensor([1, 2], device=dev), w)
    y.sum().backward()
    try:
        y.sum().backward()
    except RuntimeError as e:
        print(dev, "twice:", str(e)[:60])
    print(dev, "saved after backward:", y.grad_fn._saved_padding_idx)


def transposed(dev, dtype):
    """A gradient that arrives transposed: embedding_dense_backward makes a contiguous copy of it (after
    grad_weight on the CPU, before it on CUDA), which the reference's recomputation does not. Values compared;
    the direct path's allocations checked here (they differ from the reference's by that copy)."""
    torch.manual_seed(0)
    w = torch.randn(9, 5, device=dev, dtype=dtype, requires_grad=True)
    y = F.embedding(torch.tensor([[1, 4, 4, 0], [4, 8, 4, 1]], device=dev), w)
    node(f"{dev} {dtype} transposed grad", y)
    g = (torch.arange(40.0, device=dev, dtype=dtype).reshape(4, 2, 5)).transpose(0, 1)
    torch.cuda.memory._record_memory_history(max_entries=1000)
    y.backward(g)
    trace = torch.cuda.memory._snapshot()["device_traces"][0]
    torch.cuda.memory._record_memory_history(enabled=None)
    show(y, w)
    if dev == "cuda" and not _composite.REFERENCE:
        sizes = [e["size"] for e in trace if e["action"] == "alloc"]
        item = dtype.itemsize
        assert sizes[-2:] == [40 * item, 45 * item], sizes  # grad.contiguous(), then grad_weight


print("composite:", "reference" if _composite.REFERENCE else "direct")
for d in ("cuda", "cpu"):
    for t in (torch.float32, torch.float64):
        transposed(d, t)
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()

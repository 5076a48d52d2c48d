# The row accumulation of embedding's and index_select's backward (torch/_ops/_scatter_rows.py add_rows) in
# C++ (bindings_scatter_rows.cpp) and in numpy (DEVICESCOPE_NO_FAST_OPS=1): out[index[i]] += rows[i] in index
# order, rounded in the gradient's dtype after each add. Indices repeated a few times and many times (a padding
# token), negative indices (index_select), padding_idx, scale_grad_by_freq (wider rows: numpy either way),
# float64, a non-contiguous gradient, an empty index, on a simulated GPU and on the CPU. Prints gradients to the
# last bit and the allocator's trace; tests/tools/run_fast_path_agreement.py wants the same output both ways.
import torch
import torch.nn.functional as F
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def run(dev):
    torch.manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        w = torch.randn(10, 6, device=dev, dtype=dtype, requires_grad=True)
        idx = torch.tensor([[1, 3, 3, 0, 9], [3, 3, 3, 3, 2], [0, 0, 7, 3, 3]], device=dev)
        for kw in ({}, {"padding_idx": 3}, {"scale_grad_by_freq": True}, {"padding_idx": 0, "scale_grad_by_freq": True}):
            w.grad = None
            out = F.embedding(idx, w, **kw)
            g = torch.randn(out.shape, device=dev, dtype=dtype) * 1e3
            out.backward(g)
            print(dev, dtype, kw, type(out.grad_fn).__name__, hexes(w.grad))
        # many rows into few (the numpy version's group-by-group branch), a transposed gradient
        w.grad = None
        many = torch.randint(0, 3, (40, 12), device=dev)
        out = F.embedding(many, w)
        g = torch.randn(6, 12, 40, device=dev, dtype=dtype).permute(2, 1, 0)
        out.backward(g)
        print(dev, dtype, "many", hexes(w.grad))
        # a column of a batch-first index (a strided index, as a decoder's teacher forcing feeds it)
        w.grad = None
        cols = torch.tensor([[1, 3, 3, 0, 9], [3, 3, 3, 3, 2], [0, 0, 7, 3, 3]], device=dev)
        out = F.embedding(cols[:, 3].unsqueeze(1), w)
        out.backward(torch.randn(out.shape, device=dev, dtype=dtype))
        print(dev, dtype, "strided index", hexes(w.grad))
        # index_select's backward, repeated rows included (a negative index is refused, as PyTorch's "index out of
        # range in self")
        w.grad = None
        sel = torch.index_select(w, 0, torch.tensor([9, 2, 9, 2, 2, 0], device=dev))
        (sel * torch.arange(36.0, device=dev, dtype=dtype).view(6, 6)).sum().backward()
        print(dev, dtype, "index_select", hexes(w.grad))
        # no index at all
        w.grad = None
        F.embedding(torch.zeros(0, dtype=torch.long, device=dev), w).sum().backward()
        print(dev, dtype, "empty", hexes(w.grad))
    # signed zeros and cancellations: the order of the adds shows in the bits
    w = torch.zeros(4, 3, device=dev, requires_grad=True)
    out = F.embedding(torch.tensor([2, 2, 2, 1], device=dev), w)
    out.backward(torch.tensor([[1e8, -0.0, 3.0], [1.0, -0.0, -3.0], [-1e8, -0.0, 1e-8], [-0.0, 0.0, -0.0]],
                              device=dev))
    print(dev, "zeros", hexes(w.grad))


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()

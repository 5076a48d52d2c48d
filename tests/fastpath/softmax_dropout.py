# The transformer path's C++ kernels (bindings_transformer.cpp: softmax over the last dim forward and backward,
# CUDA dropout's mask and output and its backward) against the numpy path they replace (DEVICESCOPE_NO_FAST_OPS=1),
# through tests/tools/run_fast_path_agreement.py: values to the last bit, grad_fn names and saved tensors, versions,
# and the allocator trace. Rows with -inf (masked attention), all -inf, nan and inf; other dims and dtypes, which
# stay on numpy; transposed float32 matrices (dim 1: the kernel's column-major read); a whole nn.Transformer
# training step with dropout.
import torch
import torch.nn.functional as F
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import print_allocator_trace  # noqa: E402


def hexes(t):
    return " ".join(float(v).hex() for v in t.detach().double().reshape(-1).tolist())


def run(dev):
    torch.manual_seed(5)
    ninf, nan, inf = float("-inf"), float("nan"), float("inf")
    for dtype in (torch.float32, torch.float64):
        x = (torch.randn(3, 4, 9, device=dev, dtype=dtype) * 4).requires_grad_()
        special = torch.tensor([[ninf, 0.5, ninf, 1.0, 2.0, ninf, 0.0, 3.0, -1.0], [ninf] * 9, [nan] + [1.0] * 8,
                                [inf] + [1.0] * 8], device=dev, dtype=dtype)
        for src in (x, special):
            for dim in range(-1, src.dim()):
                y = torch.softmax(src * 1.0, dim=dim)
                fn = y.grad_fn
                print(dev, dtype, dim, hexes(y), y.stride(), fn and type(fn).__name__, fn and fn._saved_dim,
                      fn and (fn._saved_result.shape, fn._saved_result.stride()))
                if src is x:
                    x.grad = None
                    y.backward(torch.linspace(-2, 3, y.numel(), device=dev, dtype=dtype).reshape(y.shape))
                    print("   grad", hexes(x.grad))
        with torch.no_grad():
            print(dev, dtype, "no_grad", hexes(F.softmax(x, -1)), F.softmax(x, -1).grad_fn)
        # dropout (CUDA: the fused kernel's mask and output; the CPU's bernoulli noise is not touched)
        for p in (0.1, 0.5, 0.9):
            torch.manual_seed(7)
            z = torch.randn(5, 6, device=dev, dtype=dtype, requires_grad=True)
            d = F.dropout(z * 1.0, p, True)
            fn = d.grad_fn
            saved = [fn._saved_result1, fn._saved_p] if type(fn).__name__ == "NativeDropoutBackward0" else []
            print(dev, dtype, p, hexes(d), type(fn).__name__, [hexes(s) if isinstance(s, torch.Tensor) else s for s in saved],
                  [s.dtype for s in saved if isinstance(s, torch.Tensor)])
            d.backward(torch.linspace(-1, 1, 30, device=dev, dtype=dtype).reshape(5, 6))
            print("   grad", hexes(z.grad))
        with torch.no_grad():
            torch.manual_seed(8)
            print(dev, dtype, "dropout no_grad", hexes(F.dropout(x, 0.3, True)))
        t = torch.randn(4, 6, device=dev, dtype=dtype).t()  # a transposed input: numpy
        print(dev, dtype, "dropout transposed", hexes(F.dropout(t, 0.2, True)), hexes(torch.softmax(t, -1)))
        # softmax(dim=1) of a transposed float32 matrix (Luong attention's energies.t()): the C++ kernel reads it
        # column by column and sums each row left to right as numpy does; rows long enough (> 8) that numpy's
        # pairwise order would differ, wide value ranges, -inf/nan/inf rows, single rows and columns, slices
        for rows, cols in ((16, 10), (5, 37), (3, 200), (1, 12), (12, 1)):
            src = (torch.randn(cols, rows, device=dev, dtype=dtype) * 6).requires_grad_()
            tt = (src * 1.0).t()
            y = F.softmax(tt, dim=1)
            fn = y.grad_fn
            print(dev, dtype, "softmax transposed", rows, cols, hexes(y), y.stride(), type(fn).__name__,
                  fn._saved_dim, fn._saved_result.stride())
            y.backward(torch.linspace(-2, 3, y.numel(), device=dev, dtype=dtype).reshape(y.shape))
            print("   grad", hexes(src.grad))
        sp = torch.tensor([[ninf, 0.5, ninf, 1.0, 2.0, ninf, 0.0, 3.0, -1.0, 4.0], [ninf] * 10, [nan] + [1.0] * 9,
                           [inf] + [1.0] * 9], device=dev, dtype=dtype)
        sq = sp.t().contiguous()
        print(dev, dtype, "softmax transposed special", hexes(F.softmax(sq.t(), 1)), hexes(F.softmax(sq.t(), -1)),
              hexes(F.softmax(sq.t(), 0)), hexes(F.softmax(sq[2:].t(), 1)), hexes(F.softmax(sq[:, :3].t(), 1)))
        with torch.no_grad():
            e = torch.randn(10, 16, device=dev, dtype=dtype)
            print(dev, dtype, "softmax transposed no_grad", hexes(F.softmax(e.t(), dim=1).unsqueeze(1)))
    # a transformer training step (attention weights' softmax, dropout everywhere) and an eval pass
    torch.manual_seed(11)
    m = torch.nn.Transformer(16, 2, 1, 1, 32).to(dev)
    src, tgt = torch.randn(5, 3, 16, device=dev), torch.randn(4, 3, 16, device=dev)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(4, device=dev)
    pad = torch.zeros(3, 5, dtype=torch.bool, device=dev)
    pad[:, 4:] = True
    out = m(src, tgt, tgt_mask=mask, src_key_padding_mask=pad, memory_key_padding_mask=pad)
    out.sum().backward()
    print(dev, "transformer", hexes(out), [hexes(p.grad) for p in list(m.parameters())[:4]])
    m.eval()
    with torch.no_grad():
        print(dev, "transformer eval", hexes(m(src, tgt, tgt_mask=mask)))


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()

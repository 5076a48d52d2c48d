# The C++ fast path of `tensor op number` for two layouts the attention masks meet (translation_transformer's
# generate_square_subsequent_mask: `(triu(ones) == 1).transpose(0, 1)`, then `mask == 0`, `mask.float()`):
#  - a lone tensor that is a permutation of a contiguous layout but not row-major (a transposed matrix, a permuted
#    3-D tensor): the result takes its strides (make_pointwise / make_strided's block of numel elements);
#  - a bool tensor compared with a Python int (the Python path promotes it to int64; 0 and 1 compare as they are).
# The Python path must give the same values, dtype, strides, version, grad_fn, gradients and allocator trace. Also
# the forms that stay on the Python path either way (size-1 dims with other strides, overlapping or gapped
# strides, two tensors one of them strided, in place on a transposed self, bool compared with a float or a bool).
# tests/tools/run_fast_path_agreement.py runs it with and without the fast path and wants the same output.
import torch
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def line(label, y, dev):
    fn = y.grad_fn
    node = "None" if fn is None else type(fn).__name__
    print(f"{dev} {label}: {tuple(y.shape)} {y.stride()} {y.dtype} v{y._version} base={y._base is not None} "
          f"{node} {hexes(y)}")


def run(dev):
    torch.manual_seed(0)
    tri = (torch.triu(torch.ones((5, 5), device=dev)) == 1).transpose(0, 1)  # bool, strides (1, 5)
    row = torch.tensor([True, False, True, True], device=dev)
    x = torch.randn(4, 6, device=dev).t()  # float32, strides (1, 6)
    p = torch.randn(2, 3, 4, device=dev).permute(2, 0, 1)  # strides (1, 12, 4)
    i = torch.arange(12, device=dev).reshape(3, 4).t()  # int64, strides (1, 4)
    w = torch.randn(3, 5, device=dev, requires_grad=True)
    col = torch.randn(4, 1, device=dev).t()  # size-1 dim with strides (1, 1)
    gap = torch.randn(4, 8, device=dev)[:, ::2]
    cases = [
        ("tri == 0", lambda: tri == 0), ("tri == 1", lambda: tri == 1), ("tri != 1", lambda: tri != 1),
        ("tri < 1", lambda: tri < 1), ("tri <= 0", lambda: tri <= 0), ("tri > 0", lambda: tri > 0),
        ("tri >= 2", lambda: tri >= 2), ("tri == -3", lambda: tri == -3), ("0 == tri", lambda: 0 == tri),
        ("1 > tri", lambda: 1 > tri), ("row == 0", lambda: row == 0), ("row.ne(1)", lambda: row.ne(1)),
        ("row < 2**40", lambda: row < 2 ** 40),
        ("x * 2.5", lambda: x * 2.5), ("x + 1", lambda: x + 1), ("x - 0.5", lambda: x - 0.5), ("3 - x", lambda: 3 - x),
        ("x / 3", lambda: x / 3), ("x > 0", lambda: x > 0), ("x == 0.5", lambda: x == 0.5),
        ("p * 2", lambda: p * 2), ("p < 0", lambda: p < 0), ("i * 3", lambda: i * 3), ("i == 5", lambda: i == 5),
        ("w.t() * 2 (grad)", lambda: w.t() * 2), ("w.t() + 1 (grad)", lambda: w.t() + 1),
        ("tri.float()", lambda: tri.float()),
        # the Python path's either way
        ("tri == 0.0", lambda: tri == 0.0), ("tri == True", lambda: tri == True),  # noqa: E712
        ("col * 2 (size-1 dim)", lambda: col * 2), ("col.relu() (size-1 dim: row-major either way)", lambda: col.relu()),
        ("gap * 2 (gapped)", lambda: gap * 2),
        ("x * x.t().t() (two tensors)", lambda: x * x.t().t()), ("tri & (tri == 0)", lambda: tri & (tri == 0)),
    ]
    for label, fn in cases:
        w.grad = None
        before = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
        y = fn()
        after = torch.cuda.memory_allocated(0) if dev != "cpu" else 0
        line(label, y, dev)
        print(f"   +{after - before}B")
        if y.requires_grad:
            (y * 1.5).sum().backward()
            print("   w.grad", hexes(w.grad))
    t = torch.randn(3, 4, device=dev).t()
    t.mul_(2)  # in place on a transposed self: Python's either way
    line("t.mul_(2)", t, dev)
    # the mask of the tutorial, end to end
    mask = (torch.triu(torch.ones((6, 6), device=dev)) == 1).transpose(0, 1)
    mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
    line("square subsequent mask", mask, dev)
    try:
        tri - 1
    except RuntimeError as e:
        print(dev, "bool - 1:", str(e)[:80])


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()

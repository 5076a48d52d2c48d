# tanh / exp / sigmoid of float32 tensors past the libm loops' sizes (bindings_ops.cpp: above 2048 / 4096 / 16384
# elements they run numpy's own float64 loops through numpy_loops.h, fast_op_kernels.h numpy_unary_f32), on a
# simulated GPU and on the CPU: values to the last bit (special values spread through the tensor: +-0, tiny, huge,
# +-inf, NaN, the float32 exp overflow edge), grad_fn and gradients while autograd records, the in-place forms
# without it, and the allocator's trace. tests/tools/run_fast_path_agreement.py runs it with and without the fast
# path (DEVICESCOPE_NO_FAST_OPS=1, the numpy path) and wants the same output.
import hashlib
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import hexes, print_allocator_trace  # noqa: E402


def digest(t):
    return hashlib.sha256(hexes(t).encode()).hexdigest()[:24]


def run(dev):
    torch.manual_seed(0)
    special = torch.tensor([0.0, -0.0, 1e-30, -1e-30, 1e-8, 20.0, -20.0, 88.7, 88.8, -103.9, -104.0, 1e30, -1e30,
                            float("inf"), float("-inf"), float("nan")])
    for n in (2049, 4097, 16385, 40000):
        x = torch.randn(n) * 6
        x[::997][:special.numel()] = special[:x[::997].numel()]
        x = x.to(dev)
        for name in ("tanh", "exp", "sigmoid"):
            y = getattr(torch, name)(x)
            print(dev, n, name, digest(y), hexes(y[:20]))
            z = x.clone()
            getattr(z, name + "_")()
            print(dev, n, name + "_", digest(z), z.equal(y) or name)
        w = x.detach().clone().requires_grad_()
        for name in ("tanh", "exp", "sigmoid"):
            y = getattr(w, name)()
            fn = y.grad_fn
            print(dev, n, name, "grad", type(fn).__name__, fn._saved_result.equal(y), digest(y))
            (y.nan_to_num(0.0, 0.0, 0.0) * 0.5).sum().backward()
            print(dev, n, name, "x.grad", digest(w.grad))
            w.grad = None
    # a 3-D attention-sized tanh (seq2seq's Bahdanau score: [16, 10, 64])
    q = torch.randn(16, 1, 64, device=dev, requires_grad=True)
    k = torch.randn(16, 10, 64, device=dev, requires_grad=True)
    s = torch.tanh(q + k)
    s.sum().backward()
    print(dev, "attention tanh", digest(s), digest(q.grad), digest(k.grad), s.stride())


print("fast path:", "off" if type(torch.Tensor.__dict__["__add__"]).__name__ == "function" else "on")
torch.cuda.memory._record_memory_history(max_entries=100000)
run("cuda")
run("cpu")
print_allocator_trace()

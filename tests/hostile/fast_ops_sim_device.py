# hostile: the C++ elementwise fast path (a + b, add_, relu, -x) on a small simulated GPU: results are
# allocated through the engine (memory_allocated counts them), running out is torch.cuda.OutOfMemoryError,
# in-place ops allocate nothing, virtual tensors give virtual results (the Python path: shape-only) whose values
# cannot be read, device mismatches raise PyTorch's errors, values match.
# args: --sim-memory 64MiB --sim-devices 2
# expect-exit: 0
# expect-stdout: sum 2.0 3.0 relu 0.0 neg -2.0
# expect-stdout: allocated after a + b: 50331648
# expect-stdout: in place allocated nothing: True version +3
# expect-stdout: OutOfMemoryError CUDA out of memory. Tried to allocate 24.00 MiB
# expect-stdout: allocated after the failed op: 50331648
# expect-stdout: virtual: True (4,) cuda:0
# expect-stdout: virtual values: RuntimeError Cannot read the values of a virtual tensor
# expect-stdout: mixed: RuntimeError Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
# expect-stdout: two gpus: RuntimeError Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!
# expect-stdout: 0-dim cpu scalar: cuda:0 [4.0, 4.0]
# expect-stdout: freed: 0
import torch

n = 6 * 2**20  # 24 MiB of float32
a = torch.ones(n, device="cuda")
b = a + a
small = torch.ones(3, device="cuda") * 2
print("sum", b[0].item(), (small + 1)[0].item(), "relu", torch.relu(-small)[0].item(), "neg", (-small)[0].item())
del small
print("allocated after a + b:", torch.cuda.memory_allocated())
before, v = torch.cuda.memory_allocated(), a._version
a.add_(b, alpha=0.5)
a.mul_(a)
a += 1
print("in place allocated nothing:", torch.cuda.memory_allocated() == before, f"version +{a._version - v}")
try:
    c = a + b  # a third 24 MiB block does not fit in 64 MiB
except torch.cuda.OutOfMemoryError as e:
    print(type(e).__name__, str(e).split(". GPU")[0])
print("allocated after the failed op:", torch.cuda.memory_allocated())
vt = torch.empty(4, device="cuda", virtual=True)
vr = vt + 1
print("virtual:", vr.is_virtual, tuple(vr.shape), vr.device)
try:
    vr.tolist()
except RuntimeError as e:
    print("virtual values:", type(e).__name__, str(e).split(":")[0])
del vr
try:
    torch.ones(2, device="cuda") + torch.ones(2)
except RuntimeError as e:
    print("mixed:", type(e).__name__, e)
del a, b
try:
    torch.ones(2, device="cuda:0") * torch.ones(2, device="cuda:1")
except RuntimeError as e:
    print("two gpus:", type(e).__name__, e)
s = torch.full((2,), 2.0, device="cuda") * torch.tensor(2.0)
print("0-dim cpu scalar:", s.device, s.tolist())
del s, vt
print("freed:", torch.cuda.memory_allocated())

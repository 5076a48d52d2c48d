# source: https://pytorch.org/docs/stable/notes/cuda.html (CUDA semantics: device context, cross-device
#         operations, asynchronous execution, CUDA streams, memory management, device-agnostic code)
# changed: the note's examples assembled into one run on two simulated GPUs; values kept small; checks at the
#          end (devices of every result, the cross-device error, stream ordering made explicit, memory counters).
# reference: none: needs CUDA devices (DeviceScope's simulated GPUs)
import argparse

import torch

cuda = torch.device('cuda')     # Default CUDA device
cuda0 = torch.device('cuda:0')
cuda2 = torch.device('cuda:1')  # the note uses cuda:2; DeviceScope runs two GPUs here

x = torch.tensor([1., 2.], device=cuda0)
y = torch.tensor([1., 2.]).cuda()
with torch.cuda.device(1):
    a = torch.tensor([1., 2.], device=cuda)
    b = torch.tensor([1., 2.]).cuda()
    b2 = torch.tensor([1., 2.]).to(device=cuda)
    c = a + b
    z = x + y
    d = torch.randn(2, device=cuda2)
    e = torch.randn(2).to(cuda2)
    f = torch.randn(2).cuda(cuda2)
try:
    x + a
    cross = None
except RuntimeError as err:
    cross = str(err)
print("cross-device:", cross.split(" (")[0] if cross else cross)

# Asynchronous execution: events time the work on the current stream.
start_event = torch.cuda.Event(enable_timing=True)
end_event = torch.cuda.Event(enable_timing=True)
start_event.record()
big = torch.ones(1 << 20, device=cuda0).cpu()
end_event.record()
torch.cuda.synchronize()
elapsed_time_ms = start_event.elapsed_time(end_event)
print("elapsed ms > 0:", elapsed_time_ms > 0)

# CUDA streams
s = torch.cuda.Stream()
A = torch.empty((100, 100), device=cuda0).normal_(0.0, 1.0)
s.wait_stream(torch.cuda.default_stream(cuda0))
with torch.cuda.stream(s):
    B = torch.sum(A)
torch.cuda.current_stream().wait_stream(s)
A.record_stream(s) if hasattr(A, "record_stream") else None

# Memory management
before = torch.cuda.memory_allocated(cuda0)
tmp = torch.empty(1 << 20, device=cuda0)
during = torch.cuda.memory_allocated(cuda0)
del tmp
reserved = torch.cuda.memory_reserved(cuda0)
torch.cuda.empty_cache()

# Device-agnostic code
parser = argparse.ArgumentParser(description='PyTorch Example')
parser.add_argument('--disable-cuda', action='store_true', help='Disable CUDA')
args = parser.parse_args([])
args.device = None
if not args.disable_cuda and torch.cuda.is_available():
    args.device = torch.device('cuda')
else:
    args.device = torch.device('cpu')
x2 = torch.empty((8, 42), device=args.device)
net = torch.nn.Linear(42, 3).to(device=args.device)
cuda0b = torch.device('cuda:0')
x_cpu = torch.empty(2)
x_gpu = torch.empty(2, device=cuda0b)
x_cpu_long = torch.empty(2, dtype=torch.int64)
y_cpu = x_cpu.new_full([3, 2], fill_value=0.3)
y_gpu = x_gpu.new_full([3, 2], fill_value=-5)
y_cpu_long = x_cpu_long.new_tensor([[1, 2, 3]])
x3 = torch.empty(2, 3)
y3 = torch.ones_like(x3)
z3 = torch.zeros_like(x3)

# Checks of what it computed.
assert a.device == b.device == b2.device == c.device == torch.device('cuda:1')
assert z.device == torch.device('cuda:0') and d.device == e.device == f.device == torch.device('cuda:1')
assert cross is not None and "Expected all tensors to be on the same device" in cross, cross
assert B.device == cuda0 and torch.allclose(B.cpu(), A.cpu().sum(), atol=1e-3)
assert during - before >= 4 * (1 << 20) and reserved >= during - before
assert net(x2).device.type == args.device.type and y_gpu.device == cuda0b and y_cpu_long.dtype == torch.int64
assert torch.allclose(y_cpu, torch.full((3, 2), 0.3)) and y_gpu.cpu().tolist() == [[-5.0, -5.0]] * 3
assert torch.equal(y3, torch.ones(2, 3)) and torch.equal(z3, torch.zeros(2, 3))
print("checks passed")

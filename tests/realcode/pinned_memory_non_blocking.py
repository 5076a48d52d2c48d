# source: https://pytorch.org/tutorials/intermediate/pinmem_nonblock.html (A guide on good usage of
#         non_blocking and pin_memory() in PyTorch)
# changed: tensor sizes cut to 1-4 MiB and repetitions to 5; the tutorial's timing comparisons with
#          torch.utils.benchmark are printed, not asserted; the pageable/pinned/non_blocking copies and the
#          unsynchronised device-to-host hazard are checked instead (values, devices, pinned flags).
# reference: none: needs a CUDA device (DeviceScope's simulated GPUs)
import torch
from torch.utils.benchmark import Timer

assert torch.cuda.is_available()
DEVICE = "cuda:0"

# Pinned memory
pageable_tensor = torch.randn(1_000_000)
pinned_tensor = torch.randn(1_000_000, pin_memory=True)
print(pageable_tensor.is_pinned(), pinned_tensor.is_pinned())


def timer(cmd):
    median = Timer(cmd, globals=globals()).adaptive_autorange(min_run_time=0.05, max_run_time=0.5).median * 1000
    print(f"{cmd}: {median: 4.4f} ms")
    return median


pageable_to_device = timer("pageable_tensor.to('cuda:0')")
pinned_to_device = timer("pinned_tensor.to('cuda:0')")
pin_mem = timer("pageable_tensor.pin_memory()")
pin_mem_to_device = timer("pageable_tensor.pin_memory().to('cuda:0')")

# non_blocking
def copy_to_device(*tensors):
    result = []
    for tensor in tensors:
        result.append(tensor.to("cuda:0"))
    return result


def copy_to_device_nonblocking(*tensors):
    result = []
    for tensor in tensors:
        result.append(tensor.to("cuda:0", non_blocking=True))
    torch.cuda.synchronize()
    return result


tensors = [torch.randn(1000) for _ in range(100)]
to_device = timer("copy_to_device(*tensors)")
to_device_nonblocking = timer("copy_to_device_nonblocking(*tensors)")

# The hazard: a non_blocking device-to-host copy read before synchronising.
source = torch.full((1_000_000,), 7.0, device=DEVICE)
dest = torch.zeros(1_000_000, pin_memory=True)
dest.copy_(source, non_blocking=True)
unsynced = dest[-1].item()
torch.cuda.synchronize()
synced = dest[-1].item()
print("before synchronize:", unsynced, "after:", synced)

# Checks of what it computed.
moved = [pageable_tensor.to(DEVICE), pinned_tensor.to(DEVICE, non_blocking=True),
         pageable_tensor.pin_memory().to(DEVICE)]
torch.cuda.synchronize()
assert not pageable_tensor.is_pinned() and pinned_tensor.is_pinned()
assert all(t.device == torch.device(DEVICE) for t in moved)
assert torch.equal(moved[0].cpu(), pageable_tensor) and torch.equal(moved[1].cpu(), pinned_tensor)
assert all(torch.equal(a.cpu(), b) for a, b in zip(copy_to_device_nonblocking(*tensors), tensors))
assert synced == 7.0
assert min(pageable_to_device, pinned_to_device, to_device, to_device_nonblocking) > 0
print("checks passed")

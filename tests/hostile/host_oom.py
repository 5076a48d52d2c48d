# hostile: host allocations larger than the machine's memory: an out-of-memory error, not a killed process
# expect-exit: 1
# expect-stderr: RuntimeError: [enforce fail at alloc_cpu.cpp
# expect-stderr: DefaultCPUAllocator
# expect-stdout: recovered: RuntimeError
# expect-stdout: after: [2.0, 2.0]
# expect-transfers: 2
import torch

x = torch.ones(2).to("cuda")
try:
    torch.empty(2**45)  # 128 TiB of float32
except RuntimeError as e:
    print("recovered:", type(e).__name__)
print("after:", (x * 2).cpu().tolist())
big = torch.zeros(2**43, dtype=torch.uint8)  # 8 TiB, uncaught

# SEMANTICS 2: a device-to-host copy with non_blocking=True lands in pinned memory and is NOT synchronised:
# reading it before torch.cuda.synchronize() sees stale data. On the simulated devices this is deterministic:
# the copy completes only at the next synchronisation, so the early read shows the destination's old bytes
# (zeros for a fresh pinned block, the previous values for a reused tensor).
import torch

src = torch.arange(1., 5., device='cuda')
dst = src.to('cpu', non_blocking=True)
print(dst.device, dst.is_pinned())
print(dst)
torch.cuda.synchronize()
print(dst)
blocking = src.to('cpu')
print(blocking, blocking.is_pinned())
out = torch.full((4,), -1.).pin_memory()
r = out.copy_(src * 10, non_blocking=True)
print(r is out, out)
torch.cuda.current_stream().synchronize()
print(out)

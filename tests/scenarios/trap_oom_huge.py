# SEMANTICS 8: a request larger than the GPU (default simulated capacity 16 GiB). "Tried to allocate" shows the
# segment size asked of the driver (40,000,000,000 bytes rounded up to 2 MiB = 37.25 GiB). Sizes print with
# two decimals; zero prints as "0 bytes". Nothing is left allocated.
import torch

for dev in ('cuda', 'cuda:1'):
    try:
        torch.empty(10 ** 10, device=dev)
    except torch.cuda.OutOfMemoryError as e:
        msg = str(e)
        print(type(e).__name__, msg.startswith('CUDA out of memory.'))
        print(msg[:msg.index(' is free.') + len(' is free.')])
        print(msg[msg.index('Of the allocated memory'):msg.index('unallocated.') + len('unallocated.')])
print(torch.cuda.memory_allocated(0), torch.cuda.memory_reserved(0), torch.cuda.memory_allocated(1))
x = torch.empty(10 ** 7, device="cuda")
print(x.shape, torch.cuda.memory_allocated(), torch.cuda.memory_reserved())

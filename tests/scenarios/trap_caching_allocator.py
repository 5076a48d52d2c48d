# SEMANTICS 8: the CUDA caching allocator. Requests round up to 512 bytes; <= 1 MiB uses 2 MiB small-pool
# segments; 1-10 MiB requests get a 20 MiB segment; >= 10 MiB a segment rounded up to 2 MiB. A cached free
# block that is large enough is reused (and split) before asking the driver. Freed blocks stay reserved;
# empty_cache() returns only segments with no live block left. Numbers follow c10/cuda/CUDACachingAllocator.cpp.
import torch

def show(label):
    print(label, torch.cuda.memory_allocated(), torch.cuda.memory_reserved())

show('start')
a = torch.empty(1000, device='cuda')          # 4000 B -> 4096, new 2 MiB small segment
show('a')
b = torch.empty(256, device='cuda')           # 1024 B, same small segment
show('b')
c = torch.empty(1024 * 1024, device='cuda')   # 4 MiB -> new 20 MiB large segment, split
show('c')
d = torch.empty(2750000, device='cuda')       # 11,000,000 B -> 11000320, fits in c's segment remainder
show('d')
e = torch.empty(2750000, device='cuda')       # no cached block fits -> new segment of 12 MiB
show('e')
del a
show('del a')
del c
show('del c')
torch.cuda.empty_cache()                      # every segment still holds a live block: nothing returned
show('empty_cache')
del e
show('del e')
torch.cuda.empty_cache()                      # e's segment is whole and free again: returned
show('empty_cache')
del b, d
show('del b, d')
torch.cuda.empty_cache()
show('empty_cache')
print('peak', torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())
f = torch.empty(10, device='cuda:1')
print('cuda:1', torch.cuda.memory_allocated(1), torch.cuda.memory_reserved(1), torch.cuda.memory_allocated(0))
g = torch.empty(0, device='cuda')
h = torch.empty(1, dtype=torch.uint8, device='cuda')
show('tiny')

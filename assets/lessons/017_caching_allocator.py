# %% lesson: Why "freed" GPU memory is still in use: the caching allocator
# | `del t` frees a CUDA tensor - for PyTorch. The memory goes back to PyTorch's *caching allocator*, not to the
# | driver, so `nvidia-smi` (and `torch.cuda.memory_reserved()`) still count it. Two numbers tell the story:
# | `memory_allocated()` = bytes in live tensors (rounded up), `memory_reserved()` = everything PyTorch got from
# | the driver. The allocator's rules (from `c10/cuda/CUDACachingAllocator.cpp`): sizes round up to a multiple of
# | 512 bytes; requests up to 1 MiB come from 2 MiB segments, requests up to 10 MiB from 20 MiB segments, larger
# | ones get a segment of their own size rounded up to 2 MiB.
# |
# | The numbers below assume a fresh session (nothing allocated yet on cuda:0).
# requires: torch.cuda.is_available()
# verdict: FALSE | `del tensor` returns GPU memory to the driver | It returns the block to PyTorch's cache; `memory_reserved()` is unchanged until `empty_cache()` | `del` does not shrink the reservation
# verdict: TRUE | `torch.cuda.empty_cache()` releases cached memory | Only whole segments with no live block in them | `empty_cache()` releases whole free segments
# verdict: FALSE | A 4000-byte tensor uses 4000 bytes of GPU memory | It uses a 4096-byte block inside a 2 MiB segment | Small tensors share a 2 MiB segment

# %% step: Small tensors share a 2 MiB segment
# ? After allocating 1000 floats (4000 bytes), what are `memory_allocated()` and `memory_reserved()`?
# - 4000 B allocated, 4000 B reserved (4000 and 4000)
# - 4 KiB allocated, 4 KiB reserved (4096 and 4096)
# = 4 KiB allocated, 2 MiB reserved (4096 and 2097152)
import torch

MiB = 1024 * 1024
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
a = torch.empty(1000, device="cuda")
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
b = torch.empty(MiB // 4, device="cuda")
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
# expect-stdout: 0 0
# expect-stdout: 4096 2097152
# expect-stdout: 1052672 2097152
# > 4000 bytes round up to 4096. A request of at most 1 MiB is served from the *small pool*, whose segments are
# > 2 MiB: the first allocation reserves a whole 2 MiB segment, and `b` (exactly 1 MiB) fits in the rest of it.

# %% step: A 5 MiB tensor reserves 20 MiB
c = torch.empty(5 * MiB // 4, device="cuda")
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
# expect-stdout: 6295552 23068672
# > Requests between 1 MiB and 10 MiB come from the *large pool* in 20 MiB segments: 2 + 20 = 22 MiB reserved,
# > of which 4096 + 1 MiB + 5 MiB is allocated.

# %% step: `del` does not shrink the reservation
# ? What does `memory_reserved()` show after `del c`?
# - 2 MiB (2097152) - the 20 MiB segment is returned
# = 22 MiB (23068672) - the segment stays cached
# - 6 MiB + 4 KiB (6295552) - what was allocated before `del`
del c
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
c2 = torch.empty(5 * MiB // 4, device="cuda")
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del c2
# expect-stdout: 1052672 23068672
# expect-stdout: 6295552 23068672
# > The block went back to the cache; the next 5 MiB request reuses it without asking the driver. This is the
# > "memory is not freed" that people see in `nvidia-smi`: it is free *for PyTorch*, reserved for the driver.

# %% step: `empty_cache()` releases whole free segments
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del a
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del b
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
# expect-stdout: 1052672 2097152
# expect-stdout: 1048576 2097152
# expect-stdout: 0 0
# > `empty_cache()` hands back only segments with no live block. The 20 MiB segment was empty and went back at
# > once; the 2 MiB segment stayed as long as `b` lived in it - one small live tensor pins its whole segment.

# %% step: Big tensors, and the peak
x = torch.empty(4096, 4096, device="cuda")
print(torch.cuda.memory_allocated() // MiB, torch.cuda.memory_reserved() // MiB)
x = torch.empty(4096, 4096, device="cuda")
print(torch.cuda.memory_allocated() // MiB, torch.cuda.memory_reserved() // MiB,
      torch.cuda.max_memory_allocated() // MiB)
del x
print(torch.cuda.memory_allocated() // MiB, torch.cuda.memory_reserved() // MiB)
# expect-stdout: 64 64
# expect-stdout: 64 128 128
# expect-stdout: 0 128
# > A 64 MiB request gets its own 64 MiB segment. Rebinding `x` allocates the new tensor *before* the old one is
# > released, so for a moment both exist: the peak (`max_memory_allocated()`) is 128 MiB, and two segments stay
# > reserved afterwards. `x = x * 2`-style code in a loop has the same transient peak.

# %% lesson: Pinned vs pageable: transfer speed and the cost of pinning
# | Host memory comes in two kinds. *Pageable* memory is ordinary memory the OS may move or swap; the GPU cannot
# | read it directly, so the driver copies it through a pinned staging buffer first. *Pinned* (page-locked)
# | memory stays put, so the GPU's copy engine reads it directly - faster, and asynchronously.
# |
# | Pinning is not free: `t.pin_memory()` allocates new page-locked memory and copies the data into it, and
# | page-locked memory is a limited resource taken away from the OS. It pays off for buffers you copy often.
# | The timings come from DeviceScope's transfer log (`devicescope.engine`, a DeviceScope extension); on the
# | simulated devices they follow the link model, on a real GPU they are measured.
# requires: torch.cuda.is_available()
# verdict: TRUE | Copies from pinned memory to the GPU are faster than from pageable memory | No staging copy through a driver buffer; the copy engine reads the pinned pages directly | Pinned is faster
# verdict: FALSE | `t.pin_memory()` pins `t` in place | It returns a new CPU tensor in newly allocated page-locked memory; `t` stays pageable | Pinning makes a copy
# verdict: FALSE | Pinning everything is a free speed-up | Each `pin_memory()` is an extra host copy plus a page-locked allocation; worth it only for buffers reused or copied often | Pinning makes a copy

# %% step: Copy from pageable memory
import torch
import devicescope.engine as dse

MiB = 1024 * 1024
src = torch.ones(64 * MiB // 4)
g1 = src.to("cuda")
pageable = dse.last_transfer()
print(pageable["src"], pageable["dst"], pageable["bytes"] // MiB, pageable["route"], pageable["async"])
# expect-stdout: pageable cuda:0 64 staged-pinned False
# > A plain CPU tensor is pageable. The copy goes through a pinned staging buffer (`staged-pinned`) and the call
# > returns only when the copy is done.

# %% step: Pinning makes a copy
# ? What does `src.pin_memory()` do to `src`?
# - pins it in place: `src.is_pinned()` becomes True
# = nothing: it returns a new, pinned tensor
# - moves it to the GPU's memory
host_before = dse.host_memory()["allocated"]
pinned_src = src.pin_memory()
print(src.is_pinned(), pinned_src.is_pinned(), pinned_src.device, pinned_src is src)
print((dse.host_memory()["allocated"] - host_before) // MiB, pinned_src.pin_memory() is pinned_src)
# expect-stdout: False True cpu False
# expect-stdout: 64 True
# expect: pinned_src.data_ptr() != src.data_ptr() and torch.equal(pinned_src, src)
# > A second 64 MiB host buffer, page-locked, holding a copy of the data: now the data exists twice in host
# > memory. Calling `pin_memory()` on an already pinned tensor returns it unchanged. Pinned memory comes from
# > PyTorch's caching *host* allocator (sizes rounded up to a power of two, freed blocks cached); it is not
# > counted in `torch.cuda.memory_allocated()`.

# %% step: Copy from pinned memory
g2 = pinned_src.to("cuda", non_blocking=True)
pinned = dse.last_transfer()
torch.cuda.synchronize()
pinned = [t for t in dse.transfers() if t["id"] == pinned["id"]][0]
print(pinned["src"], pinned["dst"], pinned["bytes"] // MiB, pinned["route"], pinned["async"], pinned["complete"])
# expect-stdout: pinned cuda:0 64 direct True True
# > One direct DMA copy, issued asynchronously; `synchronize()` waited for it to complete.

# %% step: Pinned is faster
# ? Which copy of the same 64 MiB reached the higher bandwidth?
# = the one from pinned memory
# - the one from pageable memory
# - the same: bandwidth is set by the PCIe link
rate_pageable = pageable["bytes"] / pageable["duration_ns"]
rate_pinned = pinned["bytes"] / pinned["duration_ns"]
print(f"pageable {rate_pageable:.1f} GB/s, pinned {rate_pinned:.1f} GB/s, x{rate_pinned / rate_pageable:.1f}")
# expect: rate_pinned > rate_pageable
# expect: torch.equal(g1, g2)
# > Both copies cross the same link, but the pageable one also pays for the host-side staging copy (and for
# > waiting). On PCIe 4.0 x16, typical figures are ~12 GB/s pageable vs ~25 GB/s pinned. Whether pinning pays
# > off depends on reuse: pin a buffer once and copy from it many times (as `DataLoader(pin_memory=True)` with
# > its reused batches, or a staging buffer you fill in place), not a fresh tensor before every single copy.

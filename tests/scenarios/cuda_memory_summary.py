# torch.cuda.memory_stats() with PyTorch's keys and memory_summary() in its table layout, from DeviceScope's
# caching allocator (simulated, so every figure is deterministic): small and large pools, a 20 MiB segment
# split by a 4 MB tensor (non-releasable remainder), cumulative allocated/freed counts, peaks and their reset.
import torch

x = torch.ones(1000, 1000, device="cuda")                     # 4,000,000 B: large pool, 20 MiB segment
small = [torch.ones(100, device="cuda") for _ in range(5)]    # 400 B each -> 512 B blocks in a 2 MiB segment
tmp = torch.ones(10, device="cuda")
del tmp
s = torch.cuda.memory_stats()
print(len(s), sorted({k.split(".")[0] for k in s}))
for key in ("allocated_bytes.all.current", "allocated_bytes.large_pool.current", "allocated_bytes.small_pool.current",
            "requested_bytes.all.current", "reserved_bytes.all.current", "inactive_split_bytes.all.current",
            "allocation.all.current", "allocation.all.allocated", "allocation.all.freed", "segment.all.current",
            "num_alloc_retries", "num_ooms"):
    print(key, s[key])
print(s["allocated_bytes.all.current"] == torch.cuda.memory_allocated(),
      s["reserved_bytes.all.current"] == torch.cuda.memory_reserved())
print(torch.cuda.memory_summary())
del x
torch.cuda.reset_peak_memory_stats()
s = torch.cuda.memory_stats()
print("after del + reset:", s["allocated_bytes.all.peak"], s["allocation.all.peak"], s["allocation.all.allocated"],
      s["allocation.all.freed"], torch.cuda.max_memory_allocated())
print(torch.cuda.memory_summary(device=0, abbreviated=True))
print(torch.cuda.memory_stats(1)["allocated_bytes.all.current"], len(torch.cuda.memory_summary(1).splitlines()))

# %% lesson: What `DataLoader(pin_memory=True)` really does
# | `pin_memory=True` is often described as "loading data onto the GPU". It does something narrower: every
# | batch is copied into *pinned* (page-locked) host memory. Batches stay on the CPU. The payoff comes later,
# | when you move a batch with `.to(device, non_blocking=True)`: from pinned memory the GPU can copy
# | asynchronously, straight from the buffer, with no staging copy.
# |
# | This lesson reads DeviceScope's transfer log (`devicescope.engine`, a DeviceScope extension - real PyTorch
# | has no such module) to show each copy's route.
# requires: torch.cuda.is_available()
# verdict: FALSE | `pin_memory=True` moves batches to the GPU | Batches are copied into pinned CPU memory; `batch.device` is `cpu` | Pinned batches stay on the CPU
# verdict: TRUE | Pinning works on nested batches (dicts, lists, tuples) | The pinning walks the collated batch recursively | Nested batches are pinned too
# verdict: TRUE | A pinned batch can be copied to the GPU asynchronously | `non_blocking=True` from pinned memory is a direct async copy; from pageable memory it is staged and synchronous | The move: pinned vs pageable source

# %% step: Pinned batches stay on the CPU
# ? With `pin_memory=True`, what are `x.device` and `x.is_pinned()` for a batch?
# - cuda:0 and False
# = cpu and True
# - cpu and False - pinning happens during `.to()`
import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(64, 8), torch.randint(0, 3, (64,)))
plain = DataLoader(dataset, batch_size=16)
pinned = DataLoader(dataset, batch_size=16, pin_memory=True)

allocated_before = torch.cuda.memory_allocated()
x0, y0 = next(iter(plain))
x, y = next(iter(pinned))
print(x0.device, x0.is_pinned(), x.device, x.is_pinned(), y.is_pinned())
print(torch.cuda.memory_allocated() - allocated_before)
# expect-stdout: cpu False cpu True True
# expect-stdout: 0
# expect: not dataset.tensors[0].is_pinned()
# > Both loaders give CPU batches; the pinned one's batch was copied into page-locked host memory (a second
# > host copy of the batch). Not a byte of GPU memory was used.

# %% step: Nested batches are pinned too
# | A dataset returning dicts: the default collate builds a dict of batched tensors, and pinning walks into it.
from torch.utils.data import Dataset


class Pairs(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        return {"image": torch.randn(3, 4, 4), "label": torch.tensor(i % 2), "meta": [torch.tensor(float(i))]}


batch = next(iter(DataLoader(Pairs(), batch_size=8, pin_memory=True)))
print(sorted(batch), tuple(batch["image"].shape), batch["image"].is_pinned(), batch["label"].is_pinned(),
      batch["meta"][0].is_pinned())
# expect-stdout: ['image', 'label', 'meta'] (8, 3, 4, 4) True True True
# > Tensors anywhere inside dicts, lists and tuples are pinned; everything else passes through unchanged.

# %% step: The move: pinned vs pageable source
# | Now the copies to the GPU, with `non_blocking=True` from both kinds of source.
# ? Which copy can the host let run in the background?
# - both
# = only the one from pinned memory
# - neither: `non_blocking` needs CUDA streams
import devicescope.engine as dse

g_pinned = x.to("cuda", non_blocking=True)
t_pinned = dse.last_transfer()
g_pageable = x0.to("cuda", non_blocking=True)
t_pageable = dse.last_transfer()
torch.cuda.synchronize()
print(t_pinned["src"], t_pinned["route"], t_pinned["async"])
print(t_pageable["src"], t_pageable["route"], t_pageable["async"])
# expect-stdout: pinned direct True
# expect-stdout: pageable staged-pinned False
# expect: torch.equal(g_pinned.cpu(), x) and torch.equal(g_pageable.cpu(), x0)
# > From pinned memory the copy engine reads the buffer directly (`direct`) and the call returns at once
# > (`async`); the host must not write to `x` until the copy is done. From pageable memory the driver first
# > copies through its own pinned staging buffer and returns only when it has read the source: `non_blocking`
# > changes nothing for the host. That staging is exactly what `pin_memory=True` does ahead of time.

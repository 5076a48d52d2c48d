# %% lesson: Views, `.data` and `.detach()` are left behind
# | A Parameter keeps its identity when its module moves - but handles you took *from* it earlier do not follow.
# | `p.data`, `p.detach()` and views like `p[0]` are separate tensors that share the parameter's storage *at the
# | time you took them*. The move gives the Parameter new storage; the old handles keep the old storage (and
# | keep it alive).
# requires: torch.cuda.is_available()
# verdict: FALSE | `w.data` always refers to the weight's current storage | A `.data` tensor taken before the move keeps the old storage, device and values | Handles taken before the move
# verdict: TRUE | A view shares memory with its base | Until the base is moved: the moved tensor is a copy, the view still looks at the old storage | A view of a plain tensor
# verdict: TRUE | Re-reading `p.data` after the move gives the new storage | `.data` is computed on each access from the Parameter's current storage | Take handles after moving

# %% step: Handles taken before the move
# ? After `lin.to("cuda")`, where do `d = lin.weight.data`, `row = lin.weight[0]` and `det = lin.weight.detach()` (all taken before the move) live?
# - all on cuda:0 - they are the weight
# = all on cpu - they hold the old storage
# - `d` and `det` on cuda:0, `row` on cpu
import torch
import torch.nn as nn

lin = nn.Linear(4, 4)
w = lin.weight
d = lin.weight.data
row = lin.weight[0]
det = lin.weight.detach()
lin.to("cuda")
print(w.device, d.device, row.device, det.device)
print(w is lin.weight, d.data_ptr() == row.data_ptr() == det.data_ptr())
# expect-stdout: cuda:0 cpu cpu cpu
# expect-stdout: True True
# > `w` is the Parameter itself, so it moved. `d`, `row` and `det` are other tensors that were created sharing
# > the weight's CPU storage; after the move they still share it - with each other, no longer with the weight.
# > The old CPU storage is not freed: they keep it alive.

# %% step: They no longer see updates
with torch.no_grad():
    lin.weight.fill_(1.0)
print(bool((lin.weight == 1.0).all()), bool((d == 1.0).all()), bool((row == 1.0).all()))
# expect-stdout: True False False
# > Writes to the moved weight go to the GPU storage. Code that kept `weight.data` (a common pattern for EMA
# > copies or manual updates) would silently read and write a stale CPU copy from now on.

# %% step: Take handles after moving
d2 = lin.weight.data
row2 = lin.weight[0]
print(d2.device, row2.device, d2.data_ptr() == lin.weight.data_ptr(), row2.tolist())
# expect-stdout: cuda:0 cuda:0 True [1.0, 1.0, 1.0, 1.0]
# > `.data`, `detach()` and indexing are evaluated when you call them, against the Parameter's current storage.

# %% step: A view of a plain tensor
# | The same holds for any tensor: nothing follows a base tensor to another device.
base = torch.arange(6.0)
v = base[2:4]
moved = base.to("cuda")
moved[2] = 100.0
base[3] = -1.0
print(v.device, v.tolist(), moved[2:4].tolist())
# expect-stdout: cpu [2.0, -1.0] [100.0, 3.0]
# > `v` is a view of `base` (same CPU storage, offset 2). `moved` is a copy on the GPU; writes to it do not reach
# > `base` or `v`, and writes to `base` show in `v` but not in `moved`.

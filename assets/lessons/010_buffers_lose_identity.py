# %% lesson: Buffers are replaced, Parameters are kept
# | `model.to(device)` moves parameters and buffers alike - but not in the same way. A Parameter keeps its
# | identity: the same Python object now points at new storage. A buffer is *replaced*: the module's name is
# | rebound to a brand-new tensor, and any reference you took earlier still points at the old one, on the old
# | device. (In `Module._apply`: `param.data = fn(param)` versus `self._buffers[key] = fn(buf)`.)
# requires: torch.cuda.is_available()
# verdict: FALSE | References to a module's tensors all follow `model.to(device)` | References to Parameters do; references to buffers keep the old tensor on the old device | Move a BatchNorm
# verdict: TRUE | Running statistics keep updating after the move | They do - in the new buffer; a stale reference never sees the updates | The stale reference misses the updates
# verdict: FALSE | `model.half()` converts every tensor of the model to float16 | Only floating-point tensors: `num_batches_tracked` stays int64 | Dtype conversions skip integer buffers

# %% step: Move a BatchNorm
# | `BatchNorm1d` has two Parameters (`weight`, `bias`) and three buffers (`running_mean`, `running_var`,
# | `num_batches_tracked`). We keep references to both kinds, then move the module.
# ? After `bn.to(device)`, which of these is still True: `w is bn.weight`, `rm is bn.running_mean`?
# - both
# = only `w is bn.weight`
# - only `rm is bn.running_mean`
# - neither
import torch
import torch.nn as nn

device = torch.device("cuda:0")
bn = nn.BatchNorm1d(4)
w = bn.weight
rm = bn.running_mean
stats = [bn.running_mean, bn.running_var]
bn.to(device)
print(w is bn.weight, rm is bn.running_mean)
print(w.device, rm.device, bn.running_mean.device, stats[1].device)
# expect-stdout: True False
# expect-stdout: cuda:0 cpu cuda:0 cpu
# expect: str(bn.num_batches_tracked.device) == "cuda:0"
# > `w` is still the module's weight, now on cuda:0. `rm` and the list `stats` hold the *old* buffers: CPU
# > tensors that the module no longer knows about. Their CPU memory stays allocated as long as you hold them.

# %% step: The stale reference misses the updates
# | A training-mode forward pass updates the running statistics.
x = torch.randn(64, 4, device=device) + 5.0
out = bn(x)
print(bn.num_batches_tracked.item(), bool((bn.running_mean > 0.1).all()), rm.tolist())
# expect-stdout: 1 True [0.0, 0.0, 0.0, 0.0]
# expect: str(bn.running_mean.device) == "cuda:0"
# > The forward pass wrote into the module's current buffer on the GPU (mean ~ 5 x momentum 0.1 = ~0.5). `rm`
# > is frozen at its initial zeros. Code that cached `model.running_mean` (or a list of buffers, e.g. for EMA
# > or logging) before the move silently reads stale values from then on.

# %% step: Dtype conversions skip integer buffers
# | `half()` goes through the same `_apply`, converting only floating-point tensors.
w_before = bn.weight
rm_before = bn.running_mean
bn.half()
print(bn.weight.dtype, bn.running_mean.dtype, bn.num_batches_tracked.dtype)
print(bn.weight is w_before, bn.running_mean is rm_before)
# expect-stdout: torch.float16 torch.float16 torch.int64
# expect-stdout: True False
# > Same rule as for devices: the Parameter object survives, the buffer is a new tensor. `num_batches_tracked`
# > is an integer counter, so `half()` leaves it alone (a *device* move would still move it).

# %% step: The fix: look buffers up after moving
# | Take references after the last move, or always go through the module.
bn.float()
running = dict(bn.named_buffers())
print(running["running_mean"] is bn.running_mean, running["running_mean"].dtype, running["running_mean"].device)
# expect-stdout: True torch.float32 cuda:0
# > `bn.running_mean` (or `named_buffers()`, `state_dict()`) always returns the module's current buffer.
# > Optimizers are safe because they hold Parameters, which keep their identity - but see the lesson on
# > optimizer state for what they create themselves.

# %% lesson: An optimizer built before `.cuda()`
# | Common advice says "always move the model before creating the optimizer". Half of the reason is a myth:
# | the optimizer holds the model's Parameter *objects*, and those keep their identity when the model moves.
# | The other half is real: optimizer *state* (Adam's running averages) is made of ordinary tensors created by
# | the optimizer, and `model.cuda()` knows nothing about them.
# requires: torch.cuda.is_available()
# verdict: FALSE | An optimizer created before `model.cuda()` keeps updating the old CPU parameters | It holds the same Parameter objects, which now live on the GPU | Parameters follow the move
# verdict: TRUE | Adam state created before the move stays on the CPU | `exp_avg` / `exp_avg_sq` are plain tensors owned by the optimizer; `Module.to` never sees them | State created before the move stays behind
# verdict: HALF-TRUE | Always create the optimizer after moving the model | Only required once the optimizer has state; before its first `step()` the order does not matter | Parameters follow the move

# %% step: Parameters follow the move
# | Build the optimizer on the CPU model, then move the model.
# ? Which device does the optimizer's first parameter report after `model.cuda()`?
# - cpu - the optimizer copied the parameter list when it was built
# = cuda:0
# - it raises: the optimizer's parameters are stale
import torch
import torch.nn as nn

model = nn.Linear(4, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
held = opt.param_groups[0]["params"][0]
model.cuda()
print(held is model.weight, held.device)
# expect-stdout: True cuda:0
# > `opt.param_groups[0]["params"]` is a list of the model's Parameter objects. `model.cuda()` swaps the storage
# > *inside* each Parameter (`param.data = fn(param)`), so the optimizer sees the move.

# %% step: Training works
# | The first `step()` creates Adam's state - lazily, next to each parameter.
loss = model(torch.randn(8, 4, device="cuda")).pow(2).mean()
loss.backward()
opt.step()
st = opt.state[model.weight]
print(st["exp_avg"].device, st["exp_avg_sq"].device, st["step"].device)
# expect-stdout: cuda:0 cuda:0 cpu
# expect: st["step"].item() == 1
# > `exp_avg` and `exp_avg_sq` are created with `torch.zeros_like(param)`, on the parameter's device *at that
# > moment*. (`state["step"]` is a CPU scalar tensor unless the optimizer is `capturable` or `fused`.)

# %% step: State created before the move stays behind
# | Now the other order: one training step on the CPU (creating the state there), then `model.cuda()`.
# | (`foreach=False` picks Adam's per-tensor implementation; see the note after the next step.)
model = nn.Linear(4, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.1, foreach=False)
model(torch.randn(8, 4)).pow(2).mean().backward()
opt.step()
model.cuda()
st = opt.state[model.weight]
print(model.weight.device, model.weight.grad.device, st["exp_avg"].device, st["exp_avg_sq"].device)
# expect-stdout: cuda:0 cuda:0 cpu cpu
# > The parameter and its `.grad` moved (`_apply` converts gradients too, keeping their identity). The optimizer
# > state did not: it is not registered anywhere in the module.

# %% step: The next step fails
# ? What happens at the next `opt.step()`?
# - it works: the optimizer moves its state automatically
# - it silently updates the parameters on the CPU
# = RuntimeError: the state on the CPU meets a gradient on cuda:0
opt.zero_grad()
model(torch.randn(8, 4, device="cuda")).pow(2).mean().backward()
opt.step()
# expect-raises: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
# > Adam updates `exp_avg` in place with the new gradient - a CPU tensor combined with a CUDA one. (With the
# > default `foreach` implementation, used for CUDA parameters, the check happens earlier, when Adam groups its
# > tensors by device, and the message reads "Tensors of the same index must be on the same device and the same
# > dtype except `step` tensors ..."; the cause is the same.)

# %% step: Fix it: load the state back
# | `Optimizer.load_state_dict` casts every state tensor to its parameter's device and dtype.
opt.load_state_dict(opt.state_dict())
st = opt.state[model.weight]
print(st["exp_avg"].device, st["exp_avg_sq"].device, st["step"].device)
opt.step()
print(model.weight.device, st["step"].item())
# expect-stdout: cuda:0 cuda:0 cpu
# expect-stdout: cuda:0 3.0
# > Note `3.0`, not `2.0`: the failed step had already counted itself (`step += 1` comes before the update that
# > raised), so a failed `step()` can leave the optimizer half-updated. The simplest fix is the ordering: move the model first, build the optimizer after (or at least before its
# > first `step()`). When resuming from a checkpoint, `torch.load(..., map_location=device)` plus
# > `load_state_dict` puts the state where the parameters are.

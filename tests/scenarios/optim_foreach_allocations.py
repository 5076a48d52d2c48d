# What one optimizer step allocates on a GPU, as PyTorch 2.6's CUDA paths allocate it, read back from
# DeviceScope's own torch.cuda.memory._snapshot() trace. The model has three parameters of different sizes
# (64, 8 and 24 floats: 256, 32 and 96 bytes) so each allocation names its parameter by size.
# The expected sequences, derived from the 2.6 sources (torch/optim/optimizer.py, adam.py, adamw.py, sgd.py):
#  - Adam/AdamW._init_group makes each parameter's state in parameter order at the first step: `step` as
#    torch.tensor(0.0) on the CPU (on the device when capturable or fused: torch.zeros((), float32)), then
#    exp_avg and exp_avg_sq = torch.zeros_like(p, memory_format=torch.preserve_format).
#  - adam()/sgd() default to foreach when every parameter with a gradient is a plain Tensor/Parameter on CUDA
#    (_default_to_fused_or_foreach(params, differentiable, use_fused=False)).
#  - _multi_tensor_adam: `device_grads = torch._foreach_add(device_grads, device_params, alpha=weight_decay)`
#    (Adam's weight decay only; AdamW multiplies the params in place), the in-place lerp_/mul_/addcmul_,
#    `del device_grads`, then `exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)`, in-place div_/add_/
#    addcdiv_, and the list dies when the function returns. CPython frees a list's items last first.
#  - _fused_adam: torch._foreach_add_ on the steps and one torch._fused_adam_ kernel: nothing allocated.
#  - _multi_tensor_sgd: the weight-decay _foreach_add list, `torch.clone(device_grads[i]).detach()` per missing
#    momentum buffer, then `device_grads = bufs` drops the decay list; _fused_sgd: torch.empty_like(g) per
#    gradient on the first step with momentum.
#  - _single_tensor_adam (foreach=False): per parameter `denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt)
#    .add_(eps)`: the sqrt, the quotient, the sqrt freed; the previous denom dies when the next is assigned.
#  - zero_grad(set_to_none=True) drops each .grad in parameter order; set_to_none=False zeroes in place.
import torch
import torch.nn as nn


def model():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(8, 8, bias=False), nn.Linear(8, 8, bias=True), nn.Linear(8, 3, bias=False))
    # three parameters: 64, 8 (the second layer's bias) and 24 floats; the second weight is frozen
    m[1].weight.requires_grad_(False)
    return m.cuda()


def backward(m):
    m(torch.ones(2, 8, device="cuda")).pow(2).sum().backward()


def trace(fn):
    """[(action, size)] of the allocations and frees fn makes on cuda:0."""
    torch.cuda.memory._record_memory_history(max_entries=100000)
    fn()
    s = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    return [("alloc" if e["action"] == "alloc" else "free", e["size"]) for e in s["device_traces"][0]
            if e["action"] in ("alloc", "free_completed")]


P = [256, 32, 96]  # parameter bytes, in parameter order
A = [("alloc", n) for n in P]
F_REV = [("free", n) for n in reversed(P)]  # a list of temporaries freed last item first
STATE = [e for n in P for e in (("alloc", n), ("alloc", n))]  # exp_avg, exp_avg_sq per parameter


def check(name, opt_factory, first, second):
    m = model()
    opt = opt_factory([p for p in m.parameters() if p.requires_grad])
    backward(m)
    got1 = trace(opt.step)
    backward(m)
    got2 = trace(opt.step)
    print(f"{name}: first step {'ok' if got1 == first else got1}, second step {'ok' if got2 == second else got2}")
    return opt


opt = check("Adam", lambda ps: torch.optim.Adam(ps, lr=0.1), STATE + A + F_REV, A + F_REV)
st = opt.state[opt.param_groups[0]["params"][0]]
print("  state:", sorted(st), st["step"].device, st["exp_avg"].device, st["exp_avg"]._impl.storage_role)
check("Adam weight_decay", lambda ps: torch.optim.Adam(ps, lr=0.1, weight_decay=0.1),
      STATE + A + F_REV + A + F_REV, A + F_REV + A + F_REV)
check("Adam maximize", lambda ps: torch.optim.Adam(ps, lr=0.1, maximize=True),
      STATE + A + F_REV + A + F_REV, A + F_REV + A + F_REV)
check("Adam amsgrad", lambda ps: torch.optim.Adam(ps, lr=0.1, amsgrad=True),
      [e for n in P for e in [("alloc", n)] * 3] + A + F_REV, A + F_REV)
check("AdamW", lambda ps: torch.optim.AdamW(ps, lr=0.1), STATE + A + F_REV, A + F_REV)
fused_state = [e for n in P for e in (("alloc", 4), ("alloc", n), ("alloc", n))]
opt = check("Adam fused", lambda ps: torch.optim.Adam(ps, lr=0.1, fused=True), fused_state, [])
print("  fused step counter:", opt.state[opt.param_groups[0]["params"][0]]["step"].device)
check("Adam foreach=False", lambda ps: torch.optim.Adam(ps, lr=0.1, foreach=False),
      STATE + [("alloc", 256), ("alloc", 256), ("free", 256), ("alloc", 32), ("alloc", 32), ("free", 32),
               ("free", 256), ("alloc", 96), ("alloc", 96), ("free", 96), ("free", 32), ("free", 96)],
      [("alloc", 256), ("alloc", 256), ("free", 256), ("alloc", 32), ("alloc", 32), ("free", 32),
       ("free", 256), ("alloc", 96), ("alloc", 96), ("free", 96), ("free", 32), ("free", 96)])
check("SGD", lambda ps: torch.optim.SGD(ps, lr=0.1), [], [])
opt = check("SGD momentum", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9), A, [])
buf = opt.state[opt.param_groups[0]["params"][0]]["momentum_buffer"]
print("  momentum buffer:", buf.device, buf._impl.storage_role)
check("SGD momentum weight_decay", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.01),
      A + A + F_REV, A + F_REV)
check("SGD nesterov weight_decay", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True,
                                                              weight_decay=0.01),
      A + A + F_REV, A + F_REV)
check("SGD fused momentum", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, fused=True), A, [])

# zero_grad: the gradients go (set_to_none=True, 2.x's default) or stay and are zeroed in place
for set_to_none, expected in ((True, [("free", n) for n in P]), (False, [])):
    m = model()
    opt = torch.optim.SGD([p for p in m.parameters() if p.requires_grad], lr=0.1)
    backward(m)
    got = trace(lambda: opt.zero_grad(set_to_none=set_to_none))
    print(f"zero_grad(set_to_none={set_to_none}):", "ok" if got == expected else got,
          [p.grad if p.grad is None else float(p.grad.abs().sum()) for p in opt.param_groups[0]["params"]])

# Nesterov's foreach step adds the buffer into the gradient list in place: without weight decay those are the
# parameters' own .grad tensors (torch._foreach_add_(device_grads, bufs, alpha=momentum)); the CPU's
# single-tensor path leaves .grad alone.
for device in ("cpu", "cuda"):
    torch.manual_seed(0)
    w = torch.ones(3, device=device, requires_grad=True)
    (w * 2).sum().backward()
    torch.optim.SGD([w], lr=0.1, momentum=0.5, nesterov=True).step()
    print("nesterov grad after step on", device, w.grad.tolist())

# The foreach grouping checks every index as PyTorch's _group_tensors_by_device_and_dtype does.
m = nn.Linear(2, 1)
adam = torch.optim.Adam(m.parameters())
m(torch.ones(1, 2)).sum().backward()
adam.step()
m.cuda()
m(torch.ones(1, 2, device="cuda")).sum().backward()
try:
    adam.step()
except RuntimeError as e:
    print("RuntimeError:", e)

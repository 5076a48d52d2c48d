# The optimizers' torch._foreach_* ops in C++ (engine/python/bindings_foreach.cpp, called by torch/optim/_foreach.py)
# against the per-tensor Python loops they stand in front of (DEVICESCOPE_PY_FOREACH=1), through
# tests/tools/run_foreach_agreement.py: parameters, state and step counters to the last bit, the version counters
# the steps leave, the state_dict's keys, and the allocator trace (the square roots, maximize's and weight decay's
# copies). Adam / AdamW (amsgrad, maximize, weight decay), SGD (momentum, dampening, Nesterov, maximize, weight
# decay), float32 and float64, parameters without a gradient, and cases the kernels leave to Python: a
# non-contiguous parameter, parameters on two devices, grad mode on; clip_grad_norm_ (grouping, norms, scaling).
import torch
from torch import nn
from torch.optim import _foreach

print("foreach kernels:", "on" if _foreach._FAST else "off")


def hexes(t):
    return " ".join(float(v).hex() for v in t.detach().double().reshape(-1).tolist())


def params(dev, dtype, seed, odd=False):
    torch.manual_seed(seed)
    m = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 3)).to(dev, dtype)
    ps = list(m.parameters())
    if odd:  # a transposed (non-contiguous) leaf: the kernels decline, Python runs the whole list
        ps.append(nn.Parameter(torch.randn(4, 3, device=dev, dtype=dtype).t()))
    ps.append(nn.Parameter(torch.randn(2, device=dev, dtype=dtype)))  # never gets a gradient
    return ps


def step_with(ps, opt, steps=3):
    for k in range(steps):
        torch.manual_seed(100 + k)
        for p in ps[:-1]:
            p.grad = torch.randn(p.shape, device=p.device, dtype=p.dtype)
        opt.step()
        opt.zero_grad(set_to_none=(k % 2 == 0))


def report(label, ps, opt):
    print(label)
    for i, p in enumerate(ps):
        print("  p", i, p._version, hexes(p))
    sd = opt.state_dict()
    for i, st in sorted(sd["state"].items()):
        for key, v in sorted(st.items()):
            print("  state", i, key, (v._version, hexes(v)) if isinstance(v, torch.Tensor) else v)


CONFIGS = [
    ("Adam", torch.optim.Adam, {}),
    ("Adam wd amsgrad", torch.optim.Adam, {"weight_decay": 0.1, "amsgrad": True}),
    ("Adam maximize wd", torch.optim.Adam, {"maximize": True, "weight_decay": 0.05, "lr": 0.01}),
    ("AdamW", torch.optim.AdamW, {"betas": (0.8, 0.9), "eps": 1e-6}),
    ("AdamW maximize amsgrad", torch.optim.AdamW, {"maximize": True, "amsgrad": True}),
    ("SGD", torch.optim.SGD, {"lr": 0.1}),
    ("SGD momentum", torch.optim.SGD, {"lr": 0.1, "momentum": 0.9}),
    ("SGD nesterov wd", torch.optim.SGD, {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD dampening maximize wd", torch.optim.SGD, {"lr": 0.05, "momentum": 0.5, "dampening": 0.25,
                                                    "maximize": True, "weight_decay": 0.01}),
]

torch.cuda.memory._record_memory_history(max_entries=100000)
for dtype in (torch.float32, torch.float64):
    for name, cls, kw in CONFIGS:
        for odd in (False, True):
            ps = params("cuda", dtype, 1, odd)
            opt = cls(ps, **kw)
            step_with(ps, opt)
            report(f"{name} {dtype} odd={odd}", ps, opt)

# parameters on two devices: two groups (the kernels' grouping declines, Python groups)
ps = params("cuda", torch.float32, 2) + [nn.Parameter(torch.randn(3, device="cuda:1"))]
opt = torch.optim.Adam(ps, lr=0.01)
step_with(ps, opt)
report("Adam two devices", ps, opt)
# the CPU: single-tensor paths (no foreach), unchanged
ps = params("cpu", torch.float32, 3)
opt = torch.optim.SGD(ps, lr=0.1, momentum=0.9)
step_with(ps, opt)
report("SGD cpu", ps, opt)
# foreach ops called with grad mode on (outside an optimizer's no_grad): the kernels decline
a = [torch.randn(3, device="cuda"), torch.randn(2, 2, device="cuda")]
b = [torch.randn(3, device="cuda"), torch.randn(2, 2, device="cuda")]
_foreach.add_list_(a, b, alpha=0.5)
_foreach.lerp_scalar_(a, b, 0.3)
_foreach.addcdiv_scalarlist_(a, b, [x.abs() + 1 for x in b], [0.5, -2])
print("grad mode on:", [hexes(x) for x in a], [x._version for x in a], [hexes(x) for x in _foreach.sqrt(b)])
# clip_grad_norm_: the grouping, _foreach_norm's values (into its 0-dim results) and _foreach_mul_ by a 0-dim tensor
for dtype in (torch.float32, torch.float64):
    for max_norm, norm_type in ((1.0, 2.0), (1e6, 2.0), (0.5, float("inf"))):
        ps = params("cuda", dtype, 4)
        for p in ps[:-1]:
            p.grad = torch.randn(p.shape, device="cuda", dtype=dtype) * 10
        total = torch.nn.utils.clip_grad_norm_(ps, max_norm, norm_type)
        print("clip:", dtype, max_norm, norm_type, hexes(total), [(p.grad._version, hexes(p.grad)) for p in ps[:-1]])

snap = torch.cuda.memory._snapshot()
for i, trace in enumerate(snap["device_traces"]):
    events = [f"{e['action']}:{e['size']}" for e in trace if e["action"] in ("alloc", "free_requested", "free_completed")]
    print(f"device {i} trace: {len(events)} events")
    for k in range(0, len(events), 12):
        print("  " + " ".join(events[k:k + 12]))

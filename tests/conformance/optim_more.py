# RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam and LBFGS against real PyTorch: defaults, state keys after
# the first step (Adagrad: made in the constructor), parameters after several steps on a fixed quadratic
# with options (momentum, centered, weight decay, lr_decay, maximize), state_dict round trip, LBFGS closure
# form with and without strong-Wolfe line search, and argument errors.
import torch
from torch import optim


def target():
    return torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])


def train(cls, steps=6, values=True, **kwargs):
    w = torch.nn.Parameter(torch.tensor([[1.0, -0.5, 0.25], [0.0, 2.0, -1.0]]))
    b = torch.nn.Parameter(torch.tensor([0.1, -0.2]))
    opt = cls([w, b], **kwargs)
    created = sorted(opt.state[w].keys())
    losses = []
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        loss = ((w - target()) ** 2).sum() + (b ** 2).sum() * 0.5 + (w[0] * w[1]).sum() * 0.1
        loss.backward()
        opt.step()
        losses.append(loss.item())
    state = opt.state[w]
    print(cls.__name__, kwargs, "state at construction", created)
    print("  keys", sorted(state.keys()), "step", float(state["step"]))
    for key in sorted(state.keys()):
        if key != "step" and isinstance(state[key], torch.Tensor):
            print("  ", key, tuple(state[key].shape), state[key].dtype, state[key].device)
            if values:
                print("    ", [f"{v:.5g}" for v in state[key].reshape(-1).tolist()])
    if values:
        print("  w", [f"{v:.5f}" for v in w.detach().flatten().tolist()], "b", [f"{v:.5f}" for v in b.detach().tolist()])
    print("  losses fall", losses[-1] < losses[0] if not kwargs.get("maximize") else losses[-1] > losses[0])
    sd = opt.state_dict()
    print("  state_dict", sorted(sd["state"].keys()), sorted(sd["state"][0].keys()))
    opt2 = cls([torch.nn.Parameter(w.detach().clone()), torch.nn.Parameter(b.detach().clone())], **kwargs)
    opt2.load_state_dict(sd)
    print("  reloaded", [sorted(s.keys()) for s in opt2.state.values()] == [sorted(s.keys()) for s in opt.state.values()])
    return opt


for cls, kwargs, shown in (
        (optim.RMSprop, {}, ("lr", "alpha", "eps", "weight_decay", "momentum", "centered")),
        (optim.Adagrad, {}, ("lr", "lr_decay", "weight_decay", "initial_accumulator_value", "eps")),
        (optim.Adadelta, {}, ("lr", "rho", "eps", "weight_decay")),
        (optim.Adamax, {}, ("lr", "betas", "eps", "weight_decay")),
        (optim.NAdam, {}, ("lr", "betas", "eps", "weight_decay", "momentum_decay")),
        (optim.RAdam, {}, ("lr", "betas", "eps", "weight_decay")),
        (optim.LBFGS, {}, ("lr", "max_iter", "max_eval", "tolerance_grad", "tolerance_change", "history_size",
                           "line_search_fn"))):
    g = cls([torch.nn.Parameter(torch.zeros(2))], **kwargs).param_groups[0]
    print(cls.__name__, [(k, g[k]) for k in shown])

train(optim.RMSprop, lr=0.05)
train(optim.RMSprop, lr=0.02, momentum=0.9, centered=True, weight_decay=0.01)
train(optim.RMSprop, lr=0.02, maximize=True)
train(optim.Adagrad, lr=0.3)
train(optim.Adagrad, lr=0.3, lr_decay=0.1, weight_decay=0.05, initial_accumulator_value=0.5)
train(optim.Adadelta)
train(optim.Adadelta, lr=2.0, rho=0.8, weight_decay=0.1)
train(optim.Adamax, lr=0.1)
train(optim.Adamax, lr=0.1, betas=(0.8, 0.9), weight_decay=0.02)
# NAdam: PyTorch 1.13's second update uses mu_product * mu * mu_next (fixed in 2.0 to mu_product * mu_next,
# which DeviceScope follows), so only its state layout is compared here
train(optim.NAdam, lr=0.1, values=False)
train(optim.NAdam, lr=0.1, values=False, momentum_decay=0.01, weight_decay=0.01)
train(optim.RAdam, lr=0.1, steps=8)
train(optim.RAdam, lr=0.1, steps=8, weight_decay=0.01)

# LBFGS: closure form
for kwargs in ({}, {"line_search_fn": "strong_wolfe"}, {"lr": 0.5, "max_iter": 5, "history_size": 3}):
    # float64: LBFGS stops when the loss changes by less than 1e-9, below float32's resolution at this loss,
    # so in float32 the iteration counts hinge on the last bit of every reduction (BLAS and summation order)
    w = torch.nn.Parameter(torch.tensor([[1.0, -0.5, 0.25], [0.0, 2.0, -1.0]], dtype=torch.float64))
    b = torch.nn.Parameter(torch.tensor([0.1, -0.2], dtype=torch.float64))
    opt = optim.LBFGS([w, b], **kwargs)
    calls = []

    def closure():
        opt.zero_grad()
        loss = ((w - target()) ** 4).sum() + (b ** 2).sum() + (w[0] * w[1]).sum() * 0.1
        loss.backward()
        calls.append(loss.item())
        return loss

    first = opt.step(closure)
    second = opt.step(closure)
    st = opt.state[w]
    print("LBFGS", kwargs, f"{first.item():.5f}", f"{second.item():.5f}", len(calls), st["func_evals"], st["n_iter"])
    print("  keys", sorted(st.keys()), len(st["old_dirs"]), tuple(st["d"].shape))
    print("  w", [f"{v:.4f}" for v in w.detach().flatten().tolist()], "b", [f"{v:.4f}" for v in b.detach().tolist()])


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)


p = [torch.nn.Parameter(torch.zeros(2))]
err(lambda: optim.RMSprop(p, lr=-1))
err(lambda: optim.RMSprop(p, alpha=-0.5))
err(lambda: optim.Adagrad(p, lr_decay=-1))
err(lambda: optim.Adagrad(p, initial_accumulator_value=-1))
err(lambda: optim.Adadelta(p, rho=1.5))
err(lambda: optim.Adamax(p, betas=(1.0, 0.9)))
err(lambda: optim.NAdam(p, momentum_decay=-1))
err(lambda: optim.RAdam(p, eps=-1))
err(lambda: optim.LBFGS([{"params": p}, {"params": [torch.nn.Parameter(torch.zeros(1))]}]))
err(lambda: optim.LBFGS(p, line_search_fn="armijo").step(lambda: (p[0] ** 2).sum()))

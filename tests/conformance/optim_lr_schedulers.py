# Learning-rate schedulers against real PyTorch: every scheduler's learning rates (printed in full: the
# arithmetic is PyTorch's term for term), momentum / beta1 cycling, get_last_lr, state_dict round trips,
# SequentialLR / ChainedScheduler, ReduceLROnPlateau on a metric, step(epoch) closed forms, the warnings for
# scheduler.step() before optimizer.step() and get_lr() outside step(), and argument errors.
import warnings

import torch
from torch import nn
from torch.optim import lr_scheduler as S


def make(opt_cls=torch.optim.SGD, groups=1, **kw):
    torch.manual_seed(0)
    model = nn.Linear(2, 2)
    if groups == 1:
        params = model.parameters()
    else:
        params = [{"params": [model.weight]}, {"params": [model.bias], "lr": 0.5}]
    kw.setdefault("lr", 0.1)
    return opt_cls(params, **kw)


def run(label, build, steps=12, opt_cls=torch.optim.SGD, groups=1, metric=None, extra=(), **kw):
    opt = make(opt_cls, groups, **kw)
    sched = build(opt)
    lrs = [sched.get_last_lr()[:]] if not isinstance(sched, S.ReduceLROnPlateau) else []
    extras = []
    for i in range(steps):
        opt.step()
        if metric is not None:
            sched.step(metric[i])
        else:
            sched.step()
        lrs.append(sched._last_lr[:])  # (1.13's ReduceLROnPlateau has no get_last_lr; 2.x's has)
        extras.append([tuple(g[k]) if isinstance(g[k], tuple) else g[k] for g in opt.param_groups for k in extra])
    print(label, type(sched).__name__, lrs)
    if extra:
        print("  ", extra, extras)
    return opt, sched


run("step", lambda o: S.StepLR(o, step_size=3, gamma=0.5))
run("multistep", lambda o: S.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3), groups=2)
run("exp", lambda o: S.ExponentialLR(o, gamma=0.9))
run("cos", lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.001), steps=16)
run("lambda", lambda o: S.LambdaLR(o, lambda e: 0.95 ** e), groups=2)
run("lambda2", lambda o: S.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: e * 0.1]), groups=2)
run("mult", lambda o: S.MultiplicativeLR(o, lambda e: 0.9))
run("constant", lambda o: S.ConstantLR(o, factor=0.25, total_iters=4))
run("linear", lambda o: S.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=6))
run("poly", lambda o: S.PolynomialLR(o, total_iters=7, power=2.0))
run("warm", lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), steps=14)
run("warm1", lambda o: S.CosineAnnealingWarmRestarts(o, T_0=4), steps=9)
run("cyclic", lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3), extra=("momentum",), momentum=0.9)
run("cyclic2", lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, step_size_down=3, mode="triangular2",
                                    cycle_momentum=False), steps=14)
run("cyclic_exp", lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9), momentum=0.5,
    extra=("momentum",))
run("cyclic_fn", lambda o: S.CyclicLR(o, 0.01, [0.1, 0.2], step_size_up=2, scale_fn=lambda x: 0.5 ** x,
                                      scale_mode="iterations", cycle_momentum=False), groups=2)
run("onecycle", lambda o: S.OneCycleLR(o, max_lr=0.1, total_steps=12), steps=11, extra=("momentum",),
    momentum=0.9)
run("onecycle_adam", lambda o: S.OneCycleLR(o, max_lr=[0.1, 0.2], epochs=2, steps_per_epoch=5, pct_start=0.25,
                                            anneal_strategy="linear"), steps=9, opt_cls=torch.optim.Adam, groups=2,
    extra=("betas",))
run("onecycle3", lambda o: S.OneCycleLR(o, max_lr=0.1, total_steps=10, three_phase=True, cycle_momentum=False),
    steps=9)
run("plateau", lambda o: S.ReduceLROnPlateau(o, patience=1, factor=0.5), steps=10,
    metric=[1.0, 0.9, 0.95, 0.97, 0.96, 0.5, 0.6, 0.7, torch.tensor(0.8), 0.9])
run("plateau_max", lambda o: S.ReduceLROnPlateau(o, mode="max", patience=0, cooldown=2, threshold=0.1,
                                                 threshold_mode="abs", min_lr=[0.03, 0.2]), groups=2, steps=9,
    metric=[1, 2, 2.05, 2.0, 1.0, 1.0, 3.0, 3.0, 3.0])


def seq(o):
    return S.SequentialLR(o, [S.LinearLR(o, start_factor=0.2, total_iters=3), S.ExponentialLR(o, gamma=0.8),
                              S.StepLR(o, 2)], milestones=[3, 6])


run("sequential", seq)
run("chained", lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=3),
                                             S.ExponentialLR(o, gamma=0.9)]))

# the step(epoch) closed forms (with PyTorch's deprecation warning)
for build in (lambda o: S.StepLR(o, 2), lambda o: S.MultiStepLR(o, [1, 3]), lambda o: S.ExponentialLR(o, 0.5),
              lambda o: S.CosineAnnealingLR(o, 10), lambda o: S.LinearLR(o, total_iters=4),
              lambda o: S.ConstantLR(o), lambda o: S.PolynomialLR(o, 4), lambda o: S.LambdaLR(o, lambda e: e + 1)):
    opt = make()
    sched = build(opt)
    opt.step()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = []
        for epoch in (3, 1, 5):
            sched.step(epoch)
            out.append(sched.get_last_lr()[0])
    print("closed", type(sched).__name__, out, [str(x.message)[:60] for x in w])

opt = make()
sched = S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=3)
out = []
for e in (0.5, 1.5, 2.25, 7.0, 8.5, 26.0, 3):
    sched.step(e)
    out.append((sched.T_cur, sched.T_i, sched.last_epoch, sched.get_last_lr()[0]))
print("warm_fractional", out)

# warnings: scheduler.step() before optimizer.step(), get_lr() outside step(), optimizer.step replaced
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    opt = make()
    sched = S.StepLR(opt, 1)
    sched.step()
    sched.step()
    print("before", [(x.category.__name__, str(x.message)) for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    opt = make()
    sched = S.StepLR(opt, 1)
    opt.step()
    sched.step()
    print("after", len(w), "get_lr", sched.get_lr(), [str(x.message) for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    opt = make()
    sched = S.ExponentialLR(opt, 0.5)
    opt.step = lambda closure=None: None
    sched.step()
    print("overridden", [str(x.message)[:70] for x in w])

# state_dict / load_state_dict round trips (1.13 keeps `verbose`, 2.x `_is_initial`: not printed)
_NEW_KEYS = ("verbose", "_is_initial")
opt = make()
sched = S.StepLR(opt, 2, gamma=0.5)
for _ in range(3):
    opt.step()
    sched.step()
sd = sched.state_dict()
print("sd", sorted(k for k in sd if k not in _NEW_KEYS), sd["last_epoch"], sd["_step_count"], sd["base_lrs"],
      sd["_last_lr"])
opt2 = make()
sched2 = S.StepLR(opt2, 5, gamma=0.1)
sched2.load_state_dict(sd)
print("loaded", sched2.step_size, sched2.gamma, sched2.last_epoch, sched2.get_last_lr())


class Scale:
    def __init__(self):
        self.k = 0.5

    def __call__(self, e):
        return self.k ** e


opt = make()
sched = S.LambdaLR(opt, [Scale()])
sd = sched.state_dict()
print("lambda sd", sd["lr_lambdas"], "lr_lambdas" in sd)
sched.lr_lambdas[0].k = 0.1
sched.load_state_dict(sd)
print("lambda restored", sched.lr_lambdas[0].k, "lr_lambdas" in sd)
opt = make()
sched = S.LambdaLR(opt, lambda e: 1.0)
print("function sd", sched.state_dict()["lr_lambdas"])
opt = make()
sched = seq(opt)
for _ in range(4):
    opt.step()
    sched.step()
sd = sched.state_dict()
print("seq sd", sorted(sd), [sorted(k for k in s if k not in _NEW_KEYS) for s in sd["_schedulers"]], sd["last_epoch"])
opt = make()
sched = S.ReduceLROnPlateau(opt, patience=0)
sched.step(1.0)
sched.step(2.0)
sd = sched.state_dict()
print("plateau sd", sd["best"], sd["num_bad_epochs"], sd["last_epoch"], sd["mode_worse"])

# resuming: last_epoch without initial_lr
opt = make()
try:
    S.StepLR(opt, 2, last_epoch=3)
except KeyError as e:
    print("KeyError", e)

# argument errors
for label, build in [
    ("not optimizer", lambda o: S.StepLR(object(), 2)),
    ("lambdas", lambda o: S.LambdaLR(o, [lambda e: 1, lambda e: 2])),
    ("constant", lambda o: S.ConstantLR(o, factor=1.5)),
    ("linear end", lambda o: S.LinearLR(o, end_factor=2.0)),
    ("plateau factor", lambda o: S.ReduceLROnPlateau(o, factor=1.0)),
    ("plateau mode", lambda o: S.ReduceLROnPlateau(o, mode="best")),
    ("plateau tmode", lambda o: S.ReduceLROnPlateau(o, threshold_mode="pct")),
    ("plateau min_lr", lambda o: S.ReduceLROnPlateau(o, min_lr=[0.1, 0.2])),
    ("warm T_0", lambda o: S.CosineAnnealingWarmRestarts(o, T_0=0)),
    ("warm T_mult", lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=1.5)),
    ("cyclic mode", lambda o: S.CyclicLR(o, 0.1, 1.0, mode="sine")),
    ("onecycle none", lambda o: S.OneCycleLR(o, 0.1)),
    ("onecycle steps", lambda o: S.OneCycleLR(o, 0.1, total_steps=0)),
    ("onecycle epochs", lambda o: S.OneCycleLR(o, 0.1, epochs=-1, steps_per_epoch=3)),
    ("onecycle pct", lambda o: S.OneCycleLR(o, 0.1, total_steps=5, pct_start=1)),
    ("sequential milestones", lambda o: S.SequentialLR(o, [S.StepLR(o, 1), S.StepLR(o, 2)], milestones=[])),
]:
    try:
        build(make(momentum=0.9))
        print(label, "no error")
    except (TypeError, ValueError, KeyError) as e:
        print(label, type(e).__name__, e)
warm_opt = make()
sched = S.CosineAnnealingWarmRestarts(warm_opt, T_0=2)
try:
    sched.step(-1)
except ValueError as e:
    print("warm negative", e)
opt = make(momentum=0.9)
sched = S.OneCycleLR(opt, 0.1, total_steps=3)
try:
    for _ in range(5):
        opt.step()
        sched.step()
except ValueError as e:
    print("onecycle past end", type(e).__name__, str(e).split(".")[1])
print("all", sorted(n for n in S.__all__ if n not in ("LRScheduler", "ParamwiseScheduler")))

# verbose=True prints each adjustment (2.x also warns that the argument is deprecated: not printed)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    opt = make(momentum=0.9)
    sched = S.StepLR(opt, 1, gamma=0.5, verbose=True)
    opt.step()
    sched.step()
    sched.step(4)
    plateau = S.ReduceLROnPlateau(opt, patience=0, verbose=True)
    for metric in (1.0, 2.0, 3.0):
        plateau.step(metric)

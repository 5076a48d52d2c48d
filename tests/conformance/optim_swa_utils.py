# torch.optim.swa_utils against real PyTorch: AveragedModel (SWA average, custom avg_fn for EMA, use_buffers,
# n_averaged, state_dict keys, repr, forward), update_bn (BatchNorm statistics recomputed
# in one pass, momentum and training mode restored), SWALR's annealed learning rates (cos and linear, one
# and two groups, anneal_epochs=0) and its argument errors. (2.x's get_ema_multi_avg_fn & co. and the buffer sync without use_buffers are not in 1.13.)
import torch
from torch import nn
from torch.optim.swa_utils import SWALR, AveragedModel, update_bn


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().flatten().tolist()]


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
swa = AveragedModel(model)
print(swa)
print("keys", list(swa.state_dict().keys()))
print("n_averaged", swa.n_averaged, swa.n_averaged.dtype)
print("copy", swa.module is not model, swa.module[0].weight is not model[0].weight)
snapshots = []
for k in range(3):
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.1 * (k + 1))
    model.train()
    model(torch.randn(5, 3))  # moves the BatchNorm statistics
    swa.update_parameters(model)
    snapshots.append(r(swa.module[0].weight))
print("swa weight", snapshots)
print("swa bias", r(swa.module[3].bias), "n", swa.n_averaged.item())
print("requires_grad", [p.requires_grad for p in swa.parameters()], swa.module[0].weight.grad_fn)
x = torch.randn(4, 3)
print("forward", r(swa(x)))  # (train mode: 2.x copies the buffers on update, 1.13 does not; batch statistics here)

ema = AveragedModel(model, avg_fn=lambda avg, cur, n: 0.9 * avg + 0.1 * cur, use_buffers=True)
for k in range(3):
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(0.5)
    model(torch.randn(5, 3))
    ema.update_parameters(model)
print("ema", r(ema.module[0].bias), r(ema.module[1].running_var), ema.module[1].num_batches_tracked.item())

# update_bn
torch.manual_seed(1)
data = [torch.randn(6, 3) * 2 + 1 for _ in range(4)]
loader = [(d, torch.zeros(6)) for d in data]
swa.eval()
update_bn(loader, swa)
bn = swa.module[1]
print("update_bn", r(bn.running_mean), r(bn.running_var), bn.num_batches_tracked.item(), bn.momentum, swa.training)
update_bn(data, model)
print("update_bn plain", r(model[1].running_mean), model[1].momentum, model.training)
update_bn(loader, nn.Linear(3, 3))
print("no bn ok")

# SWALR
for strategy in ("cos", "linear"):
    for epochs in (0, 1, 3):
        opt = torch.optim.SGD([{"params": [torch.zeros(2, requires_grad=True)]},
                               {"params": [torch.zeros(2, requires_grad=True)], "lr": 0.2}], lr=0.5)
        sched = SWALR(opt, swa_lr=[0.05, 0.01], anneal_epochs=epochs, anneal_strategy=strategy)
        lrs = [sched.get_last_lr()]
        for _ in range(5):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
        print("swalr", strategy, epochs, lrs)
opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
sched = SWALR(opt, swa_lr=0.02, anneal_epochs=2)
sd = sched.state_dict()  # (2.x keeps _anneal_strategy in place of 1.13's anneal_func: keys not printed)
print("swa_lr group", opt.param_groups[0]["swa_lr"], sd["anneal_epochs"], sd["last_epoch"], sd["base_lrs"])
for label, make in [("strategy", lambda: SWALR(opt, 0.1, anneal_strategy="exp")),
                    ("epochs", lambda: SWALR(opt, 0.1, anneal_epochs=-1)),
                    ("epochs float", lambda: SWALR(opt, 0.1, anneal_epochs=2.0))]:
    try:
        make()
    except ValueError as e:
        print(label, e)

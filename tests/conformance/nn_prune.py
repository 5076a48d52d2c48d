# torch.nn.utils.prune against real PyTorch: l1_unstructured, random_unstructured (seeded), ln_structured,
# random_structured, custom_from_mask, identity, global_unstructured, iterative pruning through a
# PruningContainer, remove, is_pruned; the weight_orig parameter and weight_mask buffer, state_dict keys, the
# pruned weight's values and gradient (through the mask), and argument errors.
import torch
from torch import nn
from torch.nn.utils import prune


def r(t):
    return [round(v, 5) + 0.0 for v in t.detach().flatten().tolist()]


def names(m):
    return [n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()], list(m.state_dict().keys())


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


torch.manual_seed(0)
m = nn.Linear(4, 3)
print(prune.is_pruned(m))
prune.l1_unstructured(m, "weight", amount=0.5)
print(names(m), prune.is_pruned(m))
print(r(m.weight_mask), r(m.weight), type(m.weight.grad_fn).__name__)
hook = [h for h in m._forward_pre_hooks.values()][0]
print(type(hook).__name__, hook._tensor_name, hook.amount)
y = m(torch.ones(2, 4))
y.sum().backward()
print(r(m.weight_orig.grad))
prune.random_unstructured(m, "weight", amount=2)
hook = [h for h in m._forward_pre_hooks.values()][0]
print(type(hook).__name__, len(hook), [type(h).__name__ for h in hook], r(m.weight_mask))
prune.ln_structured(m, "weight", amount=1, n=2, dim=0)
print(r(m.weight_mask))
prune.remove(m, "weight")
print(names(m), r(m.weight), prune.is_pruned(m), type(m.weight).__name__)
err(lambda: prune.remove(m, "weight"))

c = nn.Conv2d(2, 4, 3)
prune.random_structured(c, "weight", amount=0.5, dim=0)
print(r(c.weight_mask.sum((1, 2, 3))))
prune.l1_unstructured(c, "bias", amount=0.25)
print(names(c), r(c.bias_mask))
prune.custom_from_mask(c, "weight", mask=torch.arange(72).reshape(4, 2, 3, 3) % 3 != 0)
print(int(c.weight_mask.sum().item()), r(c.weight_mask[0, 0]))
prune.identity(c, "weight")
print(int(c.weight_mask.sum().item()))

net = nn.Sequential(nn.Linear(5, 4), nn.ReLU(), nn.Linear(4, 2))
params = [(net[0], "weight"), (net[2], "weight"), (net[0], "bias")]
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=10)
print([int(getattr(mod, n + "_mask").sum().item()) for mod, n in params], names(net))
print(r(net[0].weight_mask), r(net[2].weight_mask))
lin = net[0]
prune.l1_unstructured(lin, "weight", amount=3, importance_scores=torch.arange(20.).reshape(4, 5).flip(0))
print(r(lin.weight_mask))

err(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5))
err(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=-1))
err(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount="x"))
err(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5))
err(lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=2, dim=0))
err(lambda: prune.ln_structured(nn.Linear(2, 2), "weight", amount=1, n=2, dim=3))
err(lambda: prune.global_unstructured(5, prune.L1Unstructured, amount=1))
err(lambda: prune.global_unstructured([(net[2], "bias")], prune.RandomStructured, amount=1))
lin = nn.Linear(3, 3)
err(lambda: prune.l1_unstructured(lin, "weight", amount=10))
print(names(lin))

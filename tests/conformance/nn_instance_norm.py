# Instance normalisation against real PyTorch: nn.InstanceNorm1d/2d/3d (affine, track_running_stats, train and
# eval, unbatched inputs) and F.instance_norm - values and gradients in float64, the graph ATen builds
# (batch_norm over the input viewed as one sample of N*C channels: ViewBackward0 on top, RepeatBackward0 on the
# affine parameters), running statistics (the mean over the batch's copies), buffers, state_dict keys, reprs
# and errors. Left out (1.13 vs 2.x): the batch norm node's name; the num_features mismatch check (2.x only).
import torch
from torch import nn
import torch.nn.functional as F


def head(t):
    v = t.detach().flatten().tolist()
    return [round(a, 6) + 0.0 for a in v[:4]] + [round(sum(v), 6) + 0.0, round(sum(a * a for a in v), 3) + 0.0]


def r(t):
    return [round(v, 6) + 0.0 for v in t.detach().flatten().tolist()]


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        print(type(e).__name__, e)


torch.manual_seed(0)
for cls, shape in [(nn.InstanceNorm1d, (3, 4, 6)), (nn.InstanceNorm2d, (2, 4, 3, 5)), (nn.InstanceNorm3d, (2, 4, 2, 3, 2))]:
    for kw in [dict(), dict(affine=True), dict(track_running_stats=True), dict(affine=True, track_running_stats=True,
                                                                               momentum=0.3, eps=1e-3)]:
        m = cls(4, **kw).double()
        print(m, list(m.state_dict().keys()), [n for n, _ in m.named_buffers()])
        if m.affine:
            with torch.no_grad():
                m.weight.copy_(torch.linspace(0.5, 2.0, 4))
                m.bias.copy_(torch.linspace(-1.0, 1.0, 4))
        x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
        y = m(x)
        fn = y.grad_fn
        print(" ", type(fn).__name__, [type(n[0]).__name__ if n[0] is not None else None
                                     for n in fn.next_functions[0][0].next_functions])
        print("  y", head(y))
        (y * torch.linspace(-1, 1, y.numel(), dtype=torch.float64).reshape(y.shape).cos()).sum().backward()
        print("  grads", head(x.grad), r(m.weight.grad) if m.affine else None, r(m.bias.grad) if m.affine else None)
        if m.track_running_stats:
            print("  running", r(m.running_mean), r(m.running_var), m.num_batches_tracked.item())
        m.eval()
        y = m(x.detach()[:1])
        print("  eval", head(y))
        y = m(x.detach()[0])
        print("  unbatched", tuple(y.shape), head(y))

print("--- F.instance_norm")
x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
y = F.instance_norm(x, rm, rv, use_input_stats=True, momentum=0.5)
print(head(y), r(rm), r(rv))
y = F.instance_norm(x, rm, rv, use_input_stats=False)
print(head(y), type(y.grad_fn).__name__)
err(lambda: F.instance_norm(x, use_input_stats=False))
err(lambda: F.instance_norm(torch.randn(2, 3, 1)))
err(lambda: nn.InstanceNorm2d(3)(torch.randn(2, 3)))
err(lambda: nn.InstanceNorm1d(3)(torch.randn(2, 3, 4, 5)))
err(lambda: nn.InstanceNorm3d(3)(torch.randn(2, 3)))
err(lambda: F.instance_norm(x, weight=torch.ones(4, dtype=torch.float64)))
m = nn.InstanceNorm2d(3, affine=True)
sd = m.state_dict()
sd["running_mean"] = torch.zeros(3)
err(lambda: m.load_state_dict(sd))

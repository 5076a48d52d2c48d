# F.pad in reflect / replicate / circular modes and the padding layers, F.interpolate / nn.Upsample /
# UpsamplingNearest2d / UpsamplingBilinear2d (nearest, linear, bilinear, trilinear, with and without
# align_corners, sizes and scale factors, down- and upsampling) against real PyTorch: values and gradients,
# the pads' grad_fn names and saved padding, module reprs, argument errors.
# Left out (1.13 vs 2.x): the upsample nodes' names (1.13: the .vec overloads' UpsampleNearest2DBackward1 & co.,
# 2.x: UpsampleNearest2DBackward0), Upsample's repr (2.x quotes the mode), circular padding of an unbatched
# input (1.13 refuses it), circular's graph below its CopySlices.
import torch
from torch import nn
import torch.nn.functional as F


def r(t):
    return [round(v, 4) for v in t.detach().flatten().tolist()]


def run(label, f, x, graph=True):
    x = x.clone().requires_grad_(True)
    y = f(x)
    info = ""
    if graph:
        fn = y.grad_fn
        padding = getattr(fn, "_saved_padding", None)  # (negative ints print unsigned in 1.13)
        info = (type(fn).__name__, padding if padding is None or all(0 <= p < 2 ** 31 for p in padding) else "negative")
    y.backward(torch.linspace(0.5, 1.5, y.numel()).reshape(y.shape))
    print(label, info, tuple(y.shape), r(y), "grad", r(x.grad))


x1 = torch.arange(10.0).reshape(1, 2, 5) / 4 - 1
x2 = torch.arange(24.0).reshape(1, 2, 3, 4) / 5 - 2
torch.manual_seed(0)
x3 = torch.randn(2, 1, 2, 3, 3)
for mode in ("reflect", "replicate", "circular"):
    run(mode + "1d", lambda t: F.pad(t, (2, 1), mode=mode), x1)
    run(mode + "1d_neg", lambda t: F.pad(t, (-1, 2), mode=mode), x1)
    run(mode + "2d", lambda t: F.pad(t, (1, 2, 2, 1), mode=mode), x2)
    if mode != "circular":
        run(mode + "2d_nobatch", lambda t: F.pad(t, (1, 1, 1, 1), mode=mode), x2[0])
    run(mode + "3d", lambda t: F.pad(t, (1, 1, 0, 1, 1, 0), mode=mode), x3)
    if mode != "circular":
        run(mode + "1d_nobatch", lambda t: F.pad(t, (1, 2), mode=mode), x1[0])
run("constant", lambda t: F.pad(t, (1, 2, 0, 1), value=2.5), x2)
run("constant_last", lambda t: F.pad(t, (1, 1)), x2)

for m in (nn.ReflectionPad1d(2), nn.ReflectionPad1d((1, 0)), nn.ReplicationPad1d((0, 3)), nn.ZeroPad2d(1),
          nn.ZeroPad2d((1, 0, 0, 2)), nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((1, 2, 0, 1), -1.0),
          nn.ReflectionPad2d(1), nn.ReplicationPad2d((1, 0, 2, 1)), nn.ConstantPad3d(1, 0.5),
          nn.ReplicationPad3d(1), nn.ReflectionPad3d((1, 0, 1, 0, 0, 1))):
    inp = {1: x1, 2: x2, 3: x3}[len(m.padding) // 2]
    y = m(inp)
    print(repr(m), m.padding, tuple(y.shape), r(y)[:12], round(y.sum().item(), 4))

# interpolate
cases = [
    ("near_x2", x1, dict(scale_factor=2)),
    ("near_size7", x1, dict(size=7)),
    ("near_down", x1, dict(size=3)),
    ("near_1.5", x1, dict(scale_factor=1.5)),
    ("near_2d", x2, dict(scale_factor=(2, 1.5))),
    ("near_2d_size", x2, dict(size=(5, 3))),
    ("near_exact", x1, dict(size=7, mode="nearest-exact")),
    ("near_3d", x3, dict(scale_factor=2)),
    ("lin", x1, dict(scale_factor=2, mode="linear")),
    ("lin_ac", x1, dict(scale_factor=2, mode="linear", align_corners=True)),
    ("lin_size", x1, dict(size=8, mode="linear")),
    ("lin_down", x1, dict(size=3, mode="linear")),
    ("lin_down_ac", x1, dict(size=3, mode="linear", align_corners=True)),
    ("lin_size1_ac", x1, dict(size=1, mode="linear", align_corners=True)),
    ("bil", x2, dict(scale_factor=2, mode="bilinear")),
    ("bil_ac", x2, dict(scale_factor=2, mode="bilinear", align_corners=True)),
    ("bil_size", x2, dict(size=(4, 7), mode="bilinear")),
    ("bil_down", x2, dict(size=(2, 3), mode="bilinear")),
    ("bil_1.7", x2, dict(scale_factor=1.7, mode="bilinear")),
    ("bil_recompute", x2, dict(scale_factor=1.7, mode="bilinear", recompute_scale_factor=True)),
    ("bil_same", x2, dict(size=(3, 4), mode="bilinear")),
    ("tri", x3, dict(scale_factor=(1, 2, 2), mode="trilinear")),
    ("tri_ac", x3, dict(size=(3, 4, 2), mode="trilinear", align_corners=True)),
    ("area", x2, dict(size=(2, 2), mode="area")),
]
for label, inp, kw in cases:
    run(label, lambda t: F.interpolate(t, **kw), inp, graph=False)
run("bil_double", lambda t: F.interpolate(t, scale_factor=2, mode="bilinear"), x2.double(), graph=False)

for name, f in [("reflect", lambda t: F.pad(t.reshape(1, 2, 3), (2, 1), mode="reflect") ** 2),
                ("replicate", lambda t: F.pad(t.reshape(1, 2, 3), (2, 1), mode="replicate") ** 2),
                ("bilinear", lambda t: F.interpolate(t.reshape(1, 1, 2, 3), scale_factor=2, mode="bilinear") ** 2)]:
    x = torch.linspace(-2, 2, 6, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    gg, = torch.autograd.grad((g * torch.arange(6.0, dtype=torch.float64)).sum(), x)
    print("double", name, r(g), r(gg))
# a non-finite input stays where the kernels put it (inf spreads only to the outputs that read it)
xi = torch.tensor([[[1.0, float("inf"), 3.0, -2.0, float("nan")]]])
print(r(F.pad(xi, (2, 2), mode="reflect")), r(F.pad(xi, (1, 2), mode="replicate")), r(F.pad(xi, (2, 1), mode="circular")))
print(r(F.interpolate(xi, scale_factor=2, mode="linear")), r(F.interpolate(xi, size=7)),
      r(F.interpolate(xi, size=8, mode="linear", align_corners=True)))
for m in (nn.Upsample(scale_factor=2), nn.Upsample(size=(5, 6), mode="bilinear"),
          nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True), nn.UpsamplingNearest2d(size=(4, 4)),
          nn.UpsamplingBilinear2d(scale_factor=2)):
    y = m(x2)
    print(type(m).__name__, m.size, m.scale_factor, m.mode, m.align_corners, tuple(y.shape), r(y)[:10])
print(nn.Upsample(size=3).size, nn.Upsample(scale_factor=(2, 3)).scale_factor)


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])


x = torch.randn(2, 3)
err(lambda: F.pad(x.unsqueeze(0), (3, 3), mode="reflect"))
err(lambda: F.pad(x.unsqueeze(0), (1, 1), mode="reflect", value=1.0))
err(lambda: F.pad(x.unsqueeze(0), (1, 1), mode="foo"))
err(lambda: F.pad(x.unsqueeze(0), (4, 4), mode="circular"))
err(lambda: F.pad(x, (1,), mode="reflect"))
err(lambda: F.pad(x, (1, 1, 1, 1, 1, 1), mode="reflect"))
err(lambda: F.pad(torch.randn(2, 3, 4, 5, 6, 7), (1, 1), mode="replicate"))
err(lambda: F.interpolate(x, scale_factor=2))
err(lambda: F.interpolate(x.unsqueeze(0), scale_factor=2, mode="bilinear"))
err(lambda: F.interpolate(x.unsqueeze(0), size=4, scale_factor=2))
err(lambda: F.interpolate(x.unsqueeze(0)))
err(lambda: F.interpolate(x.unsqueeze(0), size=4, align_corners=True))
err(lambda: F.interpolate(x.unsqueeze(0), size=(4, 4)))
err(lambda: F.interpolate(x.unsqueeze(0), scale_factor=(2, 2)))
err(lambda: F.interpolate(x.unsqueeze(0).unsqueeze(0), size=4, mode="linear"))
err(lambda: F.interpolate(x.unsqueeze(0), size=4, mode="foo"))
err(lambda: F.interpolate(x.unsqueeze(0), size=4, recompute_scale_factor=True))

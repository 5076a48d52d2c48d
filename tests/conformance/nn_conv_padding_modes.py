# Conv1d / Conv2d / Conv3d with padding_mode 'reflect', 'replicate', 'circular' (and 'zeros') against real
# PyTorch: the module pads with F.pad(_reversed_padding_repeated_twice) and convolves without padding, also for
# padding='same' with an even effective kernel; values and gradients in float64, the graph's top node, repr.
import torch
from torch import nn


def head(t):
    v = t.detach().flatten().tolist()
    return [round(a, 5) + 0.0 for a in v[:5]] + [round(sum(v), 5) + 0.0]


torch.manual_seed(0)
for mode in ["reflect", "replicate", "circular", "zeros"]:
    for cls, shape, kw in [(nn.Conv2d, (2, 3, 6, 7), dict(padding=(1, 2))),
                           (nn.Conv1d, (2, 3, 9), dict(padding=2, stride=2)),
                           (nn.Conv3d, (1, 3, 4, 5, 6), dict(padding=1)),
                           (nn.Conv2d, (2, 3, 6, 7), dict(padding="same", dilation=2, kernel_size=4))]:
        k = kw.pop("kernel_size", 3)
        m = cls(3, 4, k, padding_mode=mode, **kw).double()
        x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
        y = m(x)
        y.pow(2).sum().backward()
        print(mode, cls.__name__, m._reversed_padding_repeated_twice, tuple(y.shape), type(y.grad_fn).__name__)
        print("  ", head(y), head(x.grad), head(m.weight.grad))
print(nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect"))
print(nn.Conv3d(3, 4, 3, padding=1, padding_mode="circular"))

# source: https://pytorch.org/tutorials/intermediate/torch_compile_tutorial.html (Introduction to torch.compile)
# changed: sizes cut (MLP 100->10, 20 timing iterations, no torchvision resnet); the timing comparison is
#          printed, not asserted; DeviceScope's torch.compile returns the model unchanged (no graph capture), so
#          the checks are the tutorial's own: compiled and eager results agree, decorated functions run, the
#          compiled module trains.
# reference: none: torch.compile is PyTorch 2.x
import torch


def foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


opt_foo1 = torch.compile(foo)
print(opt_foo1(torch.randn(10, 10), torch.randn(10, 10)).shape)


@torch.compile
def opt_foo2(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


x, y = torch.randn(10, 10), torch.randn(10, 10)
same_fn = torch.allclose(opt_foo2(x, y), foo(x, y))


class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(100, 10)

    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x))


device = "cuda" if torch.cuda.is_available() else "cpu"
mod = MyModule().to(device)
opt_mod = torch.compile(mod)
inp = torch.randn(10, 100, device=device)
same_mod = torch.allclose(opt_mod(inp), mod(inp))


def timed(fn):
    start = torch.cuda.Event(enable_timing=True) if device == "cuda" else None
    end = torch.cuda.Event(enable_timing=True) if device == "cuda" else None
    if start is not None:
        start.record()
    result = fn()
    if end is not None:
        end.record()
        torch.cuda.synchronize()
        return result, start.elapsed_time(end) / 1000
    return result, 0.0


opt = torch.optim.SGD(opt_mod.parameters(), lr=0.1)
losses = []
for _ in range(20):
    out, t = timed(lambda: opt_mod(inp))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print("eager/compiled iteration time (s):", round(t, 6))

# Checks of what it computed.
assert same_fn and same_mod and losses[-1] < losses[0], losses
assert next(opt_mod.parameters()).device.type == device
print("checks passed")

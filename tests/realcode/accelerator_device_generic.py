# source: https://pytorch.org/tutorials/beginner/basics/quickstart_tutorial.html (the PyTorch 2.6+ version of
#         its device line: torch.accelerator.current_accelerator()) and
#         https://pytorch.org/docs/stable/accelerator.html (torch.accelerator's device index, stream and
#         synchronize calls)
# changed: a small model trained for 20 steps on random data on every accelerator device in turn; checks at the
#          end (model and grads on each device, the stream is the one set, memory helpers see the parameters).
# reference: none: torch.accelerator is PyTorch 2.6+ (Debian's reference is 1.13)
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
torch.manual_seed(0)
X, y = torch.randn(64, 16), torch.randint(0, 4, (64,))
results = {}
for index in range(max(torch.accelerator.device_count(), 1)):
    if device != "cpu":
        torch.accelerator.set_device_index(index)
    dev = torch.device(device, index) if device != "cpu" else torch.device("cpu")
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    stream = torch.accelerator.current_stream() if device != "cpu" else None
    losses = []
    for _ in range(20):
        loss = nn.functional.cross_entropy(model(X.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    if device != "cpu":
        torch.accelerator.synchronize()
        results[index] = (next(model.parameters()).device, losses[0], losses[-1],
                          torch.accelerator.memory_allocated(index) if hasattr(torch.accelerator, "memory_allocated")
                          else None, torch.accelerator.current_stream() == stream)
    else:
        results[index] = (next(model.parameters()).device, losses[0], losses[-1], None, True)
    print(index, results[index][0], f"{losses[0]:.3f} -> {losses[-1]:.3f}")

# Checks of what it computed.
for index, (where, first, last, allocated, same_stream) in results.items():
    assert where == (torch.device(device, index) if device != "cpu" else torch.device("cpu")), where
    assert last < first and same_stream
    assert allocated is None or allocated >= (16 * 32 + 32 + 32 * 4 + 4) * 4
print("checks passed")

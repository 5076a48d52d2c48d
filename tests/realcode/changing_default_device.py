# source: https://pytorch.org/tutorials/recipes/recipes/changing_default_device.html (Changing default device)
# changed: the recipe's snippets run in sequence with a GPU from DeviceScope; checks at the end (where each
#          factory allocated, module parameters built under the default device).
# reference: none: torch.set_default_device / get_default_device are PyTorch 2.x
import torch

assert torch.cuda.is_available()
print(torch.get_default_device() if hasattr(torch, "get_default_device") else "cpu")
with torch.device('cuda'):
    mod = torch.nn.Linear(20, 30)
    print(mod.weight.device)
    print(mod(torch.randn(128, 20)).device)
    inside = torch.get_default_device() if hasattr(torch, "get_default_device") else None

torch.set_default_device('cuda')
mod = torch.nn.Linear(20, 30)
print(mod.weight.device)
print(mod(torch.randn(128, 20)).device)
explicit_cpu = torch.ones(2, device="cpu")
torch.set_default_device('cpu')
after = torch.ones(2)

# Checks of what it computed.
assert mod.weight.device.type == "cuda" and explicit_cpu.device.type == "cpu" and after.device.type == "cpu"
assert inside is None or inside.type == "cuda"
print("checks passed")

# devicescope-args: --sim-devices 1 --link pcie5-x16
# torch.utils.checkpoint.checkpoint (use_reentrant=False and True): the same gradients as without it, the
# activations of the checkpointed blocks gone after the forward (only their inputs kept), recomputed in backward.
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(64)
        self.up = nn.Linear(64, 256)
        self.down = nn.Linear(256, 64)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


def run(mode):
    torch.manual_seed(0)
    blocks = nn.ModuleList(Block() for _ in range(4)).to("cuda")
    x = torch.randn(32, 64, device="cuda", requires_grad=True)
    base = torch.cuda.memory_allocated()
    h = x
    for b in blocks:
        h = b(h) if mode is None else checkpoint(b, h, use_reentrant=mode)
    after_forward = torch.cuda.memory_allocated() - base
    h.pow(2).mean().backward()
    grads = [p.grad.clone() for p in blocks.parameters()] + [x.grad.clone()]
    return after_forward, grads


run(None)  # (the first matmuls allocate the cuBLAS workspaces: kept out of the figures below)
plain_mem, plain = run(None)
for mode in (False, True):
    mem, grads = run(mode)
    same = all(torch.equal(a, b) for a, b in zip(plain, grads))
    print(f"use_reentrant={mode}: gradients equal: {same}; held after forward {mem} B (without checkpoint "
          f"{plain_mem} B)")

# checkpoint_sequential: 8 layers in 4 segments, the last one run plainly; same gradients as without.
from torch.utils.checkpoint import checkpoint_sequential  # noqa: E402


def sequential(segments):
    torch.manual_seed(0)
    net = nn.Sequential(*(Block() for _ in range(8))).to("cuda")
    x = torch.randn(32, 64, device="cuda", requires_grad=True)
    out = net(x) if segments is None else checkpoint_sequential(net, segments, x, use_reentrant=False)
    out.pow(2).mean().backward()
    return [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]


print("checkpoint_sequential(4 segments): gradients equal:",
      all(torch.equal(a, b) for a, b in zip(sequential(None), sequential(4))))

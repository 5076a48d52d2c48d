# DistributedDataParallel on the CPU with the gloo backend, launched by torchrun (two ranks): each rank
# trains on its own shard, DDP all-reduces the gradients.
# launcher: torchrun 2
# expect-exit: 0
# expect-stdout: rank 0 step 2
# expect-owners: ddp_model.module.fc.weight, ddp_model.module.fc.weight.grad
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(12, 3)

    def forward(self, x):
        return self.fc(x)


dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
ddp_model = DDP(Model())
optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.1)
torch.manual_seed(rank)
x, y = torch.randn(8, 12), torch.randn(8, 3)
for step in range(3):
    optimizer.zero_grad()
    nn.functional.mse_loss(ddp_model(x), y).backward()
    optimizer.step()
    print("rank %d step %d" % (rank, step), flush=True)
weights = [torch.empty_like(ddp_model.module.fc.weight) for _ in range(world)]
dist.all_gather(weights, ddp_model.module.fc.weight.detach())
assert all(torch.equal(w, weights[0]) for w in weights), "DDP ranks diverged"
dist.destroy_process_group()
assert int(os.environ["WORLD_SIZE"]) == world

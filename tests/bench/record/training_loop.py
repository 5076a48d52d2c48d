# The training loop record_overhead.py times, with and without the recorder: an MLP, Adam, a few steps.
# Prints the seconds the loop took, wall and CPU (import torch, model set-up and the recorder's start and file
# are excluded).
#   training_loop.py WIDTH BATCH STEPS LAYERS
import sys
import time

import torch
import torch.nn as nn

width, batch, steps, layers = (int(v) for v in sys.argv[1:5])
torch.manual_seed(0)
torch.set_num_threads(1)  # the same CPU work in both runs, whatever else the machine does
model = nn.Sequential(*[m for _ in range(layers) for m in (nn.Linear(width, width), nn.ReLU())], nn.Linear(width, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
data, target = torch.randn(batch, width), torch.randint(0, 10, (batch,))
loss_fn = nn.CrossEntropyLoss()


def step():
    optimizer.zero_grad()
    loss = loss_fn(model(data.double().float()), target)  # a dtype round trip: two copies a step
    loss.backward()
    optimizer.step()
    return loss


step()  # warm-up: Adam's state, allocator caches
t0, c0 = time.perf_counter(), time.process_time()
for _ in range(steps):
    step()
# The process's CPU time too: on a loaded machine the wall clock also counts the time others had the CPU.
print("loop_seconds %.6f loop_cpu_seconds %.6f" % (time.perf_counter() - t0, time.process_time() - c0))

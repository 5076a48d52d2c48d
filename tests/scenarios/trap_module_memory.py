# SEMANTICS 3, 8, 9: what a module move does to GPU memory. Linear(1024, 1024): a 4 MiB weight (20 MiB large-pool
# segment) and a 4 KiB bias (2 MiB small-pool segment). Moving back to the CPU frees the GPU blocks (the
# Parameters now point at new CPU storage) but the segments stay reserved and are reused by the next move.
# A handle taken from a parameter (detach) keeps its old GPU storage alive.
import torch
import torch.nn as nn

def show(label):
    print(label, torch.cuda.memory_allocated(), torch.cuda.memory_reserved())

model = nn.Linear(1024, 1024)
show('start')
model.cuda()
show('cuda')
model.cpu()
show('cpu')
model.cuda()
show('cuda again')
g = model.weight.detach()
model.cpu()
show('cpu, detached handle alive')
print(g.device, model.weight.device)
del g
show('handle dropped')
model.to('cuda:1')
print(torch.cuda.memory_allocated(1), torch.cuda.memory_reserved(1))
show('cuda:0 after move to cuda:1')
torch.cuda.empty_cache()
show('empty_cache')

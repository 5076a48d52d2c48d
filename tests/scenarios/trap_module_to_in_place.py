# SEMANTICS 3: Module.to / cuda / cpu convert in place, recursively (Sequential, ModuleList, ModuleDict at any
# depth), eagerly, and return self; Parameters keep their identity, so every alias sees the move.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 4), nn.ModuleList([nn.Linear(4, 2)]),
                      nn.ModuleDict({'head': nn.Sequential(nn.Linear(2, 1))}))
alias = model
w = model[0].weight
params_before = list(model.parameters())
returned = model.to('cuda')
print(returned is model, alias is model)
print(w is model[0].weight, w.device)
print(all(a is b for a, b in zip(params_before, model.parameters())))
print(sorted({str(p.device) for p in model.parameters()}))
print(model[1][0].weight.device, model[2]['head'][0].bias.device)
print(model.cpu() is model, w.device)
m2 = model.cuda(1)
print(m2 is model, next(model.parameters()).device, model[2]['head'][0].weight.device)
model.to(torch.device('cuda', 0))
print(w.device)
model.to('cuda', torch.float64)
print(w.device, w.dtype, w.is_leaf, type(w).__name__)

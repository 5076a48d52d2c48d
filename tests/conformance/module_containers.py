# Sequential / ModuleList / ModuleDict indexing, slicing, length, registration of contents.
import torch
import torch.nn as nn
from collections import OrderedDict

seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(len(seq), type(seq[0]).__name__, type(seq[-1]).__name__)
sub = seq[1:]
print(type(sub).__name__, len(sub), sub[0] is seq[1])
print(sub)
named = nn.Sequential(OrderedDict([('fc', nn.Linear(1, 1)), ('act', nn.Tanh())]))
print(named.fc is named[0], list(named._modules))
named.append(nn.Sigmoid())
print(list(named._modules))
ml = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)])
ml.append(nn.ReLU())
ml.extend([nn.Tanh()])
ml.insert(0, nn.Identity())
print(len(ml), [type(m).__name__ for m in ml])
print(list(ml._modules))
print(type(ml[1:3]).__name__, len(ml[1:3]))
md = nn.ModuleDict({'b': nn.Linear(1, 2), 'a': nn.ReLU()})
md['c'] = nn.Tanh()
print(list(md.keys()), 'a' in md, len(md))
print([type(v).__name__ for v in md.values()])
print(md.pop('b').out_features, list(md.keys()))
out = seq(torch.ones(4, 2))
print(out.shape)

# Screenshot test: the forward pass mixes a CPU input with a model on cuda:0 and fails on line 7.
import torch
import torch.nn as nn

model = nn.Linear(16, 4).cuda()
x = torch.randn(2, 16)
y = model(x)
print("not reached")

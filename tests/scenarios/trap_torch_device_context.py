# SEMANTICS 6: `with torch.device('cuda:1')` and torch.set_default_device change where factory functions
# allocate (including inside nn.Linear), but not current_device(), *_like, or .cuda().
import torch
import torch.nn as nn

with torch.device('cuda:1'):
    a = torch.zeros(2)
    b = torch.tensor([1., 2.])
    r = torch.arange(3)
    lin = nn.Linear(2, 2)
    like = torch.zeros_like(torch.ones(2, device='cpu'))
    print(torch.cuda.current_device())
    c = torch.ones(1).cuda()
    e = torch.empty(3, device='cpu')
print(a.device, b.device, r.device, lin.weight.device, lin.bias.device)
print(like.device, c.device, e.device)
print(torch.zeros(1).device)
torch.set_default_device('cuda:1')
print(torch.zeros(1).device, torch.ones(2).device, torch.full((1,), 2.).device, torch.randn(2).device)
print(torch.linspace(0, 1, 3).device, torch.eye(2).device, torch.empty(1).device, torch.rand(1).device)
print(torch.cuda.current_device(), torch.zeros(1).cuda().device, nn.Linear(1, 1).weight.device)
torch.set_default_device(None)
print(torch.zeros(1).device, nn.Linear(1, 1).weight.device)
with torch.cuda.device(1):
    print(torch.zeros(1).device, torch.cuda.current_device())

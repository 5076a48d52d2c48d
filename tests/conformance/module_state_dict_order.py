# state_dict lists own parameters, then persistent buffers, then each child's, in registration order.
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('scale', torch.ones(1))
        self.fc = nn.Linear(2, 2)
        self.gain = nn.Parameter(torch.ones(2))
        self.register_buffer('cache', torch.zeros(2), persistent=False)
        self.bn = nn.BatchNorm1d(2)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = Block()
        self.alpha = nn.Parameter(torch.zeros(1))
        self.blocks = nn.ModuleList([Block(), Block()])
        self.heads = nn.ModuleDict({'b': nn.Linear(2, 1), 'a': nn.Linear(2, 3)})

net = Net()
sd = net.state_dict()
print(type(sd).__name__)
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype, v.requires_grad)
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_buffers()])
print(sd['alpha'] is net.alpha, sd['alpha'].data_ptr() == net.alpha.data_ptr())
kv = net.state_dict(keep_vars=True)
print(kv['alpha'] is net.alpha, kv['first.scale'] is net.first.scale)
print(list(net.first.state_dict(prefix='pre.').keys()))

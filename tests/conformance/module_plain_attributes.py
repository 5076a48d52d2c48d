# Plain tensor attributes and tensors/modules in plain Python containers are not converted.
import torch
import torch.nn as nn

class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(2, 2)
        self.plain = torch.zeros(2)
        self.tensor_list = [torch.ones(2), torch.ones(3)]
        self.tensor_dict = {'a': torch.ones(1)}
        self.module_list_plain = [nn.Linear(2, 2)]
        self.registered = nn.ModuleList([nn.Linear(2, 2)])
        self.register_buffer('buf', torch.zeros(2))

m = Holder()
plain = m.plain
m.double()
print(m.linear.weight.dtype, m.buf.dtype)
print(m.plain.dtype, m.plain is plain)
print([t.dtype for t in m.tensor_list], m.tensor_dict['a'].dtype)
print(m.module_list_plain[0].weight.dtype)
print(m.registered[0].weight.dtype)
print(sorted(m.__dict__.keys() & {'plain', 'tensor_list', 'tensor_dict', 'module_list_plain'}))
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_buffers()])
print(list(m.state_dict().keys()))
print('plain' in m._buffers, 'buf' in m._buffers)

# SEMANTICS 3: modules and tensors inside plain Python lists, dicts and tuples are not registered, so
# Module.to does not move them; nn.ModuleList / register_buffer do.
import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(2, 2), nn.Linear(2, 2)]
        self.registered = nn.ModuleList([nn.Linear(2, 2)])
        self.stats = {'mean': torch.zeros(2)}
        self.pair = (torch.ones(1), torch.ones(1))

m = M().to('cuda')
print(m.layers[0].weight.device, m.registered[0].weight.device)
print(m.stats['mean'].device, m.pair[0].device)
print(len(list(m.parameters())), [n for n, _ in m.named_parameters()])
try:
    m.layers[0](torch.ones(1, 2, device='cuda'))
except RuntimeError as e:
    print(type(e).__name__ + ':', e)

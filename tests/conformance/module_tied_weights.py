# One Parameter registered in two modules stays one object (and tied) through conversions.
import torch
import torch.nn as nn

class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(5, 4)
        self.decoder = nn.Linear(4, 5, bias=False)
        self.decoder.weight = self.embed.weight

m = Tied()
print(m.decoder.weight is m.embed.weight)
m.double()
print(m.decoder.weight is m.embed.weight, m.decoder.weight.dtype)
print(len(list(m.parameters())))
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_modules(remove_duplicate=False)])
print(list(m.state_dict().keys()))
sd = m.state_dict()
print(sd['embed.weight'].data_ptr() == sd['decoder.weight'].data_ptr())
m.half()
print(m.decoder.weight is m.embed.weight, m.embed.weight.dtype)
shared = nn.Linear(2, 2)
seq = nn.Sequential(shared, nn.ReLU(), shared)
print(len(list(seq.parameters())), len(list(seq.modules())), len(list(seq.children())))
print([n for n, _ in seq.named_modules()])
print(list(seq.state_dict().keys()))
seq.double()
print(seq[0].weight.dtype, seq[2].weight is seq[0].weight)

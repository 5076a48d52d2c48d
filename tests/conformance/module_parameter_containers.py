# ParameterList / ParameterDict register their parameters under index / key names.
import torch
import torch.nn as nn

pl = nn.ParameterList([nn.Parameter(torch.ones(1)), nn.Parameter(torch.zeros(2))])
print(len(pl), [n for n, _ in pl.named_parameters()])
pd = nn.ParameterDict({'x': nn.Parameter(torch.ones(1))})
print(list(pd.keys()), [n for n, _ in pd.named_parameters()])

class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.plist = pl
        self.pdict = pd

h = Holder()
print([n for n, _ in h.named_parameters()])
h.double()
print([p.dtype for p in h.parameters()])
print(pl[0] is h.plist[0])

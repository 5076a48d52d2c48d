# hostile: an exception deep inside forward after some copies: traceback, exit 1, copies exported
# expect-exit: 1
# expect-stderr: Traceback (most recent call last):
# expect-stderr: in forward
# expect-stderr: ValueError: bad batch of size 3
# expect-transfers: 3
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 2)

    def forward(self, x):
        if x.shape[0] == 3:
            raise ValueError(f"bad batch of size {x.shape[0]}")
        return self.lin(x)


net = Net().to("cuda")  # 2 copies (weight, bias)
x = torch.ones(3, 4).to("cuda")  # 1 copy
net(x)

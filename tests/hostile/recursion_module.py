# hostile: a module whose forward calls itself, and a __getattr__ that recurses: RecursionError each time
# expect-exit: 1
# expect-stderr: RecursionError
# expect-stdout: forward: RecursionError
# expect-stdout: getattr: RecursionError
import torch
import torch.nn as nn


class Loop(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        return self(self.lin(x))


class BadGetattr(nn.Module):
    def __getattr__(self, name):
        return self.missing  # every lookup of a missing name looks up another missing name


try:
    Loop()(torch.ones(1, 2))
except RecursionError:
    print("forward: RecursionError")
try:
    BadGetattr().anything
except RecursionError:
    print("getattr: RecursionError")
Loop().to("cuda")(torch.ones(1, 2, device="cuda"))

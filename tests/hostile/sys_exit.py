# hostile: sys.exit(3) in the middle of a run: exit code 3, the copies so far exported
# expect-exit: 3
# expect-stdout: before exit
# expect-transfers: 2
import sys

import torch

x = torch.ones(4).to("cuda")
y = x.cpu()
print("before exit")
sys.exit(3)
print("never")

# hostile: sys.exit(-1): status 255, as python's
# expect-exit: 255
# expect-stdout: before exit
# expect-transfers: 1
import sys

import torch

torch.ones(2).to("cuda")
print("before exit")
sys.exit(-1)

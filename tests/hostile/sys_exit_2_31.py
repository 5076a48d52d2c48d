# hostile: sys.exit(2**31): python exits with (int)2**31 = INT_MIN, status 0, silently; never std::terminate
# expect-exit: 0
# expect-stdout: before exit
# expect-transfers: 1
import sys

import torch

torch.ones(2).to("cuda")
print("before exit")
sys.exit(2**31)

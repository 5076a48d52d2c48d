# hostile: sys.exit(2**63), beyond a C long: python exits with status 255, silently; never std::terminate
# expect-exit: 255
# expect-stdout: before exit
# expect-transfers: 1
import sys

import torch

torch.ones(2).to("cuda")
print("before exit")
sys.exit(2**63)

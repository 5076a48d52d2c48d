# hostile: the script closes sys.stdout, then prints: ValueError like python, DeviceScope still reports it
# expect-exit: 1
# expect-stderr: ValueError: I/O operation on closed file
# expect-transfers: 1
import sys

import torch

torch.ones(2).to("cuda")
sys.stdout.close()
print("into the void")

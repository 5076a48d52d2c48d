# hostile: sys.exit("message"): the message on stderr, exit code 1
# expect-exit: 1
# expect-stderr: stopping: no GPU work left
# expect-transfers: 1
import sys

import torch

torch.ones(2).to("cuda")
sys.exit("stopping: no GPU work left")

# hostile: the script raises KeyboardInterrupt itself: exit 130 like python, copies exported
# expect-exit: 130
# expect-stderr: KeyboardInterrupt
# expect-transfers: 1
import torch

torch.ones(2).to("cuda")
raise KeyboardInterrupt

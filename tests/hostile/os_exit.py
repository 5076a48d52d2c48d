# hostile: os._exit(5) ends the process at once: exit code 5; exports are then missing, never half written
# expect-exit: 5
# expect-stdout: before os._exit
# exports-optional: yes
import os

import torch

x = torch.ones(4).to("cuda")
print("before os._exit", flush=True)
os._exit(5)

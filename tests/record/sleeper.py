# Waits to be interrupted: check_record.py sends SIGINT to `devicescope record`, which passes it on.
import sys
import time

import torch

held = torch.zeros(512)
print("ready", flush=True)
time.sleep(60)
sys.exit(0)

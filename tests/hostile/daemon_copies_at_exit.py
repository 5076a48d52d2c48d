# hostile: daemon threads still copying tensors when the script ends: --csv and --trace come from one moment and agree
# expect-exit: 0
# expect-stdout: main done
import threading
import time

import torch


def hammer():
    x = torch.ones(256)
    while True:
        x = x.to("cuda").to("cpu")


for _ in range(4):
    threading.Thread(target=hammer, daemon=True).start()
time.sleep(0.5)
print("main done")

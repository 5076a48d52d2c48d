# hostile: an endless loop after one copy; --timeout stops it and the copy is still exported
# args: --timeout 2
# needs: timeout
# expect-exit: 130
# expect-stderr: KeyboardInterrupt: script interrupted after 2 s
# expect-stdout: looping
# expect-transfers: 1
# max-seconds: 30
import torch

x = torch.ones(4).to("cuda")
print("looping", flush=True)
n = 0
while True:
    n += 1

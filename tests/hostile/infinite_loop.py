# hostile: an endless loop after one copy; --timeout stops it and the copy is still exported
# args: --timeout 2
# needs: timeout
# expect-exit: 130
# expect-stderr: KeyboardInterrupt: script interrupted after 2 s
# expect-stdout: looping
# expect-transfers: 1
import signal

# However slow this machine is, the timeout's KeyboardInterrupt (a SIGINT, as Ctrl+C sends) waits until the
# setup below is done: no test here depends on how fast it runs.
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

import torch

x = torch.ones(4).to("cuda")
print("looping", flush=True)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
n = 0
while True:
    n += 1

# hostile: a long time.sleep: --timeout interrupts it inside the sleep (like Ctrl+C), not 4x later
# args: --timeout 2
# needs: timeout
# expect-exit: 130
# expect-stderr: , in <module>
# expect-stderr: KeyboardInterrupt: script interrupted after 2 s
# expect-stdout: sleeping
# expect-transfers: 1
import signal

# However slow this machine is, the timeout's KeyboardInterrupt (a SIGINT, as Ctrl+C sends) waits until the
# setup below is done: no test here depends on how fast it runs.
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

import time

import torch

torch.ones(2).to("cuda")
print("sleeping", flush=True)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
time.sleep(100000)

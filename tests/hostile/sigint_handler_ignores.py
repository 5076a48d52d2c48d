# hostile: the script installs its own SIGINT handler that ignores Ctrl+C: --timeout still ends the run at 4x
# and names that handler as the reason
# args: --timeout 2
# needs: timeout
# expect-exit: 130
# expect-stderr: the script's own SIGINT handler (carry_on) did not stop it (at sigint_handler_ignores.py:
# expect-stdout: looping
# expect-transfers: 1
import signal

# However slow this machine is, the timeout's KeyboardInterrupt (a SIGINT, as Ctrl+C sends) waits until the
# setup below is done: no test here depends on how fast it runs.
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

import torch


def carry_on(signum, frame):
    pass


signal.signal(signal.SIGINT, carry_on)
x = torch.ones(4).to("cuda")
print("looping", flush=True)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
n = 0
while True:
    n += 1

# hostile: an endless loop that swallows every KeyboardInterrupt: --timeout still ends the run (exit 130 at 4x, saying so)
# args: --timeout 2
# needs: timeout
# expect-exit: 130
# expect-stderr: the script caught KeyboardInterrupt and kept running (at infinite_loop_swallow.py:
# expect-stdout: looping
# expect-transfers: 1
import signal

# However slow this machine is, the timeout's KeyboardInterrupt (a SIGINT, as Ctrl+C sends) waits until the
# setup below is done: no test here depends on how fast it runs.
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

import torch

x = torch.ones(4).to("cuda")
print("looping", flush=True)
while True:
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        while True:
            pass
    except BaseException:  # noqa: B902 - exactly what a hostile script does
        pass

# hostile: input() on a pipe that never answers: --timeout ends it with KeyboardInterrupt, exports written
# args: --timeout 2
# needs: timeout
# stdin: silent-pipe
# expect-exit: 130
# expect-stderr: , in <module>
# expect-stderr: KeyboardInterrupt: script interrupted after 2 s
# expect-stdout: asking
# expect-transfers: 1
import signal

# However slow this machine is, the timeout's KeyboardInterrupt (a SIGINT, as Ctrl+C sends) waits until the
# setup below is done: no test here depends on how fast it runs.
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

import torch

torch.ones(2).to("cuda")
print("asking", flush=True)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
name = input("name? ")
print("never", name)

# hostile: a non-daemon thread that never ends, after the main script has: --timeout stops waiting for it,
# says so, writes the exports and exits 130
# args: --timeout 2
# needs: timeout
# expect-exit: 130
# expect-stderr: KeyboardInterrupt: script interrupted after 2 s
# expect-stderr: non-daemon thread 'spinner' (at thread_endless_timeout.py:
# expect-stderr: is still running
# expect-stdout: main done
# expect-transfers: 1
import signal

# However slow this machine is, the timeout's KeyboardInterrupt (a SIGINT, as Ctrl+C sends) waits until the
# setup below is done: no test here depends on how fast it runs.
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

import threading

import torch


def spin():
    n = 0
    while True:
        n += 1


torch.ones(2).to("cuda")
threading.Thread(target=spin, name="spinner").start()
print("main done", flush=True)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

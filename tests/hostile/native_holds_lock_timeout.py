# hostile: native code that keeps the interpreter lock for good: --timeout's last resort waits only a short
# while for the lock, says the exports were not written and why, and exits 130 (it waited up to 60 s before)
# args: --timeout 1
# needs: timeout
# expect-exit: 130
# expect-stderr: KeyboardInterrupt: script interrupted after 1 s
# expect-stderr: the exports were not written: the script's native code keeps the interpreter lock (waited 2 s for it)
# expect-stdout: holding
# exports-optional: yes
import ctypes
import signal

# The timeout's KeyboardInterrupts (SIGINTs) stay pending: nothing here may end by them, however slow the
# machine is to get to the call below.
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

import torch

x = torch.ones(4).to("cuda")
print("holding", flush=True)
# A PyDLL call keeps the interpreter lock for as long as it runs (like a C extension that never releases it).
ctypes.PyDLL(None).sleep(1000000)

# hostile: an exception in a background thread: reported on stderr, the script finishes normally
# expect-exit: 0
# expect-stderr: Exception in thread
# expect-stderr: ValueError: worker failed
# expect-stdout: main done 2.0
import threading

import torch


def work():
    torch.ones(2).to("cuda")
    raise ValueError("worker failed")


t = threading.Thread(target=work)
t.start()
t.join()
print("main done", float(torch.ones(2).sum()))

# hostile: __del__ raising: Python reports "Exception ignored" and the script goes on
# expect-exit: 0
# expect-stderr: Exception ignored in
# expect-stderr: RuntimeError: broken destructor
# expect-stdout: after del
# expect-stdout: done
import torch


class Holder:
    def __init__(self):
        self.t = torch.ones(3).to("cuda")

    def __del__(self):
        raise RuntimeError("broken destructor")


h = Holder()
del h
print("after del")
hs = [Holder() for _ in range(3)]
hs = None
print("done")

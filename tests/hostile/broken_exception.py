# hostile: a tensor repr that raises, and an exception whose __str__ raises: reported, never a crash
# expect-exit: 1
# expect-stdout: print failed: ZeroDivisionError
# expect-stdout: repr restored
# expect-stderr: Broken: <exception str() failed>
import torch


class Broken(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")


original = torch.Tensor.__repr__
torch.Tensor.__repr__ = lambda self: str(1 / 0)
try:
    print(torch.ones(2))
except ZeroDivisionError as e:
    print("print failed:", type(e).__name__)
torch.Tensor.__repr__ = original
print("repr restored" if "tensor" in repr(torch.ones(1)) else "repr broken")
raise Broken()

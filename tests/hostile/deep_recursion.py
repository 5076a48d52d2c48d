# hostile: unbounded recursion through tensor ops: RecursionError, not a crash of the interpreter
# expect-exit: 1
# expect-stderr: RecursionError: maximum recursion depth exceeded
# expect-stdout: caught RecursionError
# expect-transfers: 2
import torch

x = torch.ones(2).to("cuda")


def down(t, depth):
    return down(t + 1, depth + 1)


try:
    down(x, 0)
except RecursionError:
    print("caught RecursionError")
print("still works", (x + 1).cpu().tolist())
down(torch.zeros(1), 0)

# hostile: input() with standard input closed (no fd 0): python's "lost sys.stdin" RuntimeError
# stdin: closed
# expect-exit: 1
# expect-stderr: RuntimeError: input(): lost sys.stdin
# expect-stdout: asking
# expect-transfers: 1
import torch

torch.ones(2).to("cuda")
print("asking", flush=True)
input()

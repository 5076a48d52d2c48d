# hostile: input() with standard input at /dev/null: EOFError, as python says it
# stdin: devnull
# expect-exit: 1
# expect-stderr: EOFError: EOF when reading a line
# expect-stdout: asking
# expect-transfers: 1
import torch

torch.ones(2).to("cuda")
print("asking", flush=True)
input()

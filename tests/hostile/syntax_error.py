# hostile: a script that does not compile: SyntaxError like python prints it, exit 1, empty exports
# expect-exit: 1
# expect-stderr: SyntaxError
# expect-stderr: syntax_error.py", line 9
# expect-transfers: 0
import torch

x = torch.ones(2)
print(x.to("cuda")
y = 1

# hostile: Latin-1 bytes in a file without an encoding declaration: SyntaxError, not a crash
# expect-exit: 1
# expect-stderr: SyntaxError: Non-UTF-8 code starting with '\xe9'
# expect-transfers: 0
import torch
print("café")

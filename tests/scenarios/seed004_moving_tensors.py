# Seed 004, "Moving Tensors" snippet, verbatim (the article indents it inside a list; dedented here).
# Added below: checks. x now names a 4,000,000-byte tensor on cuda:0: 4000256 bytes allocated (512-byte
# rounding) in a 20 MiB segment of the large pool; the CPU original was freed when x was rebound.
import torch
x = torch.randn(1000, 1000)  # Create a tensor on CPU
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
x = x.to(device)  # Move x to the chosen device
# --- checks added by the scenario ---
print(x.device, x.shape, x.dtype)
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())

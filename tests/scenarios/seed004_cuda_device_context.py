# Seed 004, `with torch.cuda.device(1)` example, verbatim between the markers.
# The article says x and y are created on GPU 1. torch.cuda.device only changes the *current CUDA device*
# (used by index-less "cuda"); factories without device= still allocate on the CPU. Added below: checks.
import torch

# --- seed code, verbatim ---
with torch.cuda.device(1):  # Assuming you have multiple GPUs (index 1 here)
  x = torch.randn(1000, 1000)  # x will be created on GPU 1
  y = torch.randn(1000, 1000)  # y will also be created on GPU 1
  z = x + y  # Operations on x and y will happen on GPU 1

# Outside the context, tensors will be created on the default device again
w = torch.randn(500, 500)  # w will be created on CPU (assuming default is CPU)
# --- checks added by the scenario ---
print(x.device, y.device, z.device, w.device)
print(torch.cuda.memory_allocated(0), torch.cuda.memory_allocated(1))
with torch.cuda.device(1):
  print(torch.cuda.current_device(), torch.zeros(1, device="cuda").device, torch.zeros(1).cuda().device)
print(torch.cuda.current_device())

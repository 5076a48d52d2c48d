# Seed 001, the `.cuda()` example, verbatim between the markers.
# Added above: `import torch` and a `tensor`. Added below: checks (the result was dropped; tensor is unchanged).
import torch

tensor = torch.ones(3)

# --- seed code, verbatim ---
tensor.cuda()  # Move tensor to the first available GPU (if available)
# --- checks added by the scenario ---
print(tensor.device)
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
moved = tensor.cuda()
print(moved.device, moved is tensor, moved.cuda() is moved)
print(moved)

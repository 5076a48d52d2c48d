# Seed 001, the `.to()` example, verbatim between the markers.
# Added above: `import torch` and a `tensor` to move. Added below: checks.
# Both lines are bare statements: their results are dropped at once, so `tensor` stays on the CPU,
# nothing stays allocated, but each GPU's caching allocator keeps the 2 MiB segment it obtained.
import torch

tensor = torch.ones(3)

# --- seed code, verbatim ---
tensor.to("cuda")  # Move tensor to the first available GPU (if available)
tensor.to(torch.device("cuda:1"))  # Move tensor to the second GPU (if available)
# --- checks added by the scenario ---
print(tensor.device)
print(torch.cuda.memory_allocated(0), torch.cuda.memory_allocated(1))
print(torch.cuda.memory_reserved(0), torch.cuda.memory_reserved(1))
print(tensor.to("cuda").device, tensor.to(torch.device("cuda:1")).device)

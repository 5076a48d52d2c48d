# Seed 004, "Example 1: Moving a Tensor to GPU", verbatim as published: the docstring is never closed (the
# page lost its closing quotes), so Python rejects the file before running anything.
import torch

def move_tensor_to_gpu(tensor):
  """Moves a tensor to the GPU if available, otherwise keeps it on CPU.

      tensor: The tensor to move.

      The tensor on the chosen device (CPU or GPU).
  device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
  return tensor.to(device)

# Create a tensor on CPU
x = torch.randn(1000, 1000)

# Move the tensor to the chosen device (CPU or GPU)
x = move_tensor_to_gpu(x)

# Now, x is on the appropriate device for computations
y = x.matmul(x.t())  # Assuming matrix multiplication

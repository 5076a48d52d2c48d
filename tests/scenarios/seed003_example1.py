# Seed 003, first example (CPU input, CUDA model), verbatim.
# The article says the output is "likely CPU". It is neither: matmul refuses mixed devices before printing.
import torch
import torch.nn as nn

class CustomLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        return torch.matmul(x, self.weight.T) + self.bias # Inefficient but illustrative

# Initialize the module
model = CustomLinear(10, 5)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Move to the device, which is critical but potentially insufficient
model.to(device)

# Dummy Input
input_tensor = torch.randn(1, 10)
# No explicit to(device) on the input - potential error

output = model(input_tensor)

print(f"Output Device: {output.device}")  # Likely CPU even with model on CUDA
print(f"Weight Device: {model.weight.device}") # Correctly on CUDA

# Seed 002, Example 1 (layer created inside forward after model.to), verbatim.
# The article says the new layer "inherits the device of the input". It does not: nn.Linear is created on
# the CPU (the default device), and the forward fails with the mixed-device error before anything is printed.
import torch
import torch.nn as nn

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.linear = None # Deferred initialization

    def forward(self, x):
        if self.linear is None:
            self.linear = nn.Linear(10, 5) # Initialize inside forward pass
        return self.linear(x)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MyModule()
model.to(device)

input_tensor = torch.randn(1, 10)
output = model(input_tensor.to(device)) # Move input tensor

print(f"Model is on: {next(model.parameters()).device}")
print(f"Output is on: {output.device}")



# Seed 002, Example 3 (plain tensor attribute moved by hand), verbatim.
import torch
import torch.nn as nn

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.linear = nn.Linear(10, 5)
        self.some_tensor = torch.randn(5, 5)

    def forward(self, x):
        return self.linear(x) + self.some_tensor

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MyModule()
model.to(device)

model.some_tensor = model.some_tensor.to(device) #Explicit movement of non-layer tensor

input_tensor = torch.randn(1, 10).to(device)

output = model(input_tensor)

print(f"Model Parameter device is on: {next(model.parameters()).device}")
print(f"Model's self.some_tensor device: {model.some_tensor.device}")
print(f"Output is on: {output.device}")

# Seed 002, Example 2 (layer created in __init__), verbatim.
import torch
import torch.nn as nn

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        self.linear = nn.Linear(10, 5) # Initialized in __init__
       
    def forward(self, x):
        return self.linear(x)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = MyModule()
model.to(device)

input_tensor = torch.randn(1, 10).to(device)

output = model(input_tensor)


print(f"Model Parameter device is on: {next(model.parameters()).device}")
print(f"Output is on: {output.device}")



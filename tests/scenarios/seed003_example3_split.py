# Seed 003, third example (torch.split outputs), verbatim. split(2) of a (1, 5) tensor gives 3 pieces on cuda:0.
import torch
import torch.nn as nn
import torch.nn.functional as F

class ExampleModel(nn.Module):
  def __init__(self):
    super().__init__()
    self.linear = nn.Linear(10, 5)

  def forward(self, x):
    intermediate = F.relu(self.linear(x))
    return torch.split(intermediate, 2, dim=1) # returns a tuple of tensors

model = ExampleModel()
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model.to(device)

input_tensor = torch.randn(1, 10)
input_tensor = input_tensor.to(device)
outputs = model(input_tensor)

for tensor in outputs:
   print(f"Sub tensor device {tensor.device}") # Will correctly print device, CUDA or CPU


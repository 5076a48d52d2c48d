# Seed 000, Example 3 ("Shared References"), verbatim. model_copy is the same object: all three lines say cuda:0.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(10, 2)
model_copy = model  # Creating a shared reference

model.to(device) # In-place modification

print(next(model.parameters()).device)   # Prints the correct device
print(next(model_copy.parameters()).device) # Prints the correct device if to() returns self, but might print CPU if it creates a new object.  Inconsistent.

model_copy = model_copy.to(device) # Explicit Reassignment to the copy

print(next(model_copy.parameters()).device) #Always prints the correct device.

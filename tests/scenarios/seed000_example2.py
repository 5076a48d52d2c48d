# Seed 000, Example 2 ("Explicit Re-assignment"), verbatim. Same effect as Example 1: model.to returns self.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(10, 2)
model = model.to(device)

# Assume 'my_function' expects a model on a GPU or CPU
def my_function(model):
    print(next(model.parameters()).device) #check parameter location

my_function(model) #This will always print the correct device

# devicescope-args: --sim-devices 0
# Seed 000, Example 1, verbatim, with CUDA turned off: is_available() is False, so everything stays on the CPU.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(10, 2)
model.to(device)

# Assume 'my_function' expects a model on the CPU
def my_function(model):
    print(next(model.parameters()).device) #check parameter location

my_function(model)  #This might print "cuda:0" or "cpu" depending on implementation details - unpredictable

# Seed 000, Example 1 ("In-place Modification - Potential Pitfalls"), verbatim.
# The article calls the printed device "unpredictable"; Module.to is in place and returns self, so it is cuda:0.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(10, 2)
model.to(device)

# Assume 'my_function' expects a model on the CPU
def my_function(model):
    print(next(model.parameters()).device) #check parameter location

my_function(model)  #This might print "cuda:0" or "cpu" depending on implementation details - unpredictable

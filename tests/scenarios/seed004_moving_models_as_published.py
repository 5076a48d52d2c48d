# Seed 004, "Moving Models" snippet, verbatim (dedented). As published, __init__ has only a comment as its
# body, so Python rejects the file before running anything.
import torch.nn as nn
class MyModel(nn.Module):
    def __init__(self):
        # ... define model layers here
model = MyModel()
model = model.to(device)  # Move the model to the chosen device

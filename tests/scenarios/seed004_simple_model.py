# Seed 004, SimpleModel example, verbatim except for one restored line: the closing `"""` of the docstring,
# which the published page lost. SimpleModel never calls super().__init__(), so creating it fails when
# __init__ assigns the Linear layer: nothing is moved and nothing is printed.
import torch.nn as nn

class SimpleModel(nn.Module):
  def __init__(self):
    self.linear = nn.Linear(10, 5)

  def forward(self, x):
    return self.linear(x)

def move_model_to_gpu(model):
  """Moves a model to the GPU if available, otherwise keeps it on CPU.

      model: The model to move.

      The model on the chosen device (CPU or GPU).
  """
  device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
  return model.to(device)

# Create a model instance
model = SimpleModel()

# Move the model to the chosen device (CPU or GPU)
model = move_model_to_gpu(model)

# Now, model can be used for computations on the appropriate device

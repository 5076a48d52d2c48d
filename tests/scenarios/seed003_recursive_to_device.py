# Seed 003, recursive_to_device example, verbatim between the markers.
# Added above: `import torch` (the snippet uses torch without importing it). Added below: checks, including
# that the helper leaves tensors inside tuples where they were (it only handles lists and dicts).
import torch

# --- seed code, verbatim ---
def recursive_to_device(data, device):
  if isinstance(data, torch.Tensor):
      return data.to(device)
  elif isinstance(data, list):
      return [recursive_to_device(item, device) for item in data]
  elif isinstance(data, dict):
      return {key: recursive_to_device(value, device) for key, value in data.items()}
  else:
      return data

# Within the training loop one can utilise the utility
training_data = [torch.randn(10,10), torch.randn(10,10)]
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
training_data = recursive_to_device(training_data, device)
# --- checks added by the scenario ---
print([str(t.device) for t in training_data], type(training_data).__name__)
nested = recursive_to_device({'a': [torch.ones(1)], 'b': (torch.ones(1),), 'c': 3}, device)
print(nested['a'][0].device, nested['b'][0].device, nested['c'])

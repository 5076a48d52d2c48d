# Seed 004, DataLoader(pin_memory=True) example, verbatim between the markers.
# Added above: a deterministic `dataset` (the seed leaves it as "# ... (Define your dataset)").
# The article says the batches end up "on the same device as the model". They do not: pin_memory=True only
# copies each batch into pinned (page-locked) CPU memory. Added below: checks on the last batch.
import torch
from torch.utils.data import TensorDataset

dataset = TensorDataset(torch.arange(200.).reshape(100, 2), torch.arange(100))

# --- seed code, verbatim ---
import torch
from torch.utils.data import DataLoader

# ... (Define your dataset)

dataloader = DataLoader(dataset, batch_size=32, pin_memory=True)

for data in dataloader:
  inputs, labels = data
  # Now, inputs and labels will be on the same device as the model
  # (assuming the model is already on the GPU)
# --- checks added by the scenario ---
print(len(dataloader), inputs.shape, labels.shape)
print(inputs.device, labels.device)
print(inputs.is_pinned(), labels.is_pinned())
print(torch.cuda.memory_allocated())
print(labels)

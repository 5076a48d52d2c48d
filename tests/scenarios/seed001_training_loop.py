# Seed 001, training-loop example, verbatim between the markers.
# Added above (not in the seed): imports, `device`, a minimal BigramLanguageModel, `num_epochs` and a
# deterministic `dataloader` (16 samples, batch_size 4) of token -> next-token pairs.
# Added below: checks of where the results and the optimizer state live.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size=8):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx):
        return self.token_embedding_table(idx)


num_epochs = 2
tokens = torch.arange(17) % 8
dataloader = DataLoader(TensorDataset(tokens[:-1], tokens[1:]), batch_size=4)

# --- seed code, verbatim ---
model = BigramLanguageModel()
model = model.to(device)  # move model to device

# define loss function and optimizer
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())

# training loop
for epoch in range(num_epochs):
    for i, (inputs, targets) in enumerate(dataloader):
        inputs, targets = inputs.to(device), targets.to(device)

        # forward pass
        outputs = model(inputs)
        loss = criterion(outputs, targets)

        # backward pass and optimization
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
# --- checks added by the scenario ---
weight = model.token_embedding_table.weight
print(inputs.device, targets.device, outputs.device, outputs.shape, loss.device, loss.shape)
print(weight.device, weight.grad.device, optimizer.param_groups[0]['params'][0] is weight)
state = optimizer.state[weight]
print(sorted(state.keys()))
print(state['exp_avg'].device, state['exp_avg_sq'].device, state['step'].device, float(state['step']))
print(type(loss.grad_fn).__name__, loss.requires_grad, inputs.dtype)

# Seed 001, first example (`m = model.to(device)`), verbatim between the markers.
# Added above (not in the seed): the imports, `device`, and a minimal BigramLanguageModel.
# Added below: checks that m and model are one object on cuda:0.
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size=8):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx):
        return self.token_embedding_table(idx)


# --- seed code, verbatim ---
model = BigramLanguageModel()
m = model.to(device)
# --- checks added by the scenario ---
print(m is model)
print(next(model.parameters()).device, next(m.parameters()).device)

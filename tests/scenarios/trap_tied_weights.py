# SEMANTICS 3: a Parameter registered in two modules is one object; the move converts it once and the tie
# survives. 40 floats = 160 bytes -> one 512-byte block on cuda:0, not two.
import torch
import torch.nn as nn

class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.embed.weight

m = TinyLM().to('cuda')
print(m.head.weight is m.embed.weight, m.head.weight.device)
print(len(list(m.parameters())), list(m.state_dict().keys()))
print(torch.cuda.memory_allocated())
logits = m.head(m.embed(torch.tensor([1, 2], device='cuda')))
print(logits.shape, logits.device)

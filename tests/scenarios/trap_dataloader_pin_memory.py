# SEMANTICS 7: DataLoader(pin_memory=True) copies each batch (recursing into tuples, lists, dicts) into pinned
# CPU memory; nothing reaches a GPU until .to(device, non_blocking=True).
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

ds = TensorDataset(torch.arange(12.).reshape(6, 2), torch.arange(6))
loader = DataLoader(ds, batch_size=4, pin_memory=True)
print(torch.cuda.memory_allocated())
for xb, yb in loader:
    print(xb.device, xb.is_pinned(), yb.is_pinned(), xb.shape)
    g = xb.to('cuda', non_blocking=True)
    print(g.device, g.is_pinned())
torch.cuda.synchronize()
print(g)
print(torch.cuda.memory_allocated())

class Records(Dataset):
    def __len__(self):
        return 3

    def __getitem__(self, i):
        return {'x': torch.full((2,), float(i)), 'meta': [torch.tensor(i), i]}

batch = next(iter(DataLoader(Records(), batch_size=2, pin_memory=True)))
print(batch['x'].is_pinned(), batch['meta'][0].is_pinned(), batch['meta'][1].is_pinned())
print(batch['x'].device, batch['meta'][1])
plain = next(iter(DataLoader(ds, batch_size=2)))
print(plain[0].is_pinned())

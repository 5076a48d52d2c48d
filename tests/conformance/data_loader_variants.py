# DataLoader forms against real PyTorch: batch_size=None, batch_sampler, shuffle with a generator and drop_last,
# dict samples with strings, a collate_fn, RandomSampler with replacement (drawn 32 at a time, PyTorch's draws)
# and num_samples, and the sampler/shuffle exclusion error.
import torch
from torch.utils.data import DataLoader, TensorDataset, BatchSampler, RandomSampler, SequentialSampler, Dataset
ds = TensorDataset(torch.arange(10.0), torch.arange(10))
print([b[1].tolist() for b in DataLoader(ds, batch_size=None)][:3])
print([b[1].tolist() for b in DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 4, False))])
g = torch.Generator().manual_seed(3)
print([b[1].tolist() for b in DataLoader(ds, batch_size=3, shuffle=True, generator=g, drop_last=True)])
print(len(DataLoader(ds, batch_size=3)), len(DataLoader(ds, batch_size=3, drop_last=True)))
class D(Dataset):
    def __len__(self): return 4
    def __getitem__(self, i): return {"x": torch.tensor([i, i]), "y": i, "name": f"n{i}"}
for b in DataLoader(D(), batch_size=2):
    print(b)
print([b.tolist() for b in DataLoader(list(range(5)), batch_size=2, collate_fn=lambda xs: torch.tensor(xs) * 10)])
torch.manual_seed(0)
print([b[1].tolist() for b in DataLoader(ds, batch_size=4, sampler=RandomSampler(ds, replacement=True, num_samples=6))])
try:
    DataLoader(ds, batch_size=2, shuffle=True, sampler=SequentialSampler(ds))
except ValueError as e:
    print(e)
g = torch.Generator().manual_seed(7)
print(list(RandomSampler(range(5), replacement=True, num_samples=70, generator=g))[28:40],
      list(RandomSampler(range(4), num_samples=10, generator=g)))

# torch.randint's keyword forms (RandomSampler's own call was randint(high=n, size=(32,)))
torch.manual_seed(0)
print(torch.randint(low=0, high=10, size=(3,)), torch.randint(high=10, size=(3,)), torch.randint(2, high=10, size=(2, 2)),
      torch.randint(5, (3,)), torch.randint(1, 5, (3,)), torch.randint(3, size=(2,)))

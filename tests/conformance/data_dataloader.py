# DataLoader batching without shuffling: TensorDataset, drop_last, len, collation of tuples/dicts/numbers.
import torch
from torch.utils.data import DataLoader, TensorDataset, Dataset

ds = TensorDataset(torch.arange(20.).reshape(10, 2), torch.arange(10))
print(len(ds), ds[3])
loader = DataLoader(ds, batch_size=4)
print(len(loader))
for i, (xb, yb) in enumerate(loader):
    print(i, xb.shape, yb, xb.dtype, yb.dtype)
print(len(DataLoader(ds, batch_size=4, drop_last=True)), [b[1].tolist() for b in DataLoader(ds, batch_size=4, drop_last=True)])
first = next(iter(loader))
print(type(first).__name__, len(first))
print(first[0])

class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {'x': torch.tensor([i, i + 1.]), 'label': i % 2, 'w': i * 0.5, 'name': f's{i}'}

for batch in DataLoader(Pairs(), batch_size=2):
    print(sorted(batch.keys()), batch['x'].tolist(), batch['label'], batch['w'], batch['name'])
print(next(iter(DataLoader([1, 2, 3, 4], batch_size=3))))
print(next(iter(DataLoader([(1, 2.0), (3, 4.0)], batch_size=2))))
print(next(iter(DataLoader(ds, batch_size=None)))[1])
print(list(DataLoader(range(5), batch_size=2)))
print([b.is_pinned() for b in next(iter(loader))])

# Samplers and datasets against real PyTorch: WeightedRandomSampler (torch.multinomial's draws for a seed, with
# and without replacement, a generator of its own), SubsetRandomSampler, BatchSampler, DistributedSampler
# (per rank, padding, drop_last, set_epoch), ChainDataset / IterableDataset + IterableDataset, and their use
# in a DataLoader; argument errors in PyTorch's words.
import torch
from torch.utils.data import (BatchSampler, ChainDataset, DataLoader, IterableDataset, SequentialSampler,
                              SubsetRandomSampler, TensorDataset, WeightedRandomSampler)
from torch.utils.data.distributed import DistributedSampler
import torch.utils.data as data

torch.manual_seed(0)
weights = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
print("weighted", list(WeightedRandomSampler(weights, 10)), list(WeightedRandomSampler(weights, 5)))
print("weighted no replacement", list(WeightedRandomSampler(weights, 6, replacement=False)))
g = torch.Generator().manual_seed(42)
s = WeightedRandomSampler(torch.tensor([1.0, 2.0, 3.0, 0.0]), 8, generator=g)
print("weighted generator", list(s), list(s), len(s), s.weights.dtype, s.replacement)
print("weighted one", list(WeightedRandomSampler([0.2, 0.8], 1, replacement=False)))
print("after weighted", torch.rand(2).tolist())

# class-balanced sampling as tutorials write it
labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 2, 0])
counts = torch.bincount(labels)
sample_w = (1.0 / counts.float())[labels]
ds = TensorDataset(torch.arange(10.0), labels)
loader = DataLoader(ds, batch_size=4, sampler=WeightedRandomSampler(sample_w, num_samples=len(sample_w)))
print("balanced loader", [b[1].tolist() for b in loader])

for label, make in [
    ("num_samples 0", lambda: WeightedRandomSampler(weights, 0)),
    ("num_samples bool", lambda: WeightedRandomSampler(weights, True)),
    ("replacement", lambda: WeightedRandomSampler(weights, 3, replacement=1)),
    ("2d weights", lambda: WeightedRandomSampler([[1.0, 2.0]], 3)),
]:
    try:
        make()
        print(label, "no error")
    except ValueError as e:
        print(label, type(e).__name__, e)
try:
    list(WeightedRandomSampler([1.0, 2.0], 3, replacement=False))
except RuntimeError as e:
    print("too many", e)

torch.manual_seed(1)
print("subset", list(SubsetRandomSampler([10, 20, 30, 40, 50])),
      list(SubsetRandomSampler(range(3), generator=torch.Generator().manual_seed(3))))
print("batch", list(BatchSampler(SequentialSampler(range(10)), 3, False)),
      list(BatchSampler(range(10), 3, True)), len(BatchSampler(range(10), 3, False)))
for bad in [(0, False), (3, 1)]:
    try:
        BatchSampler(range(4), *bad)
    except ValueError as e:
        print("batch error", e)

for drop_last in (False, True):
    for shuffle in (False, True):
        per_rank = []
        for rank in range(3):
            s = DistributedSampler(range(10), num_replicas=3, rank=rank, shuffle=shuffle, seed=5, drop_last=drop_last)
            first = list(s)
            s.set_epoch(1)
            per_rank.append((len(s), first, list(s)))
        print("distributed", drop_last, shuffle, per_rank)
print("distributed small", list(DistributedSampler(range(2), num_replicas=5, rank=4, shuffle=False)))
try:
    DistributedSampler(range(4), num_replicas=2, rank=2)
except ValueError as e:
    print("distributed error", e)
loader = DataLoader(TensorDataset(torch.arange(8)), batch_size=2,
                    sampler=DistributedSampler(range(8), num_replicas=2, rank=1, seed=3))
print("distributed loader", [b[0].tolist() for b in loader])


class Stream(IterableDataset):
    def __init__(self, start, n):
        self.start, self.n = start, n

    def __iter__(self):
        return iter(range(self.start, self.start + self.n))

    def __len__(self):
        return self.n


chain = ChainDataset([Stream(0, 3), Stream(10, 2)])
print("chain", list(chain), len(chain), list(Stream(0, 2) + Stream(5, 2)), type(Stream(0, 1) + Stream(0, 1)).__name__)
print("chain loader", [b.tolist() for b in DataLoader(chain, batch_size=2)])
try:
    list(ChainDataset([Stream(0, 1), TensorDataset(torch.zeros(2))]))
except AssertionError as e:
    print("chain error", e)
print("exports", all(hasattr(data, n) for n in ["WeightedRandomSampler", "SubsetRandomSampler", "BatchSampler",
                                                   "DistributedSampler", "ChainDataset", "ConcatDataset"]))

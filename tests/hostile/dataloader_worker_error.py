# hostile: a Dataset raising inside DataLoader workers: the error reaches the script, nothing hangs
# expect-exit: 1
# expect-stderr: bad sample 5
# expect-stdout: batch 0
import torch
from torch.utils.data import DataLoader, Dataset


class Bad(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            raise ValueError(f"bad sample {i}")
        return torch.full((2,), float(i))


for n, batch in enumerate(DataLoader(Bad(), batch_size=2, num_workers=2, pin_memory=True)):
    print("batch", n, flush=True)

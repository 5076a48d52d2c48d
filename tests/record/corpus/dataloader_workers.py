# A Dataset read by a DataLoader with two worker processes (shuffled, batched, dropping the last short batch),
# as most training scripts feed their model. The batches reach the main process through shared memory.
# expect-exit: 0
# expect-stdout: epoch 1 batches 6
# expect-owners: model.conv.weight, model.conv.weight.grad, optimizer.state[model.conv.weight].exp_avg
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    """Synthetic 1x12x12 images whose label is whether the bright square is in the left half."""

    def __init__(self, n):
        g = torch.Generator().manual_seed(1)
        self.cols = torch.randint(0, 9, (n,), generator=g)

    def __len__(self):
        return len(self.cols)

    def __getitem__(self, i):
        image = torch.zeros(1, 12, 12)
        c = int(self.cols[i])
        image[0, 4:8, c:c + 4] = 1.0
        return image, int(c < 4)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 6 * 6, 2)

    def forward(self, x):
        return self.fc(torch.flatten(nn.functional.max_pool2d(torch.relu(self.conv(x)), 2), 1))


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(Squares(52), batch_size=8, shuffle=True, num_workers=2, drop_last=True)
    model = SmallCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(2):
        batches = 0
        for images, labels in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
            batches += 1
        print("epoch %d batches %d loss %.4f" % (epoch, batches, loss.item()))

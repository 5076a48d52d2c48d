# source: https://pytorch.org/tutorials/beginner/basics/data_tutorial.html (Datasets & DataLoaders) and
#         https://pytorch.org/tutorials/beginner/basics/transforms_tutorial.html (Transforms)
# changed: the CSV annotations and image files are written by the script (random 28x28 images as .npy files,
#          read with numpy instead of torchvision.io.read_image); ToTensor/Lambda transforms written as plain
#          functions (no torchvision); batches are moved to the GPU with pin_memory when one exists; checks at the end.
# reference: real
import csv
import os
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

root = tempfile.mkdtemp()
rng = np.random.default_rng(0)
with open(os.path.join(root, "labels.csv"), "w", newline="") as f:
    writer = csv.writer(f)
    for i in range(100):
        name = f"img_{i}.npy"
        np.save(os.path.join(root, name), (rng.random((28, 28)) * 255).astype(np.uint8))
        writer.writerow([name, i % 10])


def to_tensor(image):
    return torch.from_numpy(image).float().div(255).unsqueeze(0)


def one_hot(y):
    return torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1)


class CustomImageDataset(Dataset):
    def __init__(self, annotations_file, img_dir, transform=None, target_transform=None):
        with open(annotations_file) as f:
            self.img_labels = [(row[0], int(row[1])) for row in csv.reader(f)]
        self.img_dir = img_dir
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.img_labels)

    def __getitem__(self, idx):
        img_path = os.path.join(self.img_dir, self.img_labels[idx][0])
        image = np.load(img_path)
        label = self.img_labels[idx][1]
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


training_data = CustomImageDataset(os.path.join(root, "labels.csv"), root, transform=to_tensor,
                                   target_transform=one_hot)
use_cuda = torch.cuda.is_available()
train_dataloader = DataLoader(training_data, batch_size=16, shuffle=True, pin_memory=use_cuda)

train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
img = train_features[0].squeeze()
label = train_labels[0]
print(f"Label: {label}")

seen, sums = 0, torch.zeros(10)
device = "cuda" if use_cuda else "cpu"
for X, y in train_dataloader:
    X, y = X.to(device, non_blocking=True), y.to(device, non_blocking=True)
    seen += X.shape[0]
    sums += y.sum(0).cpu()

# Checks of what it computed.
assert train_features.shape == (16, 1, 28, 28) and train_labels.shape == (16, 10)
assert img.shape == (28, 28) and float(label.sum()) == 1.0 and 0.0 <= float(img.min()) and float(img.max()) <= 1.0
assert train_features.is_pinned() == use_cuda
assert seen == 100 and sums.tolist() == [10.0] * 10 and X.device.type == device
print("checks passed")

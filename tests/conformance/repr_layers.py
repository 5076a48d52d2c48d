# repr of common layers (extra_repr).
import torch.nn as nn

print(nn.Linear(10, 5))
print(nn.Linear(3, 1, bias=False))
print(nn.Conv2d(3, 16, 3))
print(nn.Conv2d(3, 16, kernel_size=(3, 5), stride=2, padding=1))
print(nn.Conv2d(8, 8, 3, stride=1, padding=1, bias=False))
print(nn.Conv2d(4, 4, 3, dilation=2, groups=2))
print(nn.BatchNorm1d(7))
print(nn.BatchNorm2d(64, eps=1e-3, momentum=0.01))
print(nn.BatchNorm2d(4, affine=False, track_running_stats=False))
print(nn.LayerNorm(10))
print(nn.LayerNorm([4, 5], elementwise_affine=False))
print(nn.Embedding(100, 16))
print(nn.Embedding(10, 3, padding_idx=0))
print(nn.Dropout())
print(nn.Dropout(0.1))
print(nn.ReLU(), nn.ReLU(inplace=True))

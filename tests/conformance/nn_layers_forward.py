# Forward values of common layers with fixed weights (results exactly representable).
import torch
import torch.nn as nn
import torch.nn.functional as F

conv = nn.Conv2d(1, 2, kernel_size=2, bias=True)
with torch.no_grad():
    conv.weight.copy_(torch.tensor([[[[1., 0.], [0., 1.]]], [[[1., 1.], [1., 1.]]]]))
    conv.bias.copy_(torch.tensor([0., -1.]))
img = torch.arange(9.).reshape(1, 1, 3, 3)
out = conv(img)
print(out.shape)
print(out)
pad = nn.Conv2d(1, 1, 3, padding=1, bias=False)
with torch.no_grad():
    pad.weight.fill_(1.)
print(pad(img))
strided = nn.Conv2d(1, 1, 2, stride=2, bias=False)
with torch.no_grad():
    strided.weight.fill_(0.5)
print(strided(torch.arange(16.).reshape(1, 1, 4, 4)))
emb = nn.Embedding(4, 2)
with torch.no_grad():
    emb.weight.copy_(torch.arange(8.).reshape(4, 2))
print(emb(torch.tensor([[0, 3], [2, 2]])))
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    seq[0].weight.copy_(torch.tensor([[1., -1.], [2., 0.5]]))
    seq[0].bias.copy_(torch.tensor([0., -4.]))
    seq[2].weight.copy_(torch.tensor([[1., 1.]]))
    seq[2].bias.fill_(0.5)
print(seq(torch.tensor([[3., 1.], [1., 3.]])))
print(F.relu(torch.tensor([-1., 0., 2.])), torch.relu(torch.tensor([-3, 3])))
print(F.softmax(torch.tensor([0., 0., 0., 0.]), dim=0), F.log_softmax(torch.zeros(2), dim=0))
print(torch.sigmoid(torch.tensor([0.])), torch.tanh(torch.tensor([0.])))
print(nn.Flatten()(torch.zeros(2, 3, 4)).shape, nn.Identity()(img) is img)
print(F.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2))
print(F.avg_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2))

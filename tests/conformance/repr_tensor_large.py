# Tensor printing: summarization above 1000 elements, line wrapping at 80 columns.
import torch

print(torch.arange(2000))
print(torch.arange(1001.))
print(torch.arange(1000))
print(torch.arange(10000.).reshape(100, 100))
print(torch.arange(30.))
print(torch.arange(40))
print(torch.arange(24.).reshape(2, 3, 4) * 1000)
print(torch.arange(3000).reshape(3, 10, 100))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
torch.set_printoptions(linewidth=40)
print(torch.arange(20.))
torch.set_printoptions(profile='default')
print(torch.ones(1001).shape)

# Tensor printing with nan and inf values.
import torch

nan = float('nan')
inf = float('inf')
print(torch.tensor([nan, 1., 2.]))
print(torch.tensor([inf, -inf, 1.5]))
print(torch.tensor([nan, inf]))
print(torch.tensor([1e-5, nan]))
print(torch.tensor(nan), torch.tensor(-inf))
print(torch.tensor([0., 0.]) / 0)
print(torch.tensor([1., -1.]) / 0)

# A range as an index is a sequence of ints, as a list is (the nn_tutorial's input[range(n), target]).
import torch

x = torch.arange(12.).reshape(4, 3)
print(x[range(4), torch.tensor([0, 1, 2, 0])])
print(x[range(1, 3)])
print(x[:, range(0, 3, 2)])
print(x[range(0)].shape)
x[range(2)] = 0
print(x)
w = torch.ones(4, 3, requires_grad=True)
(w * 2)[range(4), [0, 1, 2, 0]].sum().backward()
print(w.grad)

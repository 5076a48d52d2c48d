# torch.typename / Tensor.type() / is_tensor for tensors of every common dtype and for non-tensors.
import torch
import torch.nn as nn

for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
           torch.int16, torch.int8, torch.uint8, torch.bool]:
    t = torch.zeros(1, dtype=dt)
    print(dt, torch.typename(t), t.type())
print(torch.typename(1), torch.typename('a'), torch.typename([1]), torch.typename(None), torch.typename(1.5))

class Custom(nn.Module):
    pass

print(torch.typename(Custom()), torch.typename(Custom))
print(torch.typename(nn.Linear(1, 1)), torch.typename(nn.ReLU()))
print(torch.zeros(1).type(torch.float64).type(), torch.zeros(1).type('torch.LongTensor').dtype)
print(torch.is_tensor(torch.zeros(1)), torch.is_tensor(nn.Parameter(torch.zeros(1))), torch.is_tensor([1]))
print(type(torch.zeros(1)), type(nn.Parameter(torch.zeros(1))))
print(type(nn.Linear(1, 1)), type(torch.device('cpu')), type(torch.float32))

# float16 / bfloat16 conversions round like PyTorch and print with their dtype.
import torch

print(torch.tensor([1, 2]).to(torch.float16), torch.tensor([0.1]).half().float())
print(torch.tensor([1.1, 2.2]).bfloat16())
print(torch.tensor([1.1, 2.2]).bfloat16().float())
print(torch.tensor([65504., 70000.]).half())
print(torch.tensor([1e-8]).half(), torch.tensor([3.14159]).half())
h = torch.ones(3, dtype=torch.float16)
print(h + h, (h * 0.1).dtype)
print(h.element_size(), h.bfloat16().element_size(), h.double().element_size())

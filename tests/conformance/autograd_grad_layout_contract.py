# AccumulateGrad's layout contract (torch/csrc/autograd/utils/grad_layout_contract.h): a dense leaf's .grad
# has the leaf's strides whatever layout the backward produced (transposes, expands, permutes); a leaf that
# is not dense gets a contiguous .grad; gradients accumulated later keep that layout.
import torch

w = torch.ones(3, 4, requires_grad=True)
(w.t() * torch.arange(3.)).sum().backward()
print("t() of a contiguous leaf", w.grad.stride(), w.grad.tolist())
v = torch.ones(3, 4, requires_grad=True)
(v.t().contiguous() * 2).sum().backward()
print("contiguous() of its t()", v.grad.stride())
u = torch.ones(4, 3).t().requires_grad_()
(u * 2).sum().backward()
print("column-major leaf", u.stride(), u.grad.stride())
(u.t().contiguous() * 3).sum().backward()
print("accumulated", u.grad.stride(), u.grad.tolist())
p = torch.ones(2, 3, 4).permute(2, 0, 1).requires_grad_()
(p.contiguous() * torch.arange(4.).reshape(4, 1, 1)).sum().backward()
print("permuted leaf", p.stride(), p.grad.stride())
e = torch.ones(1, 4, requires_grad=True)
(e.expand(3, 4) * torch.arange(4.)).sum().backward()
print("expanded use", e.grad.stride(), e.grad.tolist())
s = torch.ones(4, 6)[:, ::2].requires_grad_()  # not dense: its .grad is contiguous
(s * 2).sum().backward()
print("strided leaf", s.stride(), s.grad.stride(), s.grad.is_contiguous())
lin = torch.nn.Linear(5, 3)
lin(torch.ones(2, 5)).sum().backward()
print("linear", lin.weight.grad.stride(), lin.bias.grad.stride())

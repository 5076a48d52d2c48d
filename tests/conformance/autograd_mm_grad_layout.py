# Gradients of mm/addmm keep PyTorch's layouts and values: nn.Linear's weight.grad is contiguous (PyTorch's
# mm_mat2_backward computes a column-major operand's gradient transposed), a column-major input gets a
# column-major gradient, and the float32 products round as PyTorch's float32 gemm does (bit-identical
# here: both sides use the same BLAS).
import torch
import torch.nn as nn

x = (torch.arange(8 * 6, dtype=torch.float32).reshape(8, 6) % 17) / 7.0 - 1.1
g = (torch.arange(8 * 5, dtype=torch.float32).reshape(8, 5) % 7) / 3.0 - 1.0
for bias in (True, False):
    w = ((torch.arange(5 * 6, dtype=torch.float32).reshape(5, 6) % 13) / 11.0 - 0.4).requires_grad_()
    xx = x.clone().requires_grad_()
    b = (torch.arange(5, dtype=torch.float32) / 9.0).requires_grad_() if bias else None
    y = torch.nn.functional.linear(xx, w, b)
    y.backward(g)
    print(bias, type(y.grad_fn).__name__, y.stride())
    print("w.grad", w.grad.stride(), w.grad.is_contiguous(), [float.hex(v) for v in w.grad.reshape(-1).tolist()])
    print("x.grad", xx.grad.stride(), [float.hex(v) for v in xx.grad.reshape(-1).tolist()])
    a = x.t().contiguous().t().requires_grad_()
    (a @ w.detach().t()).backward(g)
    print("column-major mat1 grad", a.grad.stride(), a.grad.is_contiguous(), [float.hex(v) for v in a.grad.reshape(-1).tolist()])
    a2 = x.t().contiguous().t().requires_grad_()
    torch.addmm(torch.zeros(5), a2, w.detach().t()).backward(g)
    print("addmm column-major mat1 grad", a2.grad.stride(), [float.hex(v) for v in a2.grad.reshape(-1).tolist()])

model = nn.Sequential(nn.Linear(12, 7), nn.ReLU(), nn.Linear(7, 3))
nn.CrossEntropyLoss()(model(torch.ones(4, 12)), torch.tensor([0, 1, 2, 0])).backward()
for name, p in model.named_parameters():
    print(name, tuple(p.shape), p.stride(), p.grad.stride(), p.grad.is_contiguous())

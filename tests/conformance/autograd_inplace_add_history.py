# In-place add_/sub_ under autograd continue the tensor's own history (PyTorch's rebase_history): the new
# AddBackward0/SubBackward0's first edge is the op that made the tensor (no copy's node in between), the
# second the other operand's; alpha is saved; gradients flow through both; a tensor that did not require grad
# gets the node; a leaf that requires grad is refused. nn.Linear on a 3-D non-contiguous input takes this path
# (matmul, then the bias added in place).
import torch
import torch.nn as nn


def names(node):
    return [type(n).__name__ if n is not None else None for n, _ in node.next_functions]


w = torch.arange(12.0).view(3, 4).requires_grad_()
b = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
for op in ("add_(b)", "add_(b, alpha=2)", "add_(2.5)", "sub_(b)", "sub_(b, alpha=0.5)", "sub_(3)"):
    m = w * 2
    eval("m." + op)
    print(op, type(m.grad_fn).__name__, names(m.grad_fn), m._version, m.grad_fn._saved_alpha)
    m.sum().backward()
    print(" grads", w.grad.tolist(), None if b.grad is None else b.grad.tolist())
    w.grad = None
    b.grad = None

# a tensor without history takes the other operand's
z = torch.zeros(2, 3, 4)
z.add_(w, alpha=3)
print(type(z.grad_fn).__name__, names(z.grad_fn), z.requires_grad, z.is_leaf)
z.sub_(w)
print(type(z.grad_fn).__name__, names(z.grad_fn), z._version)
z.sum().backward()
print(w.grad.tolist())
w.grad = None

# mixed dtypes: the gradient comes back in each operand's dtype
y = torch.ones(4, dtype=torch.float64, requires_grad=True) * 1
f = torch.ones(4, dtype=torch.float32, requires_grad=True)
y.add_(f)
print(names(y.grad_fn), y.dtype)
y.sum().backward()
print(f.grad.dtype, f.grad.tolist())

# broadcasting: the other operand's gradient is summed back to its shape
x = torch.arange(6.0).view(2, 3).requires_grad_()
r = x * 1
c = torch.tensor([[1.0], [2.0]], requires_grad=True)
r.add_(c)
(r * torch.arange(6.0).view(2, 3)).sum().backward()
print(x.grad.tolist(), c.grad.tolist())

# errors
leaf = torch.ones(3, requires_grad=True)
try:
    leaf.add_(1)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    (leaf * 1).add_(torch.ones(2, 3))
except RuntimeError as e:
    print(type(e).__name__, e)

# nn.Linear on a transposed (non-contiguous) 3-D input: matmul, then the bias added in place
lin = nn.Linear(4, 2)
with torch.no_grad():
    lin.weight.copy_(torch.arange(8.0).view(2, 4) / 8)
    lin.bias.copy_(torch.tensor([0.5, -0.5]))
inp = torch.arange(24.0).view(3, 2, 4).transpose(0, 1)
out = lin(inp)
print(type(out.grad_fn).__name__, names(out.grad_fn), out.shape)
out.sum().backward()
print(lin.bias.grad.tolist(), lin.weight.grad.tolist())

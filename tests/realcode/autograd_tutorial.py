# source: https://pytorch.org/tutorials/beginner/basics/autogradqs_tutorial.html (Automatic Differentiation)
# changed: the tensors are placed on the GPU when one exists (the tutorial runs on the CPU); checks at the end
#          (gradients equal the analytic ones, grad modes, detach, Jacobian-vector products accumulate).
# reference: real
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.ones(5, device=device)  # input tensor
y = torch.zeros(3, device=device)  # expected output
w = torch.randn(5, 3, requires_grad=True, device=device)
b = torch.randn(3, requires_grad=True, device=device)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)

print(f"Gradient function for z = {z.grad_fn}".split(" object")[0])
print(f"Gradient function for loss = {loss.grad_fn}".split(" object")[0])

loss.backward()
print(w.grad)
print(b.grad)

z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)

z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)

# Tensor Gradients and Jacobian Products
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
first = inp.grad.clone()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")

# Checks of what it computed: d loss / d z = (sigmoid(z) - y) / 3, d loss / d w = x^T (that).
zz = torch.matmul(x, w) + b
dz = (torch.sigmoid(zz) - y) / 3
assert torch.allclose(b.grad, dz, atol=1e-6) and torch.allclose(w.grad, torch.outer(x, dz), atol=1e-6)
assert w.grad.device.type == device and b.grad.shape == (3,)
assert not z_det.requires_grad and torch.allclose(first, 2 * (torch.eye(4, 5) + 1))
assert torch.allclose(inp.grad, first)
print("checks passed")

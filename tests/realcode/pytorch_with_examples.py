# source: https://pytorch.org/tutorials/beginner/pytorch_with_examples.html (Learning PyTorch with Examples:
#         tensors, autograd, custom autograd Function, nn, optim, custom nn Module, control flow + weight sharing)
# changed: the seven programs run one after another in one script with 500-1000 iterations instead of 2000-30000;
#          Adam(lr=1e-2) instead of RMSprop(lr=1e-3) in the optim version; the tensor versions run on the GPU when
#          one exists; checks at the end (each fit's loss falls).
# reference: real
import math
import random

import torch

dtype = torch.float
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
random.seed(0)
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
results = {}

# PyTorch: Tensors (manual gradients)
a, b, c, d = (torch.randn((), device=device, dtype=dtype) for _ in range(4))
learning_rate = 1e-6
first = None
for t in range(1000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    first = loss if first is None else first
    if t % 250 == 99:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
results["tensors"] = (first, loss)
print(f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')

# PyTorch: Tensors and autograd
a, b, c, d = (torch.randn((), device=device, dtype=dtype, requires_grad=True) for _ in range(4))
first = None
for t in range(1000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    first = loss.item() if first is None else first
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None
results["autograd"] = (first, loss.item())


# PyTorch: Defining new autograd functions
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
first = None
for t in range(500):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    first = loss.item() if first is None else first
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None
results["function"] = (first, loss.item())

# PyTorch: nn
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3], device=device))
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).to(device)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-6
first = None
for t in range(1000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    first = loss.item() if first is None else first
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
results["nn"] = (first, loss.item())
linear_layer = model[0]

# PyTorch: optim
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)  # the tutorial uses RMSprop(lr=1e-3)
first = None
for t in range(1000):
    loss = loss_fn(model(xx), y)
    first = loss.item() if first is None else first
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
results["optim"] = (first, loss.item())


# PyTorch: Custom nn Modules
class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return f'y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + {self.d.item()} x^3'


model = Polynomial3().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
first = None
for t in range(1000):
    loss = torch.nn.MSELoss(reduction='sum')(model(x), y)
    first = loss.item() if first is None else first
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
results["module"] = (first, loss.item())
print(f'Result: {model.string()}')


# PyTorch: Control Flow + Weight Sharing
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y


model = DynamicNet().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
first = None
for t in range(1000):
    loss = torch.nn.MSELoss(reduction='sum')(model(x), y)
    first = loss.item() if first is None else first
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
results["dynamic"] = (first, loss.item())

# Checks of what it computed.
for name, (start, end) in results.items():
    print(name, round(start, 1), "->", round(end, 1))
    assert end < start, (name, start, end)
assert all(end < start / 5 for start, end in results.values()), results
assert linear_layer.weight.shape == (1, 3) and linear_layer.weight.device == device
print("checks passed")

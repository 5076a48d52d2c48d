# source: https://pytorch.org/docs/stable/notes/extending.html (Extending torch.autograd: LinearFunction,
#         MulConstant, and a Module wrapping the Function)
# changed: gradcheck on 8x8 / 6x8 inputs instead of 20x20 / 30x20, plus a deliberately wrong backward that
#          gradcheck must reject; the module runs on the GPU when one exists; checks at the end.
# reference: real
import torch
from torch.autograd import Function
import torch.nn as nn


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        nn.init.uniform_(self.weight, -0.1, 0.1)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -0.1, 0.1)

    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None)


torch.manual_seed(0)
x = torch.randn(20, 20, dtype=torch.double, requires_grad=True)
w = torch.randn(30, 20, dtype=torch.double, requires_grad=True)
b = torch.randn(30, dtype=torch.double, requires_grad=True)
out = LinearFunction.apply(x, w, b)
out.sum().backward()


from torch.autograd import gradcheck

# gradcheck takes a tuple of tensors as input, check if your gradient evaluated with these tensors are close
# enough to numerical approximations and returns True if they all verify this condition.
input = (torch.randn(8, 8, dtype=torch.double, requires_grad=True),
         torch.randn(6, 8, dtype=torch.double, requires_grad=True))
test = gradcheck(LinearFunction.apply, input, eps=1e-6, atol=1e-4)
print(test)


class WrongBackward(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 3


caught = None
try:
    gradcheck(WrongBackward.apply, (torch.randn(3, dtype=torch.double, requires_grad=True),))
except RuntimeError as e:
    caught = str(e).splitlines()[0]
c = torch.ones(3, requires_grad=True)
MulConstant.apply(c, 5.0).sum().backward()

device = "cuda" if torch.cuda.is_available() else "cpu"
layer = Linear(4, 2).to(device)
y = layer(torch.ones(3, 4, device=device))
y.sum().backward()
print(layer)

# Checks of what it computed.
assert torch.allclose(x.grad, torch.ones(20, 30, dtype=torch.double).mm(w.detach()))
assert test is True and caught == "Jacobian mismatch for output 0 with respect to input 0,", caught
assert torch.allclose(b.grad, torch.full((30,), 20.0, dtype=torch.double))
assert c.grad.tolist() == [5.0, 5.0, 5.0]
assert y.shape == (3, 2) and y.device.type == device and layer.weight.grad.device.type == device
assert torch.allclose(layer.bias.grad.cpu(), torch.full((2,), 3.0)) and repr(layer).startswith("Linear(input_features=4")
print("checks passed")

# A second backward without retain_graph: PyTorch frees only what nodes saved, so a graph whose nodes saved no
# tensor (views, expand, add, sum) runs again, and one through a freed tensor or a saved number raises; saved
# attributes read after backward raise the same way. Compared with real PyTorch line by line.
import torch


def twice(label, make):
    a = torch.ones(2, 3, requires_grad=True)
    out = make(a)
    out.sum().backward()
    try:
        out.sum().backward()
        print(label, "second backward ran", a.grad.sum().item())
    except RuntimeError as e:
        print(label, "RuntimeError", str(e)[:60])


twice("expand", lambda a: a.expand(4, 2, 3))
twice("add scalar", lambda a: a + 1)
twice("add tensors", lambda a: a + a)
twice("views", lambda a: a.view(3, 2).t().reshape(6)[1:4])
twice("sum dim", lambda a: a.sum(0) - 2)
twice("mul scalar", lambda a: a * 2)
twice("div scalar", lambda a: a / 2)
twice("mul tensors", lambda a: a * a)
twice("relu", torch.relu)
twice("exp", torch.exp)
twice("cat", lambda a: torch.cat([a, a], 0))
twice("neg", lambda a: -a)


class Plain(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3

    @staticmethod
    def backward(ctx, g):
        return g * 3


class Saving(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3


twice("Function without saved tensors", Plain.apply)
twice("Function with saved tensors", Saving.apply)

a = torch.ones(3, requires_grad=True)
b = a * 2.5
print("saved other before", b.grad_fn._saved_other)
b.sum().backward()
try:
    print(b.grad_fn._saved_other)
except RuntimeError as e:
    print("saved other after", str(e)[:60])
c = a.exp()
c.sum().backward(retain_graph=True)
c.sum().backward()
print("retain_graph", a.grad)
try:
    c.grad_fn._saved_result
except RuntimeError as e:
    print("saved result after", str(e)[:60])

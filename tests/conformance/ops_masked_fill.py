# masked_fill / masked_fill_ against real PyTorch: MaskedFillBackward0 (a number) / MaskedFillBackward1 (a 0-dim
# tensor) with the mask saved, next_functions, values (a float into an int tensor truncates), gradients (self's
# summed back when the out-of-place op broadcast it; the value's is the masked sum), in-place history on a
# non-leaf, the errors. (Allocations, which real PyTorch on the CPU does not show: scenario_masked_fill_allocations.)
import torch

torch.manual_seed(0)
x = torch.randn(4, 5, requires_grad=True)
m = torch.rand(4, 5) > 0.5
y = x * 2
z = y.masked_fill(m, 0.5)
print(type(z.grad_fn).__name__, [type(f).__name__ for f, _ in z.grad_fn.next_functions],
      tuple(z.grad_fn._saved_mask.shape), z.grad_fn._saved_mask.equal(m), z.is_contiguous())
y.masked_fill_(m, float("-inf"))
print(type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions], y._version)
v = torch.tensor(3.0, requires_grad=True)
w = (x * 1).masked_fill(m[0], v)
print(type(w.grad_fn).__name__, [type(f).__name__ if f is not None else None for f, _ in w.grad_fn.next_functions])
(z * torch.arange(20.0).reshape(4, 5)).sum().backward(retain_graph=True)
print(x.grad)
w.sum().backward()
print(v.grad, x.grad)
# out of place with self broadcast: the gradient comes back to self's shape
s = torch.randn(5, requires_grad=True)
r = s.masked_fill(m, -1.0)
print(tuple(r.shape), type(r.grad_fn).__name__)
r.backward(torch.arange(20.0).reshape(4, 5))
print(s.grad)
print(y.detach())
for dtype in (torch.int64, torch.int32, torch.bool, torch.float64):
    print(dtype, torch.zeros(3, dtype=dtype).masked_fill(torch.tensor([True, False, True]), 2.7),
          torch.ones(3, dtype=dtype).masked_fill_(torch.tensor([False, True, False]), torch.tensor(0)))
b = torch.zeros(2, 3)
b.masked_fill_(torch.tensor([True, False, True]), 7)
print(b)
for f in (lambda: torch.zeros(2, 3).masked_fill_(torch.tensor([True, False]), 1.0),
          lambda: torch.zeros(3).masked_fill_(torch.ones(2, 3, dtype=torch.bool), 1.0),
          lambda: torch.zeros(2, 3).masked_fill(torch.ones(2, 3, dtype=torch.bool), torch.tensor([1.0])),
          lambda: torch.zeros(2, 3, requires_grad=True).masked_fill_(torch.ones(2, 3, dtype=torch.bool), 1.0)):
    try:
        f()
        print("no error")
    except RuntimeError as e:
        print("RuntimeError", str(e).splitlines()[0])
# In place without a graph, a same-shaped mask (written straight into self's memory): -inf, NaN, an int, float64,
# a transposed (strided) self, the version counter.
for dtype in (torch.float32, torch.float64):
    for value in (float("-inf"), float("nan"), 3, -2.5):
        t = torch.arange(12.0, dtype=dtype).reshape(3, 4).t()
        mk = torch.arange(12).reshape(4, 3) % 3 == 0
        t.masked_fill_(mk, value)
        print(dtype, value, t._version, t.tolist())
with torch.no_grad():
    q = torch.zeros(2, 3, requires_grad=True)
    q.masked_fill_(torch.tensor([[True, False, True], [False, False, True]]), 4.0)
    print(q, q._version, q.grad_fn)

# What in-place and ternary pointwise ops allocate under autograd, as PyTorch's VariableType and ATen kernels do:
# nothing for an in-place op whose formulas need only other operands (mul_ by a constant, addcmul_, lerp_ with a
# number weight, add_); one clone of self's old values (original_self, kept by the node until backward frees it)
# where a formula needs them (pow_, copysign_, clamp_ with tensor bounds, lerp_ with a tensor weight, mul_ when the
# other operand needs a gradient); exactly one result for the out-of-place ternary ops (no intermediates). The
# clone lives as long as the node: after backward, memory is back where it was before the op.
import torch
torch.cuda.memory._record_memory_history(max_entries=100000)


def trace(label, f):
    n0 = len(torch.cuda.memory._snapshot()["device_traces"][0])
    r = f()
    ev = torch.cuda.memory._snapshot()["device_traces"][0][n0:]
    print(label, [f"{e['action']}:{e['size']}" for e in ev if e["action"] in ("alloc", "free_completed")],
          type(r.grad_fn).__name__ if r.grad_fn is not None else None)
    return r


w = torch.randn(256, device="cuda", requires_grad=True)   # 1 KiB each
t = torch.randn(256, device="cuda")
tg = torch.randn(256, device="cuda", requires_grad=True)
pos = t.abs() + 1
for label, f in [("mul_ number", lambda y: y.mul_(2.0)), ("mul_ tensor", lambda y: y.mul_(t)),
                 ("mul_ tensor needing grad", lambda y: y.mul_(tg)), ("pow_ number", lambda y: y.pow_(2)),
                 ("copysign_", lambda y: y.copysign_(t)), ("addcmul_", lambda y: y.addcmul_(t, tg, value=0.5)),
                 ("addcdiv_", lambda y: y.addcdiv_(tg, pos)), ("lerp_ number", lambda y: y.lerp_(tg, 0.3)),
                 ("lerp_ tensor weight", lambda y: y.lerp_(t, tg)), ("clamp_ tensor", lambda y: y.clamp_(min=t)),
                 ("addcmul", lambda y: torch.addcmul(y, t, tg)), ("lerp", lambda y: torch.lerp(y, t, 0.5)),
                 ("clamp tensor", lambda y: torch.clamp(y, t, tg))]:
    y = w * 1
    before = torch.cuda.memory_allocated()
    r = trace(label, lambda: f(y))
    r.sum().backward()
    w.grad = tg.grad = None
    print("  after backward", torch.cuda.memory_allocated() - before)
    del y, r

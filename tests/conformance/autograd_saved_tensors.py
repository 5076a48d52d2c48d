# What each autograd node saves for backward (its `_saved_*` attributes): the tensors it keeps alive until
# backward runs, which is what DeviceScope's memory view shows as activations. Per op: the node's name,
# its `_saved_*` names with their values (tensors as shape, `=x` when it is the very input object, `~out`
# when it shares the output's storage, None when the op did not need it for this call).
# Left out where PyTorch 1.13 and 2.x differ (see README): 2.x spells the saved sizes of mean, max(dim),
# select, squeeze, index, index_select, split and sort `self_sym_*`; 2.x's MeanBackward1 no longer keeps
# self and EmbeddingBackward0 keeps the weight's row count, not the weight; negative ints print unsigned in
# 1.13. For those ops only the tensors they save are compared (section "tensors only").
import torch
import torch.nn.functional as F

x = (torch.arange(20, dtype=torch.float32).reshape(4, 5) * 0.37).sin().requires_grad_()
x2 = (torch.arange(20, dtype=torch.float32).reshape(4, 5) * 0.53).cos().requires_grad_()
w = (torch.arange(15, dtype=torch.float32).reshape(3, 5) * 0.11).sin().requires_grad_()
b = torch.tensor([0.1, -0.2, 0.3], requires_grad=True)
c = torch.arange(20, dtype=torch.float32).reshape(4, 5) / 10 + 0.5
t = torch.tensor([0, 2, 1, 4])


def show(v, out):
    if isinstance(v, torch.Tensor):
        tag = "=x" if v is x else ("~out" if v.data_ptr() == out.data_ptr() else "")
        return f"T{list(v.shape)}{tag}"
    if isinstance(v, tuple) and any(isinstance(e, torch.Tensor) for e in v):
        return "(" + ", ".join(show(e, out) if e is not None else "None" for e in v) + ")"
    return repr(v)


def saved(out, tensors_only=False):
    g = out.grad_fn
    parts = []
    for name in sorted(a for a in dir(g) if a.startswith("_saved_")):
        v = getattr(g, name)
        is_tensor = isinstance(v, torch.Tensor) or (isinstance(v, tuple) and any(isinstance(e, torch.Tensor)
                                                                                  for e in v))
        if tensors_only and not is_tensor:
            continue
        parts.append(f"{name[7:]}={show(v, out)}")
    return g.name() + " " + " ".join(parts)


ops = {
    "add": lambda: x + x2, "add_scalar": lambda: x + 2.0, "add_alpha": lambda: torch.add(x, x2, alpha=2),
    "sub": lambda: x - c, "rsub": lambda: 1.0 - x, "neg": lambda: -x,
    "mul": lambda: x * x2, "mul_const": lambda: x * c, "const_mul": lambda: c * x, "mul_scalar": lambda: x * 3.0,
    "scalar_mul": lambda: 3.0 * x, "div": lambda: x / (x2 + 2), "div_const": lambda: x / c,
    "const_div": lambda: c / (x + 2), "div_scalar": lambda: x / 4.0, "scalar_div": lambda: 2.0 / (x + 2),
    "pow_scalar": lambda: x ** 2, "square": lambda: x.square(), "pow_tensor": lambda: (x + 2) ** x2,
    "exp": lambda: x.exp(), "log": lambda: (x + 2).log(), "sqrt": lambda: (x + 2).sqrt(), "abs": lambda: x.abs(),
    "sin": lambda: x.sin(), "tanh": lambda: x.tanh(), "sigmoid": lambda: x.sigmoid(), "relu": lambda: x.relu(),
    "clamp": lambda: x.clamp(-0.5, 0.5), "clamp_min": lambda: x.clamp(min=0.25),
    "maximum": lambda: torch.maximum(x, x2), "where": lambda: torch.where(c > 1, x, x2),
    "sum": lambda: x.sum(), "sum_dim": lambda: x.sum(1), "sum_keepdim": lambda: x.sum((0, 1), keepdim=True),
    "max": lambda: x.max(), "amax": lambda: x.amax(1), "prod": lambda: x.prod(),
    "logsumexp": lambda: x.logsumexp(1), "cumsum": lambda: x.cumsum(1),
    "softmax": lambda: x.softmax(1), "log_softmax": lambda: F.log_softmax(x, 1),
    "mm": lambda: x.mm(w.t()), "mm_const_input": lambda: c.mm(w.t()), "matmul": lambda: x @ w.t(),
    "linear": lambda: F.linear(x, w, b), "linear_const_input": lambda: F.linear(c, w, b),
    "linear_nobias": lambda: F.linear(x, w), "addmm": lambda: torch.addmm(b, x, w.t(), beta=2, alpha=3),
    "bmm": lambda: x.view(2, 2, 5).bmm(x2.view(2, 5, 2)), "mv": lambda: x.mv(x2[0]),
    "dot": lambda: x[0].dot(x2[0]),
    "view": lambda: x.view(20), "t": lambda: x.t(), "transpose": lambda: x.transpose(0, 1),
    "permute": lambda: x.permute(1, 0), "unsqueeze": lambda: x.unsqueeze(0), "expand": lambda: x[:1].expand(3, 5),
    "slice": lambda: x[1:3], "slice_dim1": lambda: x[:, 2:4], "gather": lambda: x.gather(1, t.view(4, 1)),
    "cat": lambda: torch.cat([x, x2]), "stack": lambda: torch.stack([x, x2], 1), "repeat": lambda: x.repeat(2, 1),
    "flip": lambda: x.flip(0), "clone": lambda: x.clone(), "to_double": lambda: x.double(),
    "dropout_eval": lambda: F.dropout(x * 1.0, 0.5, training=False), "dropout_p0": lambda: F.dropout(x * 1.0, 0.0),
    "dropout_cpu": lambda: F.dropout(x, 0.5),  # CPU: input * noise, MulBackward0 keeps the noise (CUDA: the mask)
    "mse_loss": lambda: F.mse_loss(x, c), "mse_loss_sum": lambda: F.mse_loss(x, x2, reduction="sum"),
    "bce": lambda: F.binary_cross_entropy(x.sigmoid(), c / 3),
    "bce_logits": lambda: F.binary_cross_entropy_with_logits(x, c / 3),
    "smooth_l1": lambda: F.smooth_l1_loss(x, c), "huber": lambda: F.huber_loss(x, c),
    "gelu": lambda: F.gelu(x), "silu": lambda: F.silu(x), "leaky_relu": lambda: F.leaky_relu(x),
    "elu": lambda: F.elu(x), "hardtanh": lambda: F.hardtanh(x), "softplus": lambda: F.softplus(x),
    "layer_norm": lambda: F.layer_norm(x, (5,)),
}
for name, op in ops.items():
    print(name, saved(op()))

print("-- tensors only")
tensors_only = {
    "mean": lambda: x.mean(), "max_dim": lambda: x.max(1).values, "select": lambda: x[1],
    "squeeze": lambda: x.unsqueeze(0).squeeze(0), "index": lambda: x[t[:2]],
    "index_select": lambda: x.index_select(0, t[:2]), "split": lambda: x.split(2)[0],
    "sort": lambda: x.sort(1).values, "l1_loss": lambda: F.l1_loss(x, c), "cross_entropy": lambda: F.cross_entropy(x, t),
    "nll_loss": lambda: F.nll_loss(F.log_softmax(x, 1), t, weight=torch.ones(5)),
}
for name, op in tensors_only.items():
    print(name, saved(op(), tensors_only=True))

# A saved input is that very tensor; a saved output is a new tensor object on the same storage whose
# grad_fn is the node itself. Saved values are read-only.
y = x.exp()
r = y.grad_fn._saved_result
print(r is y, r.data_ptr() == y.data_ptr(), r.grad_fn is y.grad_fn, r.requires_grad)
z = (x + 2).log()
print(z.grad_fn._saved_self is z.grad_fn._saved_self, z.grad_fn._saved_self.grad_fn.name())
print(hasattr(y.grad_fn, "_saved_self"), hasattr(y.grad_fn, "_saved_nothing"))
try:
    y.grad_fn._saved_result = x
except AttributeError as e:
    print("AttributeError")

# Backward frees the saved tensors (reading one then fails); saved plain values stay readable.
s = x.softmax(1)
s.sum().backward()
try:
    s.grad_fn._saved_result
except RuntimeError as e:
    print(type(e).__name__, e)
print(s.grad_fn._saved_dim)
p = x.mul(x2)
p.sum().backward(retain_graph=True)
print(p.grad_fn._saved_self is x, p.grad_fn._saved_other is x2)

# In place: relu_ saves its result, which is the tensor itself (no copy); writing to a saved tensor later
# makes backward fail, naming the node that saved an output, or an input's grad_fn at that time.
h = x * 2
h.relu_()
print(h.grad_fn.name(), h.grad_fn.next_functions[0][0].name(), h.grad_fn._saved_result.data_ptr() == h.data_ptr())
e = (x * 2).exp()
e.mul_(3)  # exp's saved output
s = (x2 + 1)
z = s.sin()
s.mul_(3)  # sin's saved input (its grad_fn is now the in-place mul's)
h = x * 2
h.relu_()
h.add_(1)  # relu_'s saved result: the tensor itself
for out in (e, z, h):
    try:
        out.sum().backward()
    except RuntimeError as err:
        print(type(err).__name__, err)

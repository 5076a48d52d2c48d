# Double backward (create_graph=True, then backward through the gradient): a WGAN-GP gradient penalty and
# Hessian-vector products through sum, mean, views, slicing, matmul forms, Linear/conv MLPs, pooling,
# softmax and composite ops. Each backward must build its gradient from differentiable ops under
# create_graph; a gradient without a graph fails ("does not require grad"), a detached recomputation gives
# wrong second-order values (a conv weight's penalty gradient). float64 values, rounded, so both sides agree.
import torch
import torch.nn.functional as F
from torch.autograd import grad


def show(name, fn):
    try:
        r = fn()
        if isinstance(r, torch.Tensor):
            r = [round(float(v), 6) + 0.0 for v in r.detach().reshape(-1).tolist()]  # + 0.0: no -0.0
        print(name, r)
    except Exception as e:  # a failure is printed, so the line differs from real torch's values
        print(name, type(e).__name__, str(e).split("\n")[0])


def x3():
    return torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)


def hvp(f, x, v):
    """Hessian-vector product: grad(grad(f(x), x, create_graph=True)[0] @ v, x)."""
    g, = grad(f(x), x, create_graph=True)
    print("  grad has grad_fn", g.grad_fn is not None)
    return grad(g @ v, x)[0]


def linear(n_in, n_out):
    m = torch.nn.Linear(n_in, n_out).double()
    with torch.no_grad():  # fixed weights (DeviceScope's RNG is not PyTorch's)
        m.weight.copy_(torch.arange(n_in * n_out, dtype=torch.float64).reshape(n_out, n_in) / 10 - 0.3)
        m.bias.copy_(torch.arange(n_out, dtype=torch.float64) / 7)
    return m


def penalty():
    """The lead's repro: the WGAN-GP gradient penalty through nn.Linear (AddmmBackward0)."""
    x = x3()
    w = linear(3, 1)
    out = w(x.unsqueeze(0))
    g, = grad(out.sum(), x, create_graph=True)
    print("  penalty grad has grad_fn", g.grad_fn is not None)
    ((g.norm() - 1) ** 2).backward()
    # the penalty depends on neither the bias nor x (a Linear's input gradient is its weight): None in PyTorch
    print("  bias grad", w.bias.grad, "x grad", x.grad)
    return w.weight.grad


show("penalty", penalty)
v3 = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
show("sum", lambda: hvp(lambda x: x.sum() ** 3, x3(), v3))
show("sum_dim", lambda: hvp(lambda x: (x.reshape(3, 1).sum(1) ** 3).sum(), x3(), v3))
show("sum_dim_keepdim", lambda: hvp(lambda x: (x.reshape(1, 3).sum(0, keepdim=True) ** 3).sum(), x3(), v3))
show("sum_dtype", lambda: hvp(lambda x: x.float().sum(dtype=torch.float64) ** 3, x3(), v3))
show("mean", lambda: hvp(lambda x: x.mean() ** 3, x3(), v3))
show("mean_dim", lambda: hvp(lambda x: (x.reshape(3, 1).expand(3, 2).mean(1) ** 3).sum(), x3(), v3))
show("slice", lambda: hvp(lambda x: (x[1:] ** 3).sum(), x3(), v3))
show("slice_step", lambda: hvp(lambda x: (x[::2] ** 3).sum(), x3(), v3))
show("select", lambda: hvp(lambda x: x[1] ** 3 + x[0] * x[2] ** 2, x3(), v3))
show("narrow", lambda: hvp(lambda x: (x.narrow(0, 1, 2) ** 3).sum(), x3(), v3))
show("index_2d", lambda: hvp(lambda x: (x.reshape(1, 3)[:, 1:] ** 3).sum(), x3(), v3))
show("view_t", lambda: hvp(lambda x: (x.view(3, 1).t() ** 3).sum(), x3(), v3))
show("transpose", lambda: hvp(lambda x: (x.reshape(3, 1).transpose(0, 1) ** 3).sum(), x3(), v3))
show("unsqueeze_squeeze", lambda: hvp(lambda x: (x.unsqueeze(0).squeeze(0) ** 3).sum(), x3(), v3))
show("expand", lambda: hvp(lambda x: (x.expand(2, 3) ** 3).sum(), x3(), v3))
show("permute", lambda: hvp(lambda x: (x.reshape(1, 3, 1).permute(2, 1, 0) ** 3).sum(), x3(), v3))
show("flatten", lambda: hvp(lambda x: (x.reshape(3, 1).flatten() ** 3).sum(), x3(), v3))
show("cat", lambda: hvp(lambda x: (torch.cat([x, x[:1]]) ** 3).sum(), x3(), v3))
show("stack", lambda: hvp(lambda x: (torch.stack([x, x * 2]) ** 3).sum(), x3(), v3))
A = torch.tensor([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], dtype=torch.float64)
show("matmul_mv", lambda: hvp(lambda x: ((A @ x) ** 3).sum(), x3(), v3))
show("matmul_vm", lambda: hvp(lambda x: ((x @ A.t()) ** 3).sum(), x3(), v3))
show("mm_left", lambda: hvp(lambda x: (torch.mm(x.reshape(1, 3), A.t()) ** 3).sum(), x3(), v3))
show("mm_right", lambda: hvp(lambda x: (torch.mm(A, x.reshape(3, 1)) ** 3).sum(), x3(), v3))
show("mm_both", lambda: hvp(lambda x: (torch.mm(x.reshape(3, 1), x.reshape(1, 3)) ** 2).sum(), x3(), v3))
show("bmm", lambda: hvp(lambda x: (torch.bmm(x.reshape(1, 1, 3), A.t().unsqueeze(0)) ** 3).sum(), x3(), v3))
show("matmul_3d", lambda: hvp(lambda x: ((x.reshape(1, 1, 3) @ A.t()) ** 3).sum(), x3(), v3))
show("matmul_3d_batched", lambda: hvp(lambda x: ((x.reshape(1, 3, 1) @ x.reshape(1, 1, 3)) ** 2).sum(), x3(), v3))
show("dot", lambda: hvp(lambda x: torch.dot(x, x) ** 2, x3(), v3))
show("addmm", lambda: hvp(lambda x: (torch.addmm(x[:2], x.reshape(1, 3), A.t()) ** 3).sum(), x3(), v3))
show("addmm_scaled", lambda: hvp(lambda x: (torch.addmm(x[:2], x.reshape(1, 3), A.t(), beta=0.5, alpha=2.0)
                                            ** 3).sum(), x3(), v3))
show("outer", lambda: hvp(lambda x: (torch.outer(x, x) ** 2).sum(), x3(), v3))
show("norm", lambda: hvp(lambda x: x.norm() ** 3, x3(), v3))
show("softmax", lambda: hvp(lambda x: (F.softmax(x, 0) ** 2).sum(), x3(), v3))
show("log_softmax", lambda: hvp(lambda x: (F.log_softmax(x, 0) ** 2).sum(), x3(), v3))
show("mse_loss", lambda: hvp(lambda x: F.mse_loss(x ** 2, torch.zeros(3, dtype=torch.float64)), x3(), v3))


def mlp(act):
    l1, l2 = linear(3, 4), linear(4, 2)
    return lambda x: (l2(act(l1(x.unsqueeze(0)))) ** 2).sum()


ACTS = [("tanh", torch.tanh), ("sigmoid", torch.sigmoid), ("relu", torch.relu), ("gelu", F.gelu),
        ("softplus", F.softplus)]
for name, act in ACTS:
    show("mlp_hvp_" + name, lambda: hvp(mlp(act), x3(), v3))


def mlp_params(act):
    """A penalty on the input gradient of a 2-layer MLP: second-order gradients for every parameter."""
    l1, l2 = linear(3, 4), linear(4, 2)
    x = x3()
    g, = grad((l2(act(l1(x.unsqueeze(0)))) ** 2).sum(), x, create_graph=True)
    (g ** 2).sum().backward()
    return torch.cat([l1.weight.grad.reshape(-1), l1.bias.grad, l2.weight.grad.reshape(-1), l2.bias.grad, x.grad])


for name, act in ACTS[:3]:
    show("mlp_penalty_" + name, lambda: mlp_params(act))


def x44():
    return (torch.arange(16, dtype=torch.float64).reshape(1, 1, 4, 4) / 8 - 1).requires_grad_(True)


def gg(f):
    """grad of a weighted square of the input gradient of f (an image input)."""
    x = x44()
    g, = grad(f(x), x, create_graph=True)
    return grad((g.pow(2) * torch.arange(16, dtype=torch.float64).reshape(1, 1, 4, 4)).sum(), x)[0]


def pool_ones():
    """The lead's repro: real torch gives 8.0."""
    x = torch.ones(1, 1, 4, 4, dtype=torch.float64, requires_grad=True)
    g, = grad((F.avg_pool2d(x, 2) ** 2).sum(), x, create_graph=True)
    return grad(g.pow(2).sum(), x)[0].sum()


show("avg_pool2d_ones", pool_ones)
show("avg_pool2d", lambda: gg(lambda x: (F.avg_pool2d(x, 2) ** 3).sum()))
show("avg_pool2d_padded", lambda: gg(lambda x: (F.avg_pool2d(x, 3, stride=1, padding=1) ** 3).sum()))
show("adaptive_avg_pool2d", lambda: gg(lambda x: (F.adaptive_avg_pool2d(x, (3, 2)) ** 3).sum()))
show("max_pool2d", lambda: gg(lambda x: (F.max_pool2d(x, 2) ** 3).sum()))
show("max_pool2d_padded", lambda: gg(lambda x: (F.max_pool2d(x, 3, stride=1, padding=1) ** 3).sum()))
show("conv2d", lambda: gg(lambda x: (F.conv2d(x, torch.ones(1, 1, 2, 2, dtype=torch.float64)) ** 3).sum()))


def conv_penalty():
    """The penalty's gradient for the conv weight flows through the input gradient's use of the weight."""
    conv = torch.nn.Conv2d(1, 2, 3, padding=1).double()
    with torch.no_grad():
        conv.weight.copy_(torch.arange(18, dtype=torch.float64).reshape(2, 1, 3, 3) / 9 - 1)
        conv.bias.copy_(torch.tensor([0.5, -0.25], dtype=torch.float64))
    x = x44()
    g, = grad((torch.tanh(conv(x)) ** 2).sum(), x, create_graph=True)
    (g ** 2).sum().backward()
    return torch.cat([conv.weight.grad.reshape(-1), conv.bias.grad, x.grad.reshape(-1)])


def layer_norm_penalty():
    ln = torch.nn.LayerNorm(3).double()
    x = x3()
    y = ln(x.unsqueeze(0)) * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    g, = grad((y ** 2).sum(), x, create_graph=True)
    (g ** 2).sum().backward()
    return torch.cat([ln.weight.grad, ln.bias.grad, x.grad])


show("conv_penalty", conv_penalty)
show("layer_norm_penalty", layer_norm_penalty)

# Hessian-vector products on a 2x3 input through reductions, indexing, splitting and sorting: each of these
# backwards is linear in the incoming gradient (or a formula of saved tensors) and must keep its graph.
V = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=torch.float64)
IDX = torch.tensor([1, 0, 1])


def x6():
    return (torch.arange(6, dtype=torch.float64).reshape(2, 3) / 4 - 0.6).requires_grad_(True)


def hvp6(f):
    x = x6()
    g, = grad(f(x), x, create_graph=True)
    return grad((g * V).sum(), x)[0]


OPS = [
    ("var", lambda x: x.var() ** 2), ("std_dim", lambda x: x.std(1).sum() ** 2),
    ("var_mean", lambda x: torch.var_mean(x, 1)[0].sum() ** 2), ("std_mean", lambda x: torch.std_mean(x)[0] ** 2),
    ("max", lambda x: x.max() ** 3), ("max_dim", lambda x: (x.max(1)[0] ** 3).sum()),
    ("min_dim_keepdim", lambda x: (x.min(0, keepdim=True)[0] ** 3).sum()), ("min", lambda x: x.min() ** 3),
    ("amax", lambda x: (x.amax(0) ** 3).sum()), ("logsumexp", lambda x: x.logsumexp(1).sum() ** 2),
    ("cumsum", lambda x: (x.cumsum(1) ** 3).sum()),
    ("index_select", lambda x: (x.index_select(1, IDX) ** 3).sum()), ("adv_index", lambda x: (x[:, IDX] ** 3).sum()),
    ("bool_index", lambda x: (x[x > 0] ** 3).sum()), ("embedding", lambda x: (F.embedding(IDX, x) ** 3).sum()),
    ("repeat", lambda x: (x.repeat(2, 1) ** 3).sum()), ("chunk", lambda x: (x.chunk(3, 1)[1] ** 3).sum()),
    ("split", lambda x: (x.split([1, 2], 1)[1] ** 3).sum()), ("unbind", lambda x: (x.unbind(0)[1] ** 3).sum()),
    ("diagonal", lambda x: (x.diagonal() ** 3).sum()), ("trace", lambda x: x[:, :2].trace() ** 3),
    ("unfold", lambda x: (x.unfold(1, 2, 1) ** 3).sum()), ("sort", lambda x: (x.sort(1)[0] * V).sum() ** 2),
    ("topk", lambda x: (x.topk(2, 1)[0] ** 3).sum()),
    ("where", lambda x: (torch.where(x > 0, x, x * 2) ** 3).sum()), ("clamp", lambda x: (x.clamp(-0.3, 0.3) ** 3).sum()),
    ("cross_entropy", lambda x: F.cross_entropy(x, torch.tensor([0, 2]))),
    ("layer_norm", lambda x: (F.layer_norm(x, (3,)) * V).sum() ** 2),
    ("batch_norm_train", lambda x: (F.batch_norm(x, None, None, training=True) * V).sum() ** 2),
]
for name, f in OPS:
    show(name, lambda: hvp6(f))

# devicescope-args: --sim-devices 1 --link pcie5-x16
# Virtual steps (issue 25): ops on virtual tensors allocate as on real ones and compute nothing; whatever needs
# the values themselves raises the virtual-read error, naming what needed them. Mixed virtual and real
# operands give virtual results.
import devicescope
import torch
import torch.nn.functional as F

x = torch.empty(4, 8, device="cuda", virtual=True)
w = torch.randn(8, 3, device="cuda")  # real
y = x @ w
print("virtual @ real:", tuple(y.shape), y.dtype, y.is_virtual, y.device)
z = F.softmax(y * 2 + 1, dim=-1).sum(0)
print("softmax(...).sum(0):", tuple(z.shape), z.is_virtual)
print("argmax:", tuple(y.argmax(-1).shape), y.argmax(-1).dtype)
before = torch.cuda.memory_allocated()
r = torch.relu(x)
print("relu allocated", torch.cuda.memory_allocated() - before, "bytes")

for name, fn in [("item", lambda: z[0].item()), ("tolist", lambda: y.tolist()), ("bool", lambda: bool(y.sum() > 0)),
                 ("nonzero", lambda: torch.nonzero(y)), ("masked_select", lambda: y[y > 0]),
                 ("if on a comparison", lambda: 1 if (y > 0).all() else 0), ("numpy", lambda: y.cpu().numpy()),
                 ("print (as PyTorch prints a meta tensor)", lambda: print(y))]:
    try:
        fn()
        print(name, "ran")
    except RuntimeError as e:
        print(name, "->", e)

with devicescope.virtual_mode():
    m = torch.nn.Linear(8, 3).to("cuda")
    out = m(torch.randn(4, 8, device="cuda"))
    out.sum().backward()
print("virtual_mode Linear: grad", tuple(m.weight.grad.shape), m.weight.grad.is_virtual)

# Outside virtual_mode too: a virtual input with real weights gives virtual results through the kernels.
q = torch.empty(2, 4, 16, 8, device="cuda", virtual=True, requires_grad=True)
o = F.scaled_dot_product_attention(q, q, q, is_causal=True)
o.sum().backward()
print("sdpa:", o.is_virtual, q.grad.is_virtual)
v = torch.empty(1, 3, 8, 8, device="cuda", virtual=True)
print("conv2d + batch_norm:", torch.nn.BatchNorm2d(4).cuda()(torch.nn.Conv2d(3, 4, 3).cuda()(v)).is_virtual)
a = torch.empty(4, 2, 8, device="cuda", virtual=True)
print("multihead attention:", torch.nn.MultiheadAttention(8, 2).cuda()(a, a, a)[0].is_virtual)
print("embedding of virtual indices:",
      torch.nn.Embedding(10, 4).cuda()(torch.empty(3, dtype=torch.long, device="cuda", virtual=True)).is_virtual)
print("layer_norm, gelu, dropout:", F.dropout(F.gelu(torch.nn.LayerNorm(8).cuda()(a)), 0.1).is_virtual)

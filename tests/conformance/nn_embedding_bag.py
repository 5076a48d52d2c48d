# nn.EmbeddingBag / F.embedding_bag against real PyTorch: modes sum, mean and max, padding_idx (also negative),
# include_last_offset, max_norm, per_sample_weights (1-D with offsets and 2-D fixed-length bags), empty bags,
# from_pretrained; values and gradients in float64 (weight and per_sample_weights), EmbeddingBagBackward0 and what
# it saves, reprs and argument errors. Left out: scale_grad_by_freq (1.13's CPU kernel divides by the counts of
# other rows), the kernel's internal outputs result1-3 (offset2bag, bag_size, max_indices: CPU and CUDA
# kernels fill them differently), 2-D bags' reshape node (ReshapeAliasBackward0 in 1.13), and the offsets[0]
# error (1.13 appends the offending tensor's type on a second line).
import torch, torch.nn as nn, torch.nn.functional as F
def r(t): return [round(v, 6) + 0.0 for v in t.detach().flatten().tolist()]
def err(f):
    try: f(); print("no error")
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
for kw in [dict(mode="sum"), dict(mode="mean"), dict(mode="max"), dict(mode="mean", padding_idx=4), 
           dict(mode="max", include_last_offset=True, padding_idx=-6), dict(mode="mean", include_last_offset=True, max_norm=1.0)]:
    m = nn.EmbeddingBag(10, 3, **kw).double()
    print(m, r(m.weight[:2]))
    i = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 4, 4])
    o = torch.tensor([0, 4, 4, 8] + ([10] if kw.get("include_last_offset") else []))
    y = m(i, o)
    fn = y.grad_fn
    print(" ", tuple(y.shape), type(fn).__name__, [type(n[0]).__name__ if n[0] else None for n in fn.next_functions],
          fn._saved_mode, fn._saved_scale_grad_by_freq, fn._saved_sparse, r(fn._saved_indices), r(fn._saved_offsets))
    print("  y", r(y))
    (y * torch.linspace(-1, 1, y.numel(), dtype=torch.float64).reshape(y.shape)).sum().backward()
    print("  grad", r(m.weight.grad))
m = nn.EmbeddingBag(10, 3, mode="sum").double()
x = torch.tensor([[1, 2, 3], [4, 5, 1]])
p = torch.tensor([[0.5, 1.0, 2.0], [1.5, -1.0, 0.25]], dtype=torch.float64, requires_grad=True)
y = m(x, per_sample_weights=p)
print(r(y), type(y.grad_fn).__name__)
y.pow(2).sum().backward(); print(r(m.weight.grad), r(p.grad))
e = nn.EmbeddingBag.from_pretrained(torch.arange(12.).reshape(4, 3), mode="max"); print(e, e.weight.requires_grad, r(e(torch.tensor([[0, 3], [2, 1]]))))
w = torch.randn(10, 3)
i = torch.tensor([1,2,4,5,4,3,2,9]); o = torch.tensor([0,4])
err(lambda: F.embedding_bag(i, w, torch.tensor([0,9])))
err(lambda: F.embedding_bag(i.float(), w, o))
err(lambda: F.embedding_bag(i, w, o, mode="avg"))
err(lambda: F.embedding_bag(i, w, o, mode="mean", per_sample_weights=torch.rand(8)))
err(lambda: F.embedding_bag(i, w, o, mode="sum", per_sample_weights=torch.rand(7)))
err(lambda: F.embedding_bag(i, w, o, mode="max", scale_grad_by_freq=True))
err(lambda: F.embedding_bag(i, w, o, mode="max", sparse=True))
err(lambda: F.embedding_bag(i.view(2,4), w, o))
err(lambda: F.embedding_bag(i, w))
err(lambda: F.embedding_bag(i, w, o.view(1,2)))
err(lambda: F.embedding_bag(i.view(1,2,4), w))
err(lambda: F.embedding_bag(i, w, o, padding_idx=10))
print(r(F.embedding_bag(torch.tensor([], dtype=torch.long), w, torch.tensor([0, 0]), mode="max")))

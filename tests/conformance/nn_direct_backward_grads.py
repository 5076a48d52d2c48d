# Gradients of the composite ops that have PyTorch's own backward node (nn/_functional_embedding.py,
# nn/_loss_bce.py): embedding_dense_backward's and index_select's accumulation (rows added in index order in the
# gradient's dtype: bit for bit, with repeated indices, padding_idx and scale_grad_by_freq's fused 1/count), and
# binary_cross_entropy's loss and backward (its EPSILON floor at inputs 0 and 1), mse_loss's backward (nn/_loss_mse.py).
import torch
import torch.nn.functional as F

torch.manual_seed(1)
for kw in ({}, {"padding_idx": 3}, {"scale_grad_by_freq": True}, {"scale_grad_by_freq": True, "padding_idx": 0}):
    w = torch.randn(20, 16, requires_grad=True)
    idx = torch.randint(0, 7, (40, 15))
    F.embedding(idx, w, **kw).backward(torch.randn(40, 15, 16))
    print("embedding", sorted(kw), [float(v).hex() for v in w.grad.reshape(-1)[::7].tolist()])
x = torch.randn(20, 30, requires_grad=True)
i = torch.randint(0, 20, (400,))
torch.index_select(x, 0, i).backward(torch.randn(400, 30))
print("index_select", [float(v).hex() for v in x.grad.reshape(-1)[::5].tolist()])

# binary_cross_entropy: Loss.cpp's loss ((t - 1) * max(log1p(-x), -100) - t * max(log(x), -100)) and its
# backward's EPSILON floor at inputs 0 and 1 (finite gradients where a recomputed log gives inf or nan)
x = torch.tensor([[0.0, 1.0, 0.5, 1e-8, 1 - 1e-7], [0.25, 0.75, 0.1, 0.9, 0.3]], requires_grad=True)
t = torch.tensor([[1.0, 0.0, 0.5, 1.0, 0.0], [0.0, 1.0, 0.3, 0.2, 1.0]])
for kw in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0])}):
    x.grad = None
    loss = F.binary_cross_entropy(x, t, **kw)
    (loss.sum() if loss.dim() else loss).backward()
    print("bce", sorted(kw), type(loss.grad_fn).__name__, " ".join(f"{v:.6g}" for v in loss.reshape(-1).tolist()),
          "|", " ".join(f"{v:.6g}" for v in x.grad.reshape(-1).tolist()))

# mse_loss: mse_loss_backward's norm * (input - target) * grad for the input and the target
torch.manual_seed(2)
for dtype in (torch.float32, torch.float64):
    for red in ("mean", "sum", "none"):
        x = torch.randn(5, 4, dtype=dtype, requires_grad=True)
        t = torch.randn(5, 4, dtype=dtype, requires_grad=True)
        loss = F.mse_loss(x, t, reduction=red)
        (loss.sum() if loss.dim() else loss).backward()
        print("mse", dtype, red, type(loss.grad_fn).__name__, f"{float(loss.sum()):.6g}",
              " ".join(f"{v:.6g}" for v in x.grad.reshape(-1).tolist()), "|",
              " ".join(f"{v:.6g}" for v in t.grad.reshape(-1).tolist()))

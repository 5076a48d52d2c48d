# The storage a scalar loss keeps: mse_loss, smooth_l1_loss and binary_cross_entropy reduce into
# `at::empty_like(input)` resized to 0-dim (ATen's Loss.cpp), so their result holds an input-sized block for as
# long as it lives; l1_loss, huber_loss, cross_entropy and the others return a fresh 0-dim tensor. The memory
# panes (and torch.cuda.memory_allocated on a GPU) show exactly these bytes. Runs under real PyTorch and DeviceScope.
import torch
import torch.nn.functional as F


def storage_bytes(t):
    s = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
    return s.nbytes()


torch.manual_seed(0)
x = torch.linspace(-2, 2, 320).reshape(32, 10).requires_grad_()
y = torch.linspace(1, -1, 320).reshape(32, 10)
p = torch.sigmoid(x.detach())
t = torch.linspace(0, 1, 320).reshape(32, 10)
labels = torch.arange(32) % 10
cases = {
    "mse_loss": lambda r: F.mse_loss(x, y, reduction=r),
    "l1_loss": lambda r: F.l1_loss(x, y, reduction=r),
    "smooth_l1_loss": lambda r: F.smooth_l1_loss(x, y, reduction=r),
    "huber_loss": lambda r: F.huber_loss(x, y, reduction=r),
    "binary_cross_entropy": lambda r: F.binary_cross_entropy(p, t, reduction=r),
    "binary_cross_entropy_with_logits": lambda r: F.binary_cross_entropy_with_logits(x, t, reduction=r),
    "cross_entropy": lambda r: F.cross_entropy(x, labels, reduction=r),
    "nll_loss": lambda r: F.nll_loss(x, labels, reduction=r),
}
for name, loss in cases.items():
    for reduction in ("mean", "sum", "none"):
        out = loss(reduction)
        print(name, reduction, tuple(out.shape), storage_bytes(out), round(float(out.sum()), 4))
    with torch.no_grad():
        out = loss("mean")
    print(name, "no_grad", storage_bytes(out), out.requires_grad)
# The module forms go through the same functions; a float64 input keeps a float64-sized block.
print(storage_bytes(torch.nn.MSELoss()(x, y)), storage_bytes(torch.nn.BCELoss()(p, t)))
print(storage_bytes(F.mse_loss(x.double(), y.double())))
# The loss is no view: it has no _base and its gradient is the elementwise one.
loss = F.mse_loss(x, y)
loss.backward()
print(loss._base is None, loss.is_leaf, round(float(x.grad.sum()), 4))

# devicescope-args: --sim-devices 1
# Norms on virtual tensors (devicescope estimate's shape-only steps): torch.norm / linalg.vector_norm of every
# order, F.normalize and clip_grad_norm_ allocate what they do on real tensors (a 0-dim norm per gradient,
# never a gradient-sized temporary) and their backward runs, with no values read.
import devicescope  # noqa: F401
import torch
import torch.nn.functional as F

x = torch.empty(64, 256, device="cuda", virtual=True).requires_grad_(True)
for p in [2, 1, float("inf"), 3, 0]:
    before = torch.cuda.memory_allocated()
    n = x.norm(p, 1)
    print("norm", p, tuple(n.shape), n.is_virtual, type(n.grad_fn).__name__,
          "allocated", torch.cuda.memory_allocated() - before)
    n.sum().backward()
    del n
print("grad", tuple(x.grad.shape), x.grad.is_virtual)
y = F.normalize(x, dim=1)
print("normalize", tuple(y.shape), y.is_virtual, type(y.grad_fn.next_functions[1][0].next_functions[0][0]).__name__)

model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)).cuda()
with devicescope.virtual_mode():
    model(torch.empty(8, 256, device="cuda")).sum().backward()
before = torch.cuda.memory_allocated()
torch.cuda.reset_peak_memory_stats()
total = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
print("clip total", tuple(total.shape), total.is_virtual, "held", torch.cuda.memory_allocated() - before,
      "peak above", torch.cuda.max_memory_allocated() - before)
try:
    total.item()
except RuntimeError as e:
    print("item:", e)

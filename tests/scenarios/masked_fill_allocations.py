# masked_fill_ writes in place and allocates nothing (ATen's masked_fill_ kernel); masked_fill allocates its
# result once (a contiguous clone of self expanded to the broadcast shape, then filled); MaskedFillBackward0
# allocates self's gradient once (grad.masked_fill(mask, 0)). The attention-mask idiom of nn.Transformer
# (zeros_like(mask, dtype).masked_fill_(mask, -inf)) so costs one block, not three.
import torch

torch.cuda.memory._record_memory_history(max_entries=1000)


def allocs(since):
    trace = torch.cuda.memory._snapshot()["device_traces"][0][since:]
    return [e["size"] for e in trace if e["action"] == "alloc"]


def mark():
    return len(torch.cuda.memory._snapshot()["device_traces"][0])


mask = torch.ones(256, 256, dtype=torch.bool, device="cuda").triu(1)
t = mark()
canonical = torch.zeros_like(mask, dtype=torch.float32).masked_fill_(mask, float("-inf"))
print("attention mask:", allocs(t), canonical[0, :3].tolist(), canonical[1, :3].tolist())
x = torch.randn(8, 16, device="cuda", requires_grad=True)
m = torch.rand(8, 16, device="cuda") > 0.5
h = x * 1
t = mark()
h.masked_fill_(m, 0.0)
print("in place:", allocs(t), type(h.grad_fn).__name__)
t = mark()
y = x.masked_fill(m, 1.5)
print("out of place:", allocs(t), type(y.grad_fn).__name__)
s = torch.randn(16, device="cuda", requires_grad=True)
t = mark()
b = s.masked_fill(m, -1.0)
print("broadcast self:", allocs(t), tuple(b.shape))
t = mark()
y.backward(torch.ones_like(y))
print("backward:", allocs(t))
# A mask that is not boolean: PyTorch 2.x refuses it, naming the mask's TypeMeta (1.13 still took one).
for mask in (m.long(), m.float(), m.to(torch.uint8)):
    try:
        x.masked_fill(mask, 0.0)
    except RuntimeError as e:
        print("RuntimeError:", e)

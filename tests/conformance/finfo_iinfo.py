# torch.finfo / torch.iinfo against real PyTorch: every field of each float and integer dtype, the reprs, the
# default dtype's finfo, equality, and the errors for the wrong kind of dtype (as scripts use them for masks:
# torch.finfo(x.dtype).min, eps clamps).
import torch

for d in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    f = torch.finfo(d)
    print(f, f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype, type(f.dtype).__name__)
print(torch.finfo(), torch.finfo(torch.float32) == torch.finfo(torch.float32),
      torch.finfo(torch.float32) == torch.finfo(torch.float64), type(torch.finfo(torch.half)).__name__)
torch.set_default_dtype(torch.float64)
print(torch.finfo().dtype)
torch.set_default_dtype(torch.float32)
for d in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
    i = torch.iinfo(d)
    print(i, i.bits, i.min, i.max, i.dtype)
for bad in (lambda: torch.finfo(torch.int64), lambda: torch.iinfo(torch.float32), lambda: torch.iinfo(torch.bool),
            lambda: torch.finfo(3)):
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, e)
x = torch.tensor([1.0, 2.0])
print("mask", torch.full((2,), torch.finfo(x.dtype).min).tolist(), x.clamp(min=torch.finfo(x.dtype).eps).tolist())

# dtype objects, default dtypes of literals, and type promotion rules.
import torch

print(torch.float32, torch.float, torch.float is torch.float32, torch.double is torch.float64)
print(torch.long is torch.int64, torch.half is torch.float16, torch.int is torch.int32, torch.bool)
print(repr(torch.bfloat16), str(torch.uint8), type(torch.float32).__name__)
print(torch.float32.is_floating_point, torch.int64.is_floating_point, torch.complex64.is_complex)
print(torch.float16.is_signed, torch.uint8.is_signed, torch.bool.is_signed)
print(torch.get_default_dtype())
print(torch.tensor(1).dtype, torch.tensor(1.).dtype, torch.tensor(True).dtype, torch.tensor([1, 2.]).dtype)
print(torch.tensor([1], dtype=torch.float64).dtype)
i = torch.tensor([1, 2])
f = torch.tensor([1., 2.])
d = torch.tensor([1., 2.], dtype=torch.float64)
i32 = torch.tensor([1, 2], dtype=torch.int32)
b = torch.tensor([True, False])
print((i + f).dtype, (i + 1.5).dtype, (i * 2).dtype, (f + d).dtype, (i32 + i).dtype)
print((f + torch.tensor(1., dtype=torch.float64)).dtype, (i32 + torch.tensor(1)).dtype)
print((b + b).dtype, (b + 1).dtype, (b * 1.5).dtype, (i / 2).dtype, (i // 2).dtype)
print((torch.ones(2, dtype=torch.float16) + f).dtype, (torch.ones(2, dtype=torch.uint8) + torch.ones(2, dtype=torch.int8)).dtype)
print(torch.result_type(i, 1.0), torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.float32, torch.int32))
print(i.is_floating_point(), f.is_floating_point(), torch.is_floating_point(d), torch.is_tensor(d), torch.is_tensor(1))
print(f.element_size(), d.element_size(), i.element_size(), b.element_size(), f.nelement(), f.numel())
try:
    i.add_(1.5)
except RuntimeError as e:
    print(type(e).__name__, e)

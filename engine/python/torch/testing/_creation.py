# torch.testing.make_tensor: a tensor of the given shape, dtype and device filled with random values in
# [low, high) (PyTorch's defaults: floats in [-9, 9), integers in [-9, 10), bools either).
def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    import torch
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, torch.Size)):
        shape = tuple(shape[0])
    if dtype is torch.bool:
        t = torch.randint(0, 2, shape, device=device).to(torch.bool)
    elif dtype.is_floating_point:
        lo = -9.0 if low is None else float(low)
        hi = 9.0 if high is None else float(high)
        t = (torch.rand(shape, device=device) * (hi - lo) + lo).to(dtype)
    else:
        lo = -9 if low is None else int(low)
        hi = 10 if high is None else int(high)
        if dtype is torch.uint8:
            lo = max(lo, 0)
        t = torch.randint(lo, hi, shape, device=device, dtype=dtype)
    if exclude_zero:
        t = torch.where(t == 0, torch.ones_like(t), t)
    if noncontiguous and t.numel() > 1:
        t = torch.repeat_interleave(t, 2, dim=-1)[..., ::2] if hasattr(torch, "repeat_interleave") else t
    if requires_grad:
        t.requires_grad_(True)
    return t

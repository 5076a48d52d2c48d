# devicescope.virtual(...): a tensor that is placed, accounted and moved like any other but holds no bytes
# (model a 70B-parameter layout on a laptop). Same as torch.empty(..., virtual=True).


def virtual(*size, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A virtual tensor of `size`: it lives on `device` (default: the default device) and moves with .to(),
    Module.to() and friends, counting against memory like a real one; reading its values raises."""
    import torch
    return torch.empty(*size, dtype=dtype, device=device, requires_grad=requires_grad, pin_memory=pin_memory,
                       virtual=True)


def is_virtual(tensor):
    return bool(getattr(tensor, "is_virtual", False))


class virtual_mode:
    """`with devicescope.virtual_mode():` - every tensor created inside (parameters of modules built there
    too) is virtual, and in-place initialisers skip them: build a model far larger than this machine and
    watch where .to() puts it, and run its training step: forward, backward and the optimizer step run
    shape-only on virtual tensors, allocating exactly what the real step allocates (every device allocation
    inside is virtual). What needs values (item(), tolist(), nonzero, printing) raises."""

    def __enter__(self):
        from torch import _default
        _default.enter_virtual_mode(1)
        return self

    def __exit__(self, *exc):
        from torch import _default
        _default.enter_virtual_mode(-1)
        return False

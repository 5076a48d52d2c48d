# torch.Size: a tuple of ints printed as torch.Size([2, 3]); slicing and concatenation stay Sizes.


class Size(tuple):
    __module__ = "torch"
    __slots__ = ()

    def __new__(cls, sizes=()):
        out = []
        for s in sizes:
            if hasattr(s, "__index__") and not isinstance(s, bool):
                out.append(s.__index__())
            else:
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item {len(out)} is "
                                f"'{type(s).__name__}')")
        return super().__new__(cls, out)

    def __repr__(self):
        return "torch.Size([" + ", ".join(str(s) for s in self) + "])"

    __str__ = __repr__

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return Size(tuple(self) * n)

    __rmul__ = __mul__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __reduce__(self):
        return (Size, (tuple(self),))


def _fast_size(t):
    """Size from a tuple of ints already validated (the engine's sizes)."""
    return tuple.__new__(Size, t)

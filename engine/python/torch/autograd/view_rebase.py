# The layouts of a view and its base, for the nodes an in-place op through a view records (graph.rebase_view): the
# base's CopySlices and the view's AsStridedBackward0 work on numpy buffers laid out as the base. Plain numpy: no torch
# import (graph.py, part of the op modules' import circle, imports this).
import numpy as np


class ViewGeometry:
    """The base's and the view's layouts, offsets relative to the base's start."""
    __slots__ = ("base_sizes", "base_strides", "base_offset", "view_sizes", "view_strides", "view_offset")

    def __init__(self, base, view):
        self.base_sizes, self.base_strides = tuple(base._impl.sizes), tuple(base._impl.strides)
        self.base_offset = base._impl.offset
        self.view_sizes, self.view_strides = tuple(view._impl.sizes), tuple(view._impl.strides)
        self.view_offset = view._impl.offset - base._impl.offset

    def arrays(self, dtype):
        """A zeroed buffer laid out as the base, and (base, view) numpy views of it."""
        def extent(sizes, strides):
            return 0 if 0 in sizes else 1 + sum((n - 1) * s for n, s in zip(sizes, strides))
        n = max(extent(self.base_sizes, self.base_strides),
                self.view_offset + extent(self.view_sizes, self.view_strides))
        buf = np.zeros(n, dtype=dtype)
        item = buf.itemsize
        strided = np.lib.stride_tricks.as_strided
        base = strided(buf, self.base_sizes, tuple(s * item for s in self.base_strides))
        view = strided(buf[self.view_offset:], self.view_sizes, tuple(s * item for s in self.view_strides))
        return base, view

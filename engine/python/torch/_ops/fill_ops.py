# Fills written in place (fill_, zero_, index_fill_, the random fills uniform_/normal_/...) and index_fill, with
# autograd as PyTorch records them on a tensor that has history: the fill is a node of its own (FillBackward2,
# ZeroBackward0, IndexFillBackward0, UniformBackward0, ...) continuing the tensor's history, whose gradient is zero
# where the fill wrote (the old values no longer matter) and, for a tensor value, the written places' sum.
import numpy as np

from .. import _default
from ..autograd import graph
from . import _core as C
from . import scalar_check


def fill(self, values, node=None, inputs=()):
    """Writes `values` (an array, or a function making it) into self. A random fill passes a function, so that a
    virtual tensor (no bytes) never has its values generated: a 70B-parameter virtual model's initialisers would
    otherwise build and discard gigabytes of random numbers. node: the autograd node's name when autograd records
    (its gradient: zeros for self; `inputs`: (tensor, its gradient from g) pairs for the other edges)."""
    C.check_inplace(self)
    record = node is not None and C.dtype_of(self).is_floating_point and \
        C.needs_grad(self, *(t for t, _ in inputs))
    edges = [graph.edge_of(self)] + [graph.edge_of(t) for t, _ in inputs] if record else None
    before = graph.base_edge(self) if record else None
    if self._impl.is_virtual:
        # building a virtual model (initialisers), or zero_() / fill_() in a virtual step: nothing to write,
        # and the values are never generated
        if not _default.virtual_mode():
            self._impl.bump_version()
    else:
        C.write(self, values() if callable(values) else values)
    if record:
        grads = [g for _, g in inputs]
        graph.attach_edges(node, [self], edges,
                           lambda gs: (gs[0].new_zeros(gs[0].shape),) + tuple(f(gs[0]) for f in grads))
        graph.rebase_view(self, before)
    return self


def fill_(self, value):
    """fill_.Scalar (FillBackward2) or fill_.Tensor with a 0-dim value (FillBackward3: the value's gradient is the
    sum of the incoming one)."""
    inputs = ()
    if isinstance(value, C.Tensor):
        if value._impl.dim != 0:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._impl.dim} dimensions.")
        vdt = C.dtype_of(value)
        inputs = ((value, lambda g: g.sum().to(vdt)),)
        value = value.item()
    scalar_check.check(value, C.dtype_of(self))  # fill_'s value.to<scalar_t>()
    return fill(self, np.asarray(value), "FillBackward3" if inputs else "FillBackward2", inputs)


def zero_(self):
    return fill(self, np.asarray(0), "ZeroBackward0")


def _index_fill_values(self, dim, index, value):
    scalar_check.check(C.read(value).reshape(-1)[0].item() if isinstance(value, C.Tensor) and value._impl.numel == 1
                       else value, C.dtype_of(self))
    d = C.wrap_dim(dim, self._impl.dim)
    idx = C.read(index).reshape(-1)
    xv = np.array(C.read(self))
    sl = [slice(None)] * xv.ndim
    sl[d] = idx
    xv[tuple(sl)] = C.read(value) if isinstance(value, C.Tensor) else value
    return d, xv


def index_fill_(self, dim, index, value):
    """index_fill_.int_Scalar (IndexFillBackward0) / int_Tensor (IndexFillBackward1), saving dim and index: self's
    gradient is the incoming one with the filled places zeroed, a tensor value's the sum over them."""
    d, values = _index_fill_values(self, dim, index, value)
    record = C.dtype_of(self).is_floating_point and C.needs_grad(self, value)
    edges = [graph.edge_of(self)] + ([graph.edge_of(value)] if isinstance(value, C.Tensor) else []) \
        if record else None
    before = graph.base_edge(self) if record else None
    fill(self, values)
    if record:
        graph.attach_edges(_index_fill_node(value), [self], edges, _index_fill_grad(d, index, value),
                           saved={"dim": d, "index": index})
        graph.rebase_view(self, before)
    return self


def index_fill(self, dim, index, value):
    """Out of place: a copy of self filled (one allocation, one node)."""
    d, values = _index_fill_values(self, dim, index, value)
    out = C.make(values, C.dtype_of(self), C.device_of(self))
    if C.dtype_of(self).is_floating_point and C.needs_grad(self, value):
        graph.attach(_index_fill_node(value), [out], [self] + ([value] if isinstance(value, C.Tensor) else []),
                     _index_fill_grad(d, index, value), saved={"dim": d, "index": index})
    return out


def _index_fill_node(value):
    return "IndexFillBackward1" if isinstance(value, C.Tensor) else "IndexFillBackward0"


def _index_fill_grad(d, index, value):
    def fn(gs):
        g = gs[0]
        if not isinstance(value, C.Tensor):
            return (g.index_fill(d, index, 0),)
        return g.index_fill(d, index, 0), g.index_select(d, index).sum().to(C.dtype_of(value))
    return fn

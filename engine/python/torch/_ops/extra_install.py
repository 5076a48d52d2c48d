# Puts extra_ops.py's and extra_select.py's kernels and extra_composites.py's compositions on `torch` and, where PyTorch has the
# method form, on Tensor. A name some other module already defines is left alone.
from . import extra_composites as _comp
from . import extra_ops as _ops
from . import extra_select as _sel
from . import special_ops as _special

_TORCH = {
    "sgn": _ops.sgn, "logcumsumexp": _ops.logcumsumexp, "cummax": _ops.cummax, "cummin": _ops.cummin,
    "histc": _ops.histc, "bucketize": _ops.bucketize, "tril_indices": _ops.tril_indices,
    "triu_indices": _ops.triu_indices, "quantile": _ops.quantile, "nanquantile": _ops.nanquantile,
    "meshgrid": _comp.meshgrid, "cartesian_prod": _comp.cartesian_prod, "diff": _comp.diff,
    "trapezoid": _comp.trapezoid, "trapz": _comp.trapz, "cumulative_trapezoid": _comp.cumulative_trapezoid,
    "tile": _comp.tile, "column_stack": _comp.column_stack, "dstack": _comp.dstack, "row_stack": _comp.row_stack,
    "hsplit": _comp.hsplit, "vsplit": _comp.vsplit, "dsplit": _comp.dsplit, "fliplr": _comp.fliplr,
    "flipud": _comp.flipud, "repeat_interleave": _comp.repeat_interleave, "take_along_dim": _comp.take_along_dim,
    "isin": _ops.isin, "tensordot": _comp.tensordot, "median": _sel.median, "nanmedian": _sel.nanmedian,
    "kthvalue": _sel.kthvalue, "msort": _sel.msort, "cov": _comp.cov, "corrcoef": _comp.corrcoef,
    "rot90": _comp.rot90, "kron": _comp.kron,
}


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    return method


_METHODS = ("sgn", "logcumsumexp", "cummax", "cummin", "histc", "quantile", "nanquantile", "diff", "tile", "hsplit",
            "vsplit", "dsplit", "fliplr", "flipud", "repeat_interleave", "take_along_dim", "median", "nanmedian",
            "kthvalue", "msort", "isin", "cov", "corrcoef", "rot90", "kron")


def install(torch_module, tensor_cls):
    for name, fn in _TORCH.items():
        if not hasattr(torch_module, name):
            setattr(torch_module, name, fn)
    for name in _METHODS:
        if not hasattr(tensor_cls, name):
            setattr(tensor_cls, name, _method(_TORCH[name]))
    if not hasattr(tensor_cls, "sgn_"):
        tensor_cls.sgn_ = _method(_ops.sgn_)
    _special.install(torch_module, tensor_cls)  # torch.polygamma, Tensor.polygamma(_): outside the op table

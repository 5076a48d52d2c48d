# The special pointwise ops as PyTorch has them: erfc, lgamma, digamma, polygamma, sinc, logit (unary, integers
# promoted to float) and xlogy, copysign (float result), hypot, logaddexp, logaddexp2 (binary; the last three refuse
# integer inputs in the kernel, as ATen's do). The numbers come from special_math.py; this file adds the
# nodes with PyTorch's names, saved values and backward formulas (tools/autograd/derivatives.yaml), written
# with torch ops so that create_graph differentiates them again (digamma's backward is polygamma(1, x),
# polygamma(n)'s is polygamma(n + 1)). Most are declared in op_table.py (torch.NAME, methods, NAME_, out=);
# polygamma's (int n, Tensor input) and Tensor.polygamma(n) do not fit the table and are installed here.
import math
import numbers

import numpy as np

from .. import _dtype as D
from ..autograd import grad_mode
from . import _core as C
from . import out as O
from . import elementwise as B
from . import special_math as M
from . import unary as U
from .elementwise import _float_of, _sum_to


def _floatify(d):
    return _float_of(d)


def _scalar0(like, value):
    """at::zeros({}, options) / an empty({}).fill_(value): a 0-dim tensor of like's dtype and device."""
    return C.make(np.full((), value, dtype=C.compute_dtype(C.dtype_of(like))), C.dtype_of(like), C.device_of(like))


# ----------------------------------------------------------------------------- unary
def erfc(x, out=None):
    return U.unary("ErfcBackward0", x, M.erfc, _erfc_grad, _floatify, out=out, save="x")


def _erfc_grad(g, x, r):
    # -2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad
    return U.exp(-(x.pow(2))) * (-2.0 / math.sqrt(math.pi)) * g


def lgamma(x, out=None):
    return U.unary("LgammaBackward0", x, M.lgamma, lambda g, x, r: g * digamma(x), _floatify, out=out, save="x")


def digamma(x, out=None):
    return U.unary("DigammaBackward0", x, M.digamma, lambda g, x, r: g * _polygamma(1, x), _floatify, out=out,
                   save="x")


def _polygamma(n, x, out=None, node="PolygammaBackward0"):
    """polygamma(n, x) once n is checked; the in-place form's node is PolygammaBackward1 (polygamma_ has an
    entry of its own in derivatives.yaml), with the same formula and saved n and self."""
    return U.unary(node, x, lambda v: M.polygamma(n, v), lambda g, x, r: g * _polygamma(n + 1, x), _floatify,
                   out=out, save="x", extra={"n": n})


def _check_n(fname, n, position):
    """The argument parser's int: not bool, not float; a 0-dim integer tensor is read as its value."""
    if isinstance(n, C.Tensor) and n._impl.dim == 0 and not C.dtype_of(n).is_floating_point \
            and C.dtype_of(n) is not D.bool:
        n = int(n.item())
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{fname}(): argument 'n' (position {position}) must be int, not {_type_name(n)}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return int(n)


def _type_name(v):
    return "Tensor" if isinstance(v, C.Tensor) else type(v).__name__


_MISSING = object()


def polygamma(n=_MISSING, input=_MISSING, *, out=None):  # noqa: A002
    """torch.polygamma(n, input, *, out=None)."""
    if n is _MISSING:
        raise TypeError('polygamma() missing 2 required positional arguments: "n", "input"')
    n = _check_n("polygamma", n, 1)
    if input is _MISSING:
        raise TypeError('polygamma() missing 1 required positional arguments: "input"')
    if not isinstance(input, C.Tensor):
        raise TypeError(f"polygamma(): argument 'input' (position 2) must be Tensor, not {_type_name(input)}")
    return _polygamma(n, input, out=out)


def polygamma_method(self, n=_MISSING):
    if n is _MISSING:
        raise TypeError('polygamma() missing 1 required positional arguments: "n"')
    return _polygamma(_check_n("polygamma", n, 1), self)


def polygamma_inplace(self, n=_MISSING):
    if n is _MISSING:
        raise TypeError('polygamma_() missing 1 required positional arguments: "n"')
    return _polygamma(_check_n("polygamma_", n, 1), self, out=self, node="PolygammaBackward1")


def sinc(x, out=None):
    return U.unary("SincBackward0", x, M.sinc, _sinc_grad, _floatify, out=out, save="x")


def _sinc_grad(g, x, r):
    # sinc_backward: grad * (self_pi * cos(self_pi) - sin(self_pi)) / self_squared_pi, 0 where x * x * pi == 0
    self_pi = x * math.pi
    self_squared_pi = x * x * math.pi
    out = g * (self_pi * self_pi.cos() - self_pi.sin()) / self_squared_pi
    return B.where(self_squared_pi == 0.0, _scalar0(g, 0.0), out)


def logit(x, eps=None, out=None):
    eps = None if eps is None else float(eps)  # float? eps: a Python float on the node (_saved_eps)
    return U.unary("LogitBackward0", x, lambda v: M.logit(v, eps), _logit_grad(eps), _floatify, out=out, save="x",
                   extra={"eps": eps})


def _logit_grad(eps):
    def grad(g, x, r):
        if grad_mode._enabled[0]:
            # infinitely_differentiable_logit_backward (create_graph)
            lo, hi = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
            inside = B.logical_and(x >= lo, x <= hi)
            return B.where(inside, g / (x * (1.0 - x)), _scalar0(x, 0.0 if eps is not None else math.nan))
        # logit_backward: ATen's one kernel
        npd = C.compute_dtype(C.dtype_of(x))
        res = C.elementwise_compute(lambda gv, xv: M.logit_backward(gv, xv, eps), C.values_of(g, npd),
                                    C.values_of(x, npd))
        return C.make(res, C.dtype_of(x), C.device_of(x))
    return grad


# ----------------------------------------------------------------------------- binary
_KERNEL_DTYPE_NAMES = {np.dtype(np.int64): "Long", np.dtype(np.int32): "Int", np.dtype(np.int16): "Short",
                       np.dtype(np.int8): "Char", np.dtype(np.uint8): "Byte", np.dtype(np.bool_): "Bool"}


def _floating_kernel(kernel, fn):
    """fn, refusing the integer and bool dtypes the op's CPU kernel is not built for (after the checks before
    the kernel: broadcasting, in-place castability)."""
    def compute(x, y):
        if x.dtype.kind != "f":
            raise RuntimeError(f"\"{kernel}\" not implemented for '{_KERNEL_DTYPE_NAMES.get(x.dtype, x.dtype)}'")
        return fn(x, y)
    return compute


def _kernel_name(op, a, b):
    """The CPU or CUDA kernel's name in its dtype error (hypot_cpu / hypot_cuda)."""
    cuda = any(isinstance(t, C.Tensor) and t._impl.device_key >= 0 for t in (a, b))
    return op + ("_cuda" if cuda else "_cpu")


def _refuse_virtual_integers(kernel, a, b):
    """The kernel's refusal for shape-only (virtual) operands, whose compute never runs."""
    if any(isinstance(t, C.Tensor) and t._impl.is_virtual for t in (a, b)):
        pt = C.result_type(a, b)
        if not pt.is_floating_point:
            raise RuntimeError(f"\"{kernel}\" not implemented for '{O.scalar_name(pt)}'")


def xlogy(a, b, out=None):
    ta, tb = isinstance(a, C.Tensor), isinstance(b, C.Tensor)
    if not ta and not tb:
        raise TypeError(f"xlogy() received an invalid combination of arguments - got ({_type_name(a)}, "
                        f"{_type_name(b)}), but expected one of:")
    # xlogy.Tensor / xlogy.Scalar_Self / xlogy.Scalar_Other: three entries in derivatives.yaml
    name = "XlogyBackward0" if ta and tb else ("XlogyBackward1" if tb else "XlogyBackward2")
    return B.binary(name, a, b, M.xlogy, _xlogy_grad, out_dtype=_float_of, out=out, save=_save_xlogy)


def _save_xlogy(a, b, r, need_a, need_b):
    # both formulas use self and other; a Scalar side is saved as the number itself
    return {"self": a, "other": b}


def _xlogy_grad(g, la, lb, s):
    self_, other = s["self"], s["other"]
    ga = gb = None
    if la is not None:
        if isinstance(other, C.Tensor):
            # Note [Gradient formula for xlogy at x = 0, y <= 0]: zero there
            ga = xlogy(g, other).masked_fill((self_ == 0.0) & (other <= 0.0), 0.0)
        else:
            ga = xlogy(g, other)
            if not float(other) > 0.0:
                ga = ga.masked_fill(self_ == 0.0, 0.0)
        ga = _sum_to(ga, la)
    if lb is not None:
        gb = _sum_to(g * self_ / other, lb)
    return ga, gb


def hypot(a, b, out=None):
    kernel = _kernel_name("hypot", a, b)
    _refuse_virtual_integers(kernel, a, b)
    return B.binary("HypotBackward0", a, b, _floating_kernel(kernel, M.hypot), _hypot_grad, out=out,
                    save=_save_hypot)


def _save_hypot(a, b, r, need_a, need_b):
    # self: grad * self / result; other: grad * other / result (each input only for its own gradient)
    return {"self": a if need_a else None, "other": b if need_b else None, "result": r}


def _hypot_grad(g, la, lb, s):
    r = s["result"]
    return (_sum_to(g * s["self"] / r, la) if la is not None else None,
            _sum_to(g * s["other"] / r, lb) if lb is not None else None)


def logaddexp(a, b, out=None):
    kernel = _kernel_name("logaddexp", a, b)
    _refuse_virtual_integers(kernel, a, b)
    return B.binary("LogaddexpBackward0", a, b, _floating_kernel(kernel, M.logaddexp), _logaddexp_grad,
                    out=out, save=B._save_both)


def _logaddexp_grad(g, la, lb, s):
    x, y = s["self"], s["other"]
    return (_sum_to(g / (1 + U.exp(y - x)), la) if la is not None else None,
            _sum_to(g / (1 + U.exp(x - y)), lb) if lb is not None else None)


def logaddexp2(a, b, out=None):
    kernel = _kernel_name("logaddexp2", a, b)
    _refuse_virtual_integers(kernel, a, b)
    return B.binary("Logaddexp2Backward0", a, b, _floating_kernel(kernel, M.logaddexp2),
                    _logaddexp2_grad, out=out, save=B._save_both)


def _logaddexp2_grad(g, la, lb, s):
    x, y = s["self"], s["other"]
    return (_sum_to(g / (1 + B.pow(2, y - x)), la) if la is not None else None,
            _sum_to(g / (1 + B.pow(2, x - y)), lb) if lb is not None else None)


def copysign(a, b, out=None):
    """copysign.Tensor (CopysignBackward0: self saved only for its own gradient, the result always; other's
    gradient is zeros) or copysign.Scalar (CopysignBackward1, one edge: self and the result)."""
    if isinstance(b, C.Tensor):
        return B.binary("CopysignBackward0", a, b, np.copysign, _copysign_grad, out_dtype=_float_of, out=out,
                        save=lambda a, b, r, need_a, need_b: {"self": a if need_a else None, "result": r})
    return B.binary("CopysignBackward1", a, b, np.copysign, _copysign_grad, out_dtype=_float_of, out=out,
                    save=lambda a, b, r, need_a, need_b: {"self": a, "result": r})


def _copysign_grad(g, la, lb, s):
    ga = gb = None
    if la is not None:  # copysign_tensor_self_backward: grad * result / self, 0 where self is 0
        self_ = s["self"]
        ga = _sum_to(g * (s["result"] / self_).masked_fill(self_ == 0, 0), la)
    if lb is not None:
        gb = g.new_zeros(lb.sizes, dtype=lb.dtype)
    return ga, gb


# ----------------------------------------------------------------------------- install
def install(torch_module, tensor_cls):
    """What the op table cannot declare: torch.polygamma(n, input) and Tensor.polygamma(n) / polygamma_(n), and
    the torch.NAME_ functions PyTorch has for erfc, sinc, logit and xlogy (the table makes Tensor.NAME_ only)."""
    torch_module.polygamma = polygamma
    tensor_cls.polygamma = polygamma_method
    tensor_cls.polygamma_ = polygamma_inplace
    for name in ("erfc_", "sinc_", "logit_", "xlogy_"):
        def fn(input, *args, _name=name, **kwargs):  # noqa: A002
            return getattr(input, _name)(*args, **kwargs)
        fn.__name__ = name
        setattr(torch_module, name, fn)

# torch.special: the functions that are other names of ops DeviceScope has (same node: special.expit(x) is
# sigmoid's SigmoidBackward0, special.gammaln(x) lgamma's LgammaBackward0, as in PyTorch). The others (i0, entr,
# ndtr, xlog1py, zeta, ...) are not implemented yet, so they raise AttributeError rather than compute something
# else.
import torch

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "log1p", "log_softmax", "logit",
           "logsumexp", "polygamma", "psi", "sinc", "softmax", "xlogy"]


def _unary(name, op):
    """special.NAME(input, *, out=None): torch.OP under another name (the same op and node)."""
    def fn(input, *, out=None):  # noqa: A002
        return getattr(torch, op)(input) if out is None else getattr(torch, op)(input, out=out)
    fn.__name__ = fn.__qualname__ = name
    return fn


expit = _unary("expit", "sigmoid")
erf = _unary("erf", "erf")
erfinv = _unary("erfinv", "erfinv")
exp2 = _unary("exp2", "exp2")
expm1 = _unary("expm1", "expm1")
log1p = _unary("log1p", "log1p")
erfc = _unary("erfc", "erfc")
gammaln = _unary("gammaln", "lgamma")
digamma = _unary("digamma", "digamma")
psi = _unary("psi", "digamma")
sinc = _unary("sinc", "sinc")


def logsumexp(input, dim, keepdim=False, *, out=None):  # noqa: A002
    return torch.logsumexp(input, dim, keepdim) if out is None else torch.logsumexp(input, dim, keepdim, out=out)


def softmax(input, dim, *, dtype=None):  # noqa: A002
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):  # noqa: A002
    return torch.log_softmax(input, dim, dtype=dtype)


def polygamma(n, input, *, out=None):  # noqa: A002
    return torch.polygamma(n, input) if out is None else torch.polygamma(n, input, out=out)


def logit(input, eps=None, *, out=None):  # noqa: A002
    return torch.logit(input, eps) if out is None else torch.logit(input, eps, out=out)


def xlogy(input, other, *, out=None):  # noqa: A002
    return torch.xlogy(input, other) if out is None else torch.xlogy(input, other, out=out)

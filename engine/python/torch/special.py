# torch.special: the functions that are other names of ops DeviceScope has (same node: special.expit(x) is
# sigmoid's SigmoidBackward0, special.gammaln(x) lgamma's LgammaBackward0, as in PyTorch). The others (i0, entr,
# ndtr, xlog1py, zeta, ...) are not implemented yet, so they raise AttributeError rather than compute something
# else.
import torch

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "log1p", "log_softmax", "logit",
           "logsumexp", "polygamma", "psi", "sinc", "softmax", "xlogy"]


def expit(input, *, out=None):  # noqa: A002
    return torch.sigmoid(input) if out is None else torch.sigmoid(input, out=out)


def erf(input, *, out=None):  # noqa: A002
    return torch.erf(input) if out is None else torch.erf(input, out=out)


def erfinv(input, *, out=None):  # noqa: A002
    return torch.erfinv(input) if out is None else torch.erfinv(input, out=out)


def exp2(input, *, out=None):  # noqa: A002
    return torch.exp2(input) if out is None else torch.exp2(input, out=out)


def expm1(input, *, out=None):  # noqa: A002
    return torch.expm1(input) if out is None else torch.expm1(input, out=out)


def log1p(input, *, out=None):  # noqa: A002
    return torch.log1p(input) if out is None else torch.log1p(input, out=out)


def logsumexp(input, dim, keepdim=False, *, out=None):  # noqa: A002
    return torch.logsumexp(input, dim, keepdim) if out is None else torch.logsumexp(input, dim, keepdim, out=out)


def softmax(input, dim, *, dtype=None):  # noqa: A002
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):  # noqa: A002
    return torch.log_softmax(input, dim, dtype=dtype)


def erfc(input, *, out=None):  # noqa: A002
    return torch.erfc(input) if out is None else torch.erfc(input, out=out)


def gammaln(input, *, out=None):  # noqa: A002
    return torch.lgamma(input) if out is None else torch.lgamma(input, out=out)


def digamma(input, *, out=None):  # noqa: A002
    return torch.digamma(input) if out is None else torch.digamma(input, out=out)


def psi(input, *, out=None):  # noqa: A002
    return torch.digamma(input) if out is None else torch.digamma(input, out=out)


def polygamma(n, input, *, out=None):  # noqa: A002
    return torch.polygamma(n, input) if out is None else torch.polygamma(n, input, out=out)


def sinc(input, *, out=None):  # noqa: A002
    return torch.sinc(input) if out is None else torch.sinc(input, out=out)


def logit(input, eps=None, *, out=None):  # noqa: A002
    return torch.logit(input, eps) if out is None else torch.logit(input, eps, out=out)


def xlogy(input, other, *, out=None):  # noqa: A002
    return torch.xlogy(input, other) if out is None else torch.xlogy(input, other, out=out)

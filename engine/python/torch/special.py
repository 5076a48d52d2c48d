# torch.special: the functions that are other names of ops DeviceScope has (same node: special.expit(x) is
# sigmoid's SigmoidBackward0, as in PyTorch). The others (gammaln, digamma, xlogy, logit, i0, sinc, entr, erfc,
# ndtr, ...) are not implemented yet, so they raise AttributeError rather than compute something else.
import torch

__all__ = ["erf", "erfinv", "exp2", "expit", "expm1", "log1p", "log_softmax", "logsumexp", "softmax"]


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

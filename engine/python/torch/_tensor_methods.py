# Attaches the math, shape and indexing methods and the Python operators to torch.Tensor, and the
# in-place variants (add_, mul_, clamp_, uniform_, ...) with PyTorch's in-place rules.
import numpy as np

from . import _dtype as D
from ._numpy_names import accepting_numpy_names
from . import _random
from ._ops import _core as C
from ._ops import elementwise as E
from ._ops import fill_ops as FO
from ._ops import indexing as I
from ._ops import linalg as L
from ._ops import masked_fill as MF
from ._ops import reduction as R
from ._ops import shape as S
from ._ops import subscript as Sub
from ._ops import subscript_assign as SubAssign
from . import linalg as _linalg
from ._tensor import Tensor


def _method(fn):
    def m(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    m.__name__ = fn.__name__
    return m


# The elementwise ops (add, exp, clamp, ...) with their in-place and out= forms and their aliases are built
# from their declarations in _ops/op_table.py by _ops/registry.py (installed by torch/__init__).

for _name in ("isnan", "isinf", "isfinite", "isclose", "allclose", "equal", "where"):
    setattr(Tensor, _name, _method(getattr(E, _name)))


def _where_method(self, condition, other):
    return E.where(condition, self, other)


Tensor.where = _where_method


def _write(self, r):
    C.write(self, C.read(r))
    return self


def _assign(self, r):
    """In-place result: values written into self; under autograd self takes r's history."""
    C.check_inplace(self)
    if tuple(r._impl.sizes) != tuple(self._impl.sizes):
        raise RuntimeError(f"output with shape {list(self._impl.sizes)} doesn't match the broadcast shape "
                           f"{list(r._impl.sizes)}")
    C.elementwise_device([r], outputs=[self])
    C.write(self, C.read(r))
    if r._grad_fn is not None:
        self._grad_fn, self._output_nr = r._grad_fn, r._output_nr
    return self



# Python operators
Tensor.__add__ = lambda self, other: E.add(self, other)
Tensor.__radd__ = lambda self, other: E.add(other, self)
Tensor.__iadd__ = lambda self, other: E.add(self, other, out=self)
Tensor.__sub__ = lambda self, other: E.sub(self, other)
Tensor.__rsub__ = lambda self, other: E.rsub(self, other)
Tensor.__isub__ = lambda self, other: E.sub(self, other, out=self)
Tensor.__mul__ = lambda self, other: E.mul(self, other)
Tensor.__rmul__ = lambda self, other: E.mul(other, self)
Tensor.__imul__ = lambda self, other: E.mul(self, other, out=self)
Tensor.__truediv__ = lambda self, other: E.div(self, other)
# number / tensor is `self.reciprocal() * other` in PyTorch (Tensor.__rdiv__): ReciprocalBackward0 keeps
# the reciprocal, MulBackward0 the number
Tensor.__rtruediv__ = lambda self, other: (E.div(other, self) if isinstance(other, Tensor)
                                           else E.mul(E.reciprocal(self), other))
Tensor.__itruediv__ = lambda self, other: E.div(self, other, out=self)
Tensor.__floordiv__ = lambda self, other: E.floor_divide(self, other)
Tensor.__rfloordiv__ = lambda self, other: E.floor_divide(other, self)
Tensor.__ifloordiv__ = lambda self, other: E.floor_divide(self, other, out=self)
Tensor.__mod__ = lambda self, other: E.remainder(self, other)
Tensor.__rmod__ = lambda self, other: E.remainder(other, self)
Tensor.__imod__ = lambda self, other: E.remainder(self, other, out=self)
Tensor.__pow__ = lambda self, other: E.pow(self, other)
Tensor.__rpow__ = lambda self, other: E.pow(other, self)
Tensor.__ipow__ = lambda self, other: E.pow(self, other, out=self)
Tensor.__matmul__ = lambda self, other: L.matmul(self, other)
Tensor.__rmatmul__ = lambda self, other: L.matmul(other, self)
Tensor.__neg__ = lambda self: E.neg(self)
Tensor.__pos__ = lambda self: self
Tensor.__abs__ = lambda self: E.abs(self)
Tensor.__invert__ = lambda self: E.logical_not(self) if C.dtype_of(self) is D.bool else E.bitwise_not(self)
Tensor.__and__ = lambda self, other: E.bitwise_and(self, other) if C.dtype_of(self) is not D.bool \
    else E.logical_and(self, other)
Tensor.__rand__ = Tensor.__and__
Tensor.__or__ = lambda self, other: E.bitwise_or(self, other) if C.dtype_of(self) is not D.bool \
    else E.logical_or(self, other)
Tensor.__ror__ = Tensor.__or__
Tensor.__xor__ = lambda self, other: E.bitwise_xor(self, other) if C.dtype_of(self) is not D.bool \
    else E.logical_xor(self, other)
Tensor.__rxor__ = Tensor.__xor__
Tensor.__iand__ = lambda self, other: _assign(self, self & other)
Tensor.__ior__ = lambda self, other: _assign(self, self | other)
Tensor.__ixor__ = lambda self, other: _assign(self, self ^ other)
Tensor.__eq__ = lambda self, other: E.eq(self, other) if _cmp_ok(other) else NotImplemented
Tensor.__ne__ = lambda self, other: E.ne(self, other) if _cmp_ok(other) else NotImplemented
Tensor.__lt__ = lambda self, other: E.lt(self, other)
Tensor.__le__ = lambda self, other: E.le(self, other)
Tensor.__gt__ = lambda self, other: E.gt(self, other)
Tensor.__ge__ = lambda self, other: E.ge(self, other)


def _python_operand(fn):
    """A containers or None as the other operand is not a tensor operand: the operator returns NotImplemented,
    so Python raises its own TypeError ("unsupported operand type(s) for +: 'Tensor' and 'list'") as it does
    for PyTorch, whose operators decline them the same way."""
    def op(self, other):
        if isinstance(other, (list, tuple, dict, set, str, bytes, type(None))):
            return NotImplemented
        return fn(self, other)
    op.__name__ = fn.__name__
    return op


for _name in ("add", "radd", "iadd", "sub", "rsub", "isub", "mul", "rmul", "imul", "truediv", "rtruediv", "itruediv",
              "floordiv", "rfloordiv", "ifloordiv", "mod", "rmod", "imod", "pow", "rpow", "ipow", "matmul", "rmatmul",
              "lt", "le", "gt", "ge"):
    setattr(Tensor, f"__{_name}__", _python_operand(getattr(Tensor, f"__{_name}__")))
Tensor.__getitem__ = lambda self, index: Sub.getitem(self, index)
Tensor.__setitem__ = lambda self, index, value: SubAssign.setitem(self, index, value)


def _cmp_ok(other):
    return isinstance(other, (Tensor, int, float, bool, np.number, np.bool_))


# Reductions
for _name in ("sum", "nansum", "mean", "nanmean", "prod", "var", "std", "max", "min", "amax", "amin", "argmax",
              "argmin", "all", "any", "logsumexp", "cumsum", "cumprod", "softmax", "log_softmax",
              "count_nonzero", "aminmax"):
    setattr(Tensor, _name, accepting_numpy_names(_method(getattr(R, _name))))  # x.max(axis=1) as in PyTorch
Tensor.norm = accepting_numpy_names(_method(_linalg._torch_norm))

# Linear algebra
# PyTorch's parameter names, so that keywords work as there: a.matmul(other=b), a.mm(mat2=b).
Tensor.mm = lambda self, mat2: L.mm(self, mat2)
Tensor.bmm = lambda self, mat2: L.bmm(self, mat2)
Tensor.matmul = lambda self, other: L.matmul(self, other)
Tensor.dot = lambda self, tensor: L.dot(self, tensor)
Tensor.mv = lambda self, vec: L.mv(self, vec)
Tensor.outer = lambda self, vec2: L.outer(self, vec2)
Tensor.inner = lambda self, other: L.inner(self, other)
Tensor.addmm = lambda self, mat1, mat2, *, beta=1, alpha=1: L.addmm(self, mat1, mat2, beta=beta, alpha=alpha)
Tensor.addmm_ = lambda self, mat1, mat2, *, beta=1, alpha=1: _assign(self, L.addmm(self, mat1, mat2, beta=beta,
                                                                                    alpha=alpha))
Tensor.baddbmm = lambda self, b1, b2, *, beta=1, alpha=1: L.baddbmm(self, b1, b2, beta=beta, alpha=alpha)

# Shapes and views
for _name in ("view", "reshape", "view_as", "reshape_as", "flatten", "unflatten", "transpose", "swapaxes",
              "swapdims", "t", "permute", "movedim", "moveaxis", "unsqueeze", "squeeze", "expand", "expand_as",
              "broadcast_to", "select", "narrow", "split", "tensor_split", "chunk", "unbind", "as_strided",
              "repeat", "flip", "roll", "triu", "tril", "diag", "diagonal", "trace"):
    setattr(Tensor, _name, _method(getattr(S, _name)))


def _t_(self):
    r = S.t(self)
    return _restride(self, r)


def _restride(self, r):
    self._impl.set_data(r._impl)
    return self


def _unsqueeze_(self, dim):
    return _restride(self, S.unsqueeze(self, dim))


def _squeeze_(self, dim=None):
    return _restride(self, S.squeeze(self, dim))


def _transpose_(self, a, b):
    return _restride(self, S.transpose(self, a, b))


Tensor.t_ = _t_
Tensor.unsqueeze_ = _unsqueeze_
Tensor.squeeze_ = _squeeze_
Tensor.transpose_ = _transpose_


def _prop_T(self):
    return S.permute(self, list(range(self._impl.dim))[::-1]) if self._impl.dim != 2 else S.t(self)


Tensor.T = property(_prop_T)
Tensor.mT = property(lambda self: S.transpose(self, -2, -1))
Tensor.H = Tensor.T
Tensor.mH = Tensor.mT


# Tensor.repeat_interleave: _ops/extra_composites.py (PyTorch's composition, differentiable)

# Indexing
for _name in ("index_select", "gather", "scatter", "scatter_", "scatter_add", "scatter_add_", "index_add",
              "index_add_", "masked_select", "nonzero", "argwhere", "take", "sort", "argsort", "topk", "unique"):
    setattr(Tensor, _name, _method(getattr(I, _name)))
Tensor.masked_fill = _method(MF.masked_fill)
Tensor.masked_fill_ = _method(MF.masked_fill_)


# Fills and random fills (in place; allowed under no_grad on parameters, as nn.init does): _ops/fill_ops.py
_fill = FO.fill
Tensor.fill_ = FO.fill_
Tensor.zero_ = FO.zero_


def _shape(self):
    return tuple(self._impl.sizes)


def _uniform_(self, a=0.0, b=1.0, *, generator=None):
    return _fill(self, lambda: _random.uniform_values(self, a, b, generator), "UniformBackward0")


def _normal_(self, mean=0.0, std=1.0, *, generator=None):
    return _fill(self, lambda: _random.normal_values(self, mean, std, generator), "NormalBackward0")


def _bernoulli_(self, p=0.5, *, generator=None):
    if isinstance(p, Tensor):
        return _fill(self, lambda: _random.bernoulli_values(self, C.read(p), C.dtype_of(p), generator),
                     "BernoulliBackward1", ((p, lambda g: g.new_zeros(p.shape, dtype=C.dtype_of(p))),))
    return _fill(self, lambda: _random.bernoulli_values(self, p, "float64", generator), "BernoulliBackward2")


def _random_(self, from_=0, to=None, *, generator=None):
    if to is None and not from_:
        return _fill(self, lambda: _random.random_values(self, generator), "RandomBackward2")
    node = "RandomBackward0" if to is not None else "RandomBackward1"  # random_.from / random_.to
    if to is None:
        from_, to = 0, from_
    return _fill(self, lambda: _random.randint_values(self, from_, to, generator), node)


def _exponential_(self, lambd=1.0, *, generator=None):
    if not lambd >= 0.0:
        raise RuntimeError(f"exponential_ expects lambda >= 0.0, but found lambda={lambd:g}")
    return _fill(self, lambda: _random.exponential_values(self, lambd, generator), "ExponentialBackward0")


def _log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    return _fill(self, lambda: _random.log_normal_values(self, mean, std, generator), "LogNormalBackward0")


def _geometric_(self, p, *, generator=None):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    return _fill(self, lambda: _random.geometric_values(self, p, generator), "GeometricBackward0")


def _cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    if not C.dtype_of(self).is_floating_point:
        raise RuntimeError(f"\"cauchy_cpu\" not implemented for '{_scalar_name(C.dtype_of(self))}'")
    return _fill(self, lambda: _random.cauchy_values(self, median, sigma, generator), "CauchyBackward0")


def _scalar_name(dtype):
    from ._ops.elementwise import scalar_name
    return scalar_name(dtype)


Tensor.uniform_ = _uniform_
Tensor.normal_ = _normal_
Tensor.bernoulli_ = _bernoulli_
Tensor.random_ = _random_
Tensor.exponential_ = _exponential_
Tensor.log_normal_ = _log_normal_
Tensor.geometric_ = _geometric_
Tensor.cauchy_ = _cauchy_


def _bernoulli(self, p=None, *, generator=None):
    from . import _factories
    return _factories.bernoulli(self, p, generator=generator)


Tensor.bernoulli = _bernoulli


def _multinomial(self, num_samples, replacement=False, *, generator=None):
    from . import _factories
    return _factories.multinomial(self, num_samples, replacement, generator=generator)


Tensor.multinomial = _multinomial
Tensor.conj = lambda self: self
Tensor.resolve_conj = lambda self: self
Tensor.resolve_neg = lambda self: self
Tensor.is_conj = lambda self: False
Tensor.is_neg = lambda self: False
Tensor.real = property(lambda self: self)
Tensor.ravel = lambda self: S.reshape(self, (-1,))
Tensor.positive = lambda self: self


Tensor.index_fill = FO.index_fill
Tensor.index_fill_ = FO.index_fill_


def _fill_diagonal_(self, fill_value, wrap=False):
    xv = np.array(C.read(self))
    np.fill_diagonal(xv, fill_value, wrap=wrap)
    return _fill(self, xv)


Tensor.fill_diagonal_ = _fill_diagonal_

# The Python protocols of torch.Tensor that read or copy values: item/tolist/numpy, number conversions,
# len/iter/bool, printing, deepcopy and pickling, new_* factories. A base class of torch.Tensor (like
# PyTorch's torch._C.TensorBase), kept apart so _tensor.py stays about placement and autograd.
import numpy as np

import _devicescope_C as _E

from . import _dtype as D
from ._ops import _core as C
from .autograd import grad_mode


class TensorProtocols:
    __slots__ = ()

    # ------------------------------------------------------------------ values
    def _host_values(self, what=None):
        """Values for Python: a CUDA tensor is first copied to the host (a recorded transfer, like PyTorch)."""
        C.check_virtual(self, what=what)
        if self._impl.device_key >= 0:
            return C.read(C.wrap(_E.to_device_dtype(self._impl, "cpu", None, False, False)))
        return C.read(self)

    def item(self):
        n = self._impl.numel
        if n != 1:
            raise RuntimeError(f"a Tensor with {n} elements cannot be converted to Scalar")
        return self._host_values("item()").reshape(()).item()

    def tolist(self):
        return self._host_values("tolist()").tolist()

    def numpy(self, *, force=False):
        if self._impl.device_key >= 0:
            if not force:
                raise TypeError(f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to "
                                "copy the tensor to host memory first.")
            return self._host_values("numpy()")
        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                               "instead.")
        if self._impl.dtype_code == 3:
            raise TypeError("Got unsupported ScalarType BFloat16")
        C.check_virtual(self, what="numpy()")
        return C.read(self)

    def __array__(self, dtype=None):
        a = self._host_values() if self._impl.device_key < 0 else self.numpy()
        return a if dtype is None else a.astype(dtype)

    def __float__(self):
        if self._impl.numel != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(self.item())

    def __int__(self):
        if self._impl.numel != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self.item())

    def __index__(self):
        if self._impl.numel != 1 or self.dtype.is_floating_point or self.dtype is D.bool:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        n = self._impl.numel
        if n == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if n > 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __complex__(self):
        return complex(self.item())

    def __len__(self):
        if self._impl.dim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._impl.sizes[0]

    def __iter__(self):
        if self._impl.dim == 0:
            raise TypeError("iteration over a 0-d tensor")
        from ._ops import shape as S
        return iter(S.unbind(self, 0))

    def __contains__(self, element):
        if isinstance(element, (C.Tensor, int, float, bool)):
            return bool((self == element).any().item())
        raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                           f"{type(element)}.")

    def __reversed__(self):
        if self._impl.dim == 0:
            return self
        return self.flip(0)

    # ------------------------------------------------------------------ printing
    def __repr__(self, *, tensor_contents=None):
        from . import _tensor_str
        return _tensor_str.tensor_repr(self)

    def __str__(self):
        return self.__repr__()

    def __format__(self, spec):
        if self._impl.dim == 0 and not self._impl.is_virtual:
            return self.item().__format__(spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return self.__repr__()

    # ------------------------------------------------------------------ copying / pickling
    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        with grad_mode.no_grad():
            new = C.wrap(_E.clone(self._impl), type(self))
        if self._requires_grad:
            new._requires_grad = True
            new._impl.requires_grad = True
        if self._grad is not None:
            import copy
            new._grad = copy.deepcopy(self._grad, memo)
            new._impl.grad = new._grad._impl
        for k, v in self.__dict__.items():
            if k not in ("_impl", "_requires_grad", "_grad", "_acc", "_hooks"):
                import copy
                new.__dict__[k] = copy.deepcopy(v, memo)
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, proto):
        values = None if self._impl.is_virtual else np.array(self._host_values())
        return (_rebuild_tensor, (values, self.dtype._name, str(self.device), self.requires_grad,
                                  tuple(self._impl.sizes), self._impl.is_virtual, type(self)))

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        from . import _factories
        return _factories.tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                                 requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False, **kw):
        from . import _factories
        return _factories.empty(*size, dtype=dtype or self.dtype, device=device or self.device,
                                requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, **kw):
        from . import _factories
        return _factories.zeros(*size, dtype=dtype or self.dtype, device=device or self.device,
                                requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False, **kw):
        from . import _factories
        return _factories.ones(*size, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False, **kw):
        from . import _factories
        return _factories.full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)


def _rebuild_tensor(values, dtype_name, device, requires_grad, sizes, virtual, cls):
    from . import _factories, _serialization
    dt = getattr(D, dtype_name)
    if _serialization._state["active"]:
        device = _serialization.target_device(device)
    if virtual:
        t = _factories.empty(sizes, dtype=dt, device=device, virtual=True)
    else:
        t = _factories.tensor(values, dtype=dt, device=device)
    if cls is not C.Tensor:
        t = C.Tensor._make_subclass(cls, t, requires_grad)
    elif requires_grad:
        t.requires_grad_(True)
    return t

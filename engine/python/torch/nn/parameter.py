# torch.nn.Parameter: a Tensor subclass that Module.__setattr__ registers as a parameter.
# It shares the storage of the tensor it wraps (a detached alias), like PyTorch's _make_subclass.
from collections import OrderedDict

import torch


_DISABLED_TORCH_FUNCTION = getattr(getattr(torch, "_C", None), "_disabled_torch_function_impl", None)


_type_instancecheck = type.__instancecheck__


class _ParameterMeta(type(torch.Tensor)):
    # isinstance(t, Parameter) is also true for custom tensors flagged with _is_param (as in PyTorch).
    # Module.__setattr__ asks this on every assignment, so the common answer comes first.
    def __instancecheck__(self, instance):
        if _type_instancecheck(self, instance):
            return True
        return getattr(instance, "_is_param", False) is True and isinstance(instance, torch.Tensor)


def _mark_parameter(t):
    impl = getattr(t, "_impl", None)
    if impl is not None:
        try:
            impl.is_parameter = True
        except Exception:
            pass
    return t


class Parameter(torch.Tensor, metaclass=_ParameterMeta):
    r"""A kind of Tensor that is to be considered a module parameter.

    Assigning a Parameter as a Module attribute registers it in the module's parameters;
    assigning a plain Tensor does not (it stays a plain attribute that ``Module.to`` ignores).

    Args:
        data (Tensor): parameter tensor (its storage is shared, not copied).
        requires_grad (bool, optional): if the parameter requires gradient. Default: `True`
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        if type(data) is torch.Tensor or type(data) is Parameter:
            return _mark_parameter(torch.Tensor._make_subclass(cls, data, requires_grad))
        # Custom tensor subclasses keep their type and are flagged instead.
        t = data.detach().requires_grad_(requires_grad)
        if type(t) is not type(data):
            raise RuntimeError(f"Creating a Parameter from an instance of type {type(data).__name__} "
                               "requires that detach() returns an instance of the same type, but return "
                               f"type {type(t).__name__} was found instead. To use the type as a "
                               "Parameter, please correct the detach() semantics defined by "
                               "its __torch_dispatch__() implementation.")
        t._is_param = True
        return _mark_parameter(t)

    def __init__(self, data=None, requires_grad=True):
        # Everything happens in __new__; this only stops Tensor.__init__ from seeing the arguments.
        pass

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.data, self.requires_grad, OrderedDict()))

    # Ops on a Parameter return plain Tensors (PyTorch disables __torch_function__ for Parameter).
    if _DISABLED_TORCH_FUNCTION is not None:
        __torch_function__ = _DISABLED_TORCH_FUNCTION


class _BufferMeta(type(torch.Tensor)):
    # isinstance(t, Buffer) is true for tensors made by Buffer(...) (they are plain Tensors, flagged).
    def __instancecheck__(self, instance):
        if self is Buffer and isinstance(instance, torch.Tensor) and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(torch.Tensor, metaclass=_BufferMeta):
    r"""A kind of Tensor that should not be considered a model parameter (PyTorch 2.5+).

    Assigning ``Buffer(t)`` as a Module attribute registers it as a buffer, like ``register_buffer``.
    Buffer(data) returns a detached alias of data flagged as a buffer (not a Buffer instance).
    """

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = torch.empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t

    if _DISABLED_TORCH_FUNCTION is not None:
        __torch_function__ = _DISABLED_TORCH_FUNCTION


def _rebuild_parameter(data, requires_grad, backward_hooks):
    return Parameter(data, requires_grad)


def is_lazy(param):
    return False

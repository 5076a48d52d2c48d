# torch.Tensor: a Python object around one engine TensorImpl (`_impl`). Identity is Python identity:
# `t.to(...)` returns `t` itself when nothing changes (SEMANTICS §2). Placement, conversion and the autograd
# fields live here; the math methods are attached from torch/_tensor_methods.py.
import sys as _sys
import warnings

import numpy as np

import _devicescope_C as _E

from . import _devicescope_hooks as _hooks
from . import _dtype as D
from ._device import BY_KEY as _BY_KEY, from_key
from ._ops import _core as C
from ._ops import overlap as _overlap
from ._size import _fast_size
from ._tensor_protocols import TensorProtocols, _rebuild_tensor  # noqa: F401 (pickles name it here)
from .autograd import grad_mode, graph

_enabled = grad_mode._enabled
_DT = D.BY_CODE
_new = object.__new__
_E_to = _E.to
_wrap = None  # set below


def _wrap_size_dim(dim, sizes):
    """size(dim)'s and stride(dim)'s dim: c10's maybe_wrap_dim without wrap_scalar, so a 0-dim tensor has no
    dimension to name."""
    if not sizes and hasattr(dim, "__index__") and not isinstance(dim, bool):
        raise IndexError(f"Dimension specified as {dim.__index__()} but tensor has no dimensions")
    return C.wrap_dim(dim, len(sizes))


def _to_backward(src_device, src_dtype):
    def fn(gs):
        g = gs[0]
        return (g.to(device=src_device, dtype=src_dtype),)
    return fn


def _copy_result(self, impl):
    """Wraps a real copy made by to/cuda/cpu; under grad mode it joins the graph (ToCopyBackward0)."""
    out = _new(Tensor)
    out._impl = impl
    if _enabled[0] and (self._grad_fn is not None or self._requires_grad):
        graph.attach("ToCopyBackward0", [out], [self], _to_backward(self.device, self.dtype))
    return out


class Tensor(TensorProtocols):
    __module__ = "torch"
    # Autograd defaults live on the class so a new tensor only sets `_impl`.
    _base = None  # for views: the tensor whose storage they view
    _grad_fn = None
    _output_nr = 0
    _requires_grad = False
    _grad = None
    _is_param = False
    __hash__ = object.__hash__

    def __new__(cls, *args, **kwargs):
        """Legacy constructor: Tensor(), Tensor(2, 3), Tensor([1, 2]), Tensor(size), Tensor(other)."""
        from . import _factories
        device = kwargs.pop("device", None)
        if kwargs:
            raise TypeError(f"new() received an invalid combination of arguments - got ({', '.join(kwargs)})")
        if not args:
            t = _factories.empty(0, device=device)
        elif len(args) == 1 and isinstance(args[0], Tensor):
            t = args[0].detach()
        elif all(isinstance(a, int) and not isinstance(a, bool) for a in args) or \
                (len(args) == 1 and type(args[0]).__name__ == "Size"):
            t = _factories.empty(*args, device=device)
        elif len(args) == 1:
            t = _factories.tensor(args[0], dtype=D.float32, device=device)
        else:
            raise TypeError("new(): invalid data type")
        if cls is not Tensor:
            t.__class__ = cls
        return t

    def __init__(self, *args, **kwargs):
        pass

    @staticmethod
    def _make_subclass(cls, data, require_grad=False, **kwargs):
        """A `cls` instance sharing data's storage (and version counter), detached, with requires_grad set."""
        t = _new(cls)
        t._impl = _E.detach(data._impl)
        if require_grad:
            if not t.dtype.is_floating_point:
                raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
            t._requires_grad = True
            t._impl.requires_grad = True
        return t

    # ------------------------------------------------------------------ metadata
    @property
    def shape(self):
        return _fast_size(self._impl.sizes)

    def size(self, dim=None):
        sizes = self._impl.sizes
        if dim is None:
            return _fast_size(sizes)
        if type(dim) is int and -len(sizes) <= dim < len(sizes):
            return sizes[dim]  # (a plain int in range: what wrap_dim would index)
        return sizes[_wrap_size_dim(dim, sizes)]

    @property
    def dtype(self):
        return _DT[self._impl.dtype_code]

    @property
    def device(self):
        k = self._impl.device_key
        d = _BY_KEY.get(k)
        return d if d is not None else from_key(k)

    @property
    def is_cuda(self):
        return self._impl.device_key >= 0

    @property
    def is_cpu(self):
        return self._impl.device_key == -1

    @property
    def is_meta(self):
        return self._impl.device_key == -3

    is_sparse = False
    is_quantized = False
    is_nested = False
    is_mps = False
    is_xpu = False
    is_mkldnn = False

    @property
    def layout(self):
        from . import strided
        return strided

    @property
    def is_virtual(self):
        """DeviceScope: placed and accounted, but holds no values (see torch.empty(..., virtual=True))."""
        return self._impl.is_virtual

    @property
    def ndim(self):
        return self._impl.dim

    def dim(self):
        return self._impl.dim

    ndimension = dim

    def numel(self):
        return self._impl.numel

    nelement = numel

    def stride(self, dim=None):
        strides = self._impl.strides
        if dim is None:
            return tuple(strides)
        if type(dim) is int and -len(strides) <= dim < len(strides):
            return strides[dim]  # (a plain int in range: what wrap_dim would index)
        return strides[_wrap_size_dim(dim, strides)]

    def storage_offset(self):
        return self._impl.offset

    def element_size(self):
        return self.dtype.itemsize

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self._impl.nbytes

    def is_contiguous(self, memory_format=None):
        if memory_format is None or memory_format.name in ("contiguous_format", "preserve_format"):
            return self._impl.is_contiguous
        return _is_channels_last(self._impl)

    def is_floating_point(self):
        return _DT[self._impl.dtype_code].is_floating_point

    def is_complex(self):
        return False

    def is_signed(self):
        return _DT[self._impl.dtype_code].is_signed

    def is_pinned(self, device=None):
        return self._impl.is_pinned

    def get_device(self):
        k = self._impl.device_key
        return k if k >= 0 else -1

    def data_ptr(self):
        return self._impl.data_ptr

    def untyped_storage(self):
        from ._storage import UntypedStorage
        return UntypedStorage(self)

    storage = untyped_storage

    def _is_view(self):
        return self._base is not None

    @property
    def _version(self):
        return self._impl.version

    def type(self, dtype=None, non_blocking=False, **kwargs):
        if dtype is None:
            return typename_of(self)
        legacy = getattr(dtype, "dtype_name", None) or getattr(getattr(dtype, "dtype", None), "_name", None)
        if legacy is not None and not isinstance(dtype, D.dtype):  # torch.FloatTensor / torch.cuda.FloatTensor
            cuda = type(dtype).__module__.startswith("torch.cuda")
            return self.to(device="cuda" if cuda else "cpu", dtype=getattr(D, legacy), non_blocking=non_blocking)
        if isinstance(dtype, str):
            cuda = dtype.startswith("torch.cuda.")
            name = dtype.split(".")[-1]
            match = [d for d in D.ALL if d._legacy == name]
            if not match:
                raise ValueError(f"invalid type: '{dtype}'")
            return self.to(device="cuda" if cuda else "cpu", dtype=match[0], non_blocking=non_blocking)
        return self.to(dtype=dtype, non_blocking=non_blocking)

    # ------------------------------------------------------------------ autograd fields
    @property
    def requires_grad(self):
        return self._grad_fn is not None or self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad=True):
        requires_grad = bool(requires_grad)
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to "
                                   "use a computed variable in a subgraph that doesn't require differentiation "
                                   "use var_no_grad = var.detach().")
            return self
        if requires_grad and not _DT[self._impl.dtype_code].is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = requires_grad
        self._impl.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self):
        return self._grad_fn is None

    @property
    def grad_fn(self):
        return self._grad_fn

    @property
    def output_nr(self):
        return self._output_nr

    @property
    def grad(self):
        if self._grad_fn is not None and not self.__dict__.get("_retains_grad", False):
            warnings.warn("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
                          "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
                          "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf "
                          "Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf "
                          "Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more informations.",
                          UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is None:
            self._grad = None
            self._impl.grad = None
            return
        if not isinstance(value, Tensor):
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                            f"{type(value).__name__}")
        if value is self:
            raise RuntimeError("can't assign Variable as its own grad")
        vi, si = value._impl, self._impl
        if vi.dtype_code == si.dtype_code and vi.device_key == si.device_key and vi.sizes == si.sizes:
            # (the common case, as the autograd engine and zero_grad assign: the checks below all pass)
            self._grad = value
            si.grad = vi
            _E.tag(vi, "gradient", "")
            _hooks.note_gradient(self, value)
            return
        if value.dtype is not self.dtype:
            raise RuntimeError(f"attempting to assign a gradient with dtype '{value.dtype}' to a tensor with dtype "
                               f"'{self.dtype}'. Please ensure that the gradient and the tensor have the same "
                               "dtype")
        if value.device.type != self.device.type:
            raise RuntimeError(f"attempting to assign a gradient with device type '{value.device.type}' to a "
                               f"tensor with device type '{self.device.type}'. Please ensure that the gradient "
                               "and the tensor are on the same device")
        if value.get_device() != self.get_device():
            raise RuntimeError(f"attempting to assign a gradient located on device with index "
                               f"'{value.get_device()}' to a tensor located on device with index "
                               f"'{self.get_device()}'. Please ensure that the gradient and the tensor are on "
                               "the same device")
        if tuple(value._impl.sizes) != tuple(self._impl.sizes):
            raise RuntimeError(f"attempting to assign a gradient of size '{list(value._impl.sizes)}' to a tensor "
                               f"of size '{list(self._impl.sizes)}'. Please ensure that the gradient and the "
                               "tensor are the same size")
        self._grad = value
        self._impl.grad = value._impl
        _E.tag(value._impl, "gradient", "")
        _hooks.note_gradient(self, value)

    def retain_grad(self):
        if self._grad_fn is None:
            if not self._requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        import weakref
        node = self._grad_fn
        if node._retain is None:
            node._retain = {}
        node._retain[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    @property
    def retains_grad(self):
        return bool(self.__dict__.get("_retains_grad", False))

    def register_hook(self, hook):
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        from collections import OrderedDict
        from torch.utils.hooks import RemovableHandle
        if self._grad_fn is None:
            hooks = self.__dict__.get("_hooks")
            if hooks is None:
                hooks = self._hooks = OrderedDict()
        else:
            node = self._grad_fn
            if node._hooks is None:
                node._hooks = {}
            hooks = node._hooks.get(self._output_nr)
            if hooks is None:
                hooks = node._hooks[self._output_nr] = OrderedDict()
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def register_post_accumulate_grad_hook(self, hook):
        """hook(tensor) runs after autograd has accumulated into this leaf's .grad (PyTorch 2.1+; DDP's
        reducer and FSDP hook the same point, AccumulateGrad's post hook)."""
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        from collections import OrderedDict
        from torch.utils.hooks import RemovableHandle
        hooks = self.__dict__.get("_post_accumulate_grad_hooks")
        if hooks is None:
            hooks = self._post_accumulate_grad_hooks = OrderedDict()
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        autograd = _sys.modules[__package__ + ".autograd"]  # (no import statement: ~2 us a call)
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    @property
    def data(self):
        return C.wrap(_E.data_alias(self._impl))

    @data.setter
    def data(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(other).__name__}")
        self._impl.set_data(other._impl)

    def detach(self):
        return C.wrap(_E.detach(self._impl))

    def _detached_alias(self):
        """Another Python object for the same TensorImpl, without autograd history (saved outputs)."""
        t = _new(Tensor)
        t._impl = self._impl
        return t

    def detach_(self):
        self._grad_fn = None
        self._requires_grad = False
        self._impl.requires_grad = False
        return self

    # ------------------------------------------------------------------ placement (SEMANTICS §2)
    def to(self, *args, **kwargs):
        if kwargs and "memory_format" in kwargs:
            return self._to_memory_format(args, kwargs)
        impl = _E_to(self._impl, args, kwargs)
        if impl is None:
            return self
        return self._wrap_to(impl)

    def _wrap_to(self, impl):
        """The Tensor around to()'s new TensorImpl, with its autograd edge."""
        out = _new(Tensor)
        out._impl = impl
        if _enabled[0] and (self._grad_fn is not None or self._requires_grad):
            graph.attach("ToCopyBackward0", [out], [self], _to_backward(self.device, self.dtype))
        return out

    def _to_memory_format(self, args, kwargs):
        device, dtype, non_blocking, copy, mf = _E.parse_to(args, kwargs)
        impl = _E.to_device_dtype(self._impl, device, dtype, non_blocking, bool(copy))
        r = self if impl is None else self._wrap_to(impl)
        if mf is None or mf.name == "preserve_format":
            return r
        out = _in_format(r, mf)
        if out is r:
            return r
        if r is self and _enabled[0] and self.requires_grad:
            graph.attach("ToCopyBackward0", [out], [self], _to_backward(self.device, self.dtype))
        elif r is not self and r._grad_fn is not None:
            out._grad_fn, out._output_nr = r._grad_fn, r._output_nr
        return out

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        impl = _E.cuda(self._impl, device, non_blocking)
        return self if impl is None else _copy_result(self, impl)

    def cpu(self, memory_format=None):
        impl = _E.cpu(self._impl)
        return self if impl is None else _copy_result(self, impl)

    def pin_memory(self, device=None):
        if _E.device_count() == 0:  # page-locking needs a CUDA context, as in a CUDA build without a GPU
            raise RuntimeError("No CUDA GPUs are available")
        impl = _E.pin_memory(self._impl)
        return self if impl is None else _copy_result(self, impl)

    def copy_(self, src, non_blocking=False):
        if not isinstance(src, Tensor):
            raise TypeError(f"copy_(): argument 'src' (position 1) must be Tensor, not {type(src).__name__}")
        C.check_inplace(self)
        if src._impl is not self._impl:
            _overlap.check_write(self, [src])  # TensorIterator's internal/partial overlap errors
        need = C.needs_grad(self, src)
        if need:
            old_edge = graph.edge_of(self)
            before = graph.base_edge(self)  # written through a view: the base's history continues
        _E.copy_(self._impl, src._impl, bool(non_blocking))
        if need:
            # CopyBackwards saves nothing: the closure keeps src's metadata, not src
            sdev, sdt, shape, src_grad = src.device, src.dtype, tuple(src._impl.sizes), src.requires_grad

            def fn(gs):
                g = gs[0]
                gsrc = C.sum_to_shape(g, shape).to(device=sdev, dtype=sdt) if src_grad else None
                return (g * 0.0 if old_edge[0] is not None else None, gsrc)
            graph.attach_edges("CopyBackwards", [self], [old_edge, graph.edge_of(src)], fn)
            graph.rebase_view(self, before)
        return self

    def clone(self, memory_format=None):
        out = C.wrap(_E.clone(self._impl))
        if C.needs_grad(self):
            graph.attach("CloneBackward0", [out], [self], lambda gs: (gs[0],))
        return out

    def contiguous(self, memory_format=None):
        if memory_format is not None and memory_format.name == "channels_last":
            out = _in_format(self, memory_format)
            if out is not self and C.needs_grad(self):
                graph.attach("CloneBackward0", [out], [self], lambda gs: (gs[0],))
            return out
        impl = _E.contiguous(self._impl)
        if impl is None:
            return self
        out = C.wrap(impl)
        if C.needs_grad(self):
            graph.attach("CloneBackward0", [out], [self], lambda gs: (gs[0],))
        return out

    def float(self, memory_format=None):
        return self.to(D.float32)

    def double(self, memory_format=None):
        return self.to(D.float64)

    def half(self, memory_format=None):
        return self.to(D.float16)

    def bfloat16(self, memory_format=None):
        return self.to(D.bfloat16)

    def long(self, memory_format=None):
        return self.to(D.int64)

    def int(self, memory_format=None):
        return self.to(D.int32)

    def short(self, memory_format=None):
        return self.to(D.int16)

    def char(self, memory_format=None):
        return self.to(D.int8)

    def byte(self, memory_format=None):
        return self.to(D.uint8)

    def bool(self, memory_format=None):
        return self.to(D.bool)

    def type_as(self, other):
        # ATen: self.to(other.options()) - other's dtype AND device (the translation tutorial relies on it)
        return self.to(device=other.device, dtype=other.dtype)


def _channels_last_strides(sizes):
    n, c, h, w = sizes
    return (h * w * c, 1, w * c, c)


def _is_channels_last(impl):
    if impl.dim != 4:
        return False
    want = _channels_last_strides(impl.sizes)
    return all(s == 1 or st == w for s, st, w in zip(impl.sizes, impl.strides, want))


def _in_format(t, mf):
    """t laid out in memory format `mf` (t itself when it already is)."""
    if mf.name == "contiguous_format":
        return t.contiguous()
    if mf.name == "channels_last":
        if t._impl.dim != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        if _is_channels_last(t._impl):
            return t
        n, c, h, w = t._impl.sizes
        base = C.new_empty((n, h, w, c), t.dtype, t.device, False, t._impl.is_virtual)
        out = C.wrap(_E.as_strided(base._impl, (n, c, h, w), _channels_last_strides((n, c, h, w)), 0))
        _E.copy_(out._impl, t._impl, False)
        return out
    raise RuntimeError(f"Unsupported memory format {mf}")


def typename_of(t):
    """'torch.FloatTensor' / 'torch.cuda.FloatTensor' (torch.typename / Tensor.type())."""
    legacy = _DT[t._impl.dtype_code]._legacy
    return ("torch.cuda." if t._impl.device_key >= 0 else "torch.") + legacy


C.Tensor = Tensor

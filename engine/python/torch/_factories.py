# Tensor factories (tensor, empty, zeros, ones, full, rand*, arange, linspace, eye, *_like, from_numpy)
# with device=/dtype=/requires_grad=/pin_memory= and the default device (SEMANTICS §6), plus DeviceScope's
# virtual=True (placed and accounted like any tensor, never materialised).
import math
import warnings

import numpy as np

import _devicescope_C as _E

from . import _cpu_sampling
from . import _default
from . import _dtype as D
from . import _random
from ._device import as_device
from ._ops import _core as C
from ._ops import layout as _layout
from ._ops import out as _out
from ._ops import scalar_check
from ._size import Size


def _size_args(name, args):
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = tuple(args[0])
    for a in args:
        if type(a) is not int:
            break
    else:
        return args  # (plain ints: the loop below would give them back unchanged)
    out = []
    for i, a in enumerate(args):
        if isinstance(a, C.Tensor) and a._impl.dim == 0:
            a = a.item()
        if isinstance(a, bool) or not hasattr(a, "__index__"):
            raise TypeError(f"{name}(): argument 'size' (position {i + 1}) must be tuple of ints, but found "
                            f"element of type {type(a).__name__} at pos {i}")
        out.append(a.__index__())
    return tuple(out)


def _device(device):
    return _default.factory_device(as_device(device))


def _finish(t, requires_grad):
    if requires_grad:
        if not C.dtype_of(t).is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
        t._impl.requires_grad = True
    return t


def _with_out(name, resize_warning=None, int_error=None, numel_only=False):
    """The factory's out= variant: the values are made in out's dtype on out's device and written into out,
    resized (silently, as ATen's factories call resize_) ; returns out itself. resize_warning(out, n) is
    arange's note about a wrong element count; int_error names the kernel that integer outs lack; numel_only:
    out is resized only when its element count differs (arange, linspace: a (2, 2) out of 4 elements keeps its
    shape and strides and takes the values in its own row-major order)."""
    def wrap(factory):
        def fn(*args, out=None, **kwargs):
            if out is None:
                return factory(*args, **kwargs)
            if not isinstance(out, C.Tensor):
                raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
            odt = C.dtype_of(out)
            dtype = kwargs.get("dtype")
            if dtype is not None and dtype is not odt:
                raise RuntimeError(f"dtype {_scalar_name(dtype)} does not match dtype of out parameter "
                                   f"({_scalar_name(odt)})")
            if int_error and not odt.is_floating_point:
                _out.resize_(out, _size_args(name, args))  # resized before the kernel refuses
                raise RuntimeError(f"\"{int_error}\" not implemented for '{_scalar_name(odt)}'")
            kwargs = dict(kwargs, dtype=odt, device=C.device_of(out))
            result = factory(*args, **kwargs)
            if (out._impl.numel != result._impl.numel if numel_only else
                    tuple(result._impl.sizes) != tuple(out._impl.sizes)):
                if resize_warning is not None:
                    resize_warning(out, result._impl.numel)
                _out.resize_(out, result._impl.sizes)
            C.write(out, C.read(result).reshape(tuple(out._impl.sizes)))
            return out
        fn.__name__ = fn.__qualname__ = factory.__name__
        fn.__doc__ = factory.__doc__
        return fn
    return wrap


def _arange_resize_warning(out, n):
    if out._impl.numel != n and out._impl.numel:
        _out.warn_at_caller(f"The number of elements in the out tensor of shape {list(out._impl.sizes)} is "
                      f"{out._impl.numel} which does not match the computed number of elements {n}. Note that this "
                      "may occur as a result of rounding error. The out tensor will be resized to a tensor of shape "
                      f"({n},).")


def _alloc(name, size, dtype, device, pin_memory, virtual):
    virtual = virtual or _default.virtual_mode()
    dtype = dtype or _default.get_default_dtype()
    if not isinstance(dtype, D.dtype):
        raise TypeError(f"{name}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
    return C.new_empty(size, dtype, _device(device), bool(pin_memory), bool(virtual))


@_with_out("empty")
def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
          memory_format=None, virtual=False):
    t = _alloc("empty", _size_args("empty", size), dtype, device, pin_memory, virtual)
    return _finish(t, requires_grad)


def _filled(name, size, value, dtype, device, requires_grad, pin_memory, virtual):
    t = _alloc(name, _size_args(name, size), dtype, device, pin_memory, virtual)
    if not t._impl.is_virtual and t._impl.numel:
        C.write(t, np.asarray(value), bump=False)
    return _finish(t, requires_grad)


@_with_out("zeros")
def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
          virtual=False):
    if not pin_memory and not virtual and not _default.virtual_mode():
        dtype = dtype or _default.get_default_dtype()
        shape = _size_args("zeros", size)
        if shape and min(shape) < 0:  # the engine's negative-dimension error comes first, as in PyTorch
            return C.wrap(_E.zeros(shape, dtype._code, _device(device)))
        C.check_storage_size(shape, dtype)
        t = C.wrap(_E.zeros(shape, dtype._code, _device(device)))
        return _finish(t, requires_grad)
    return _filled("zeros", size, 0, dtype, device, requires_grad, pin_memory, virtual)


@_with_out("ones")
def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
         virtual=False):
    return _filled("ones", size, 1, dtype, device, requires_grad, pin_memory, virtual)


@_with_out("full")
def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False, virtual=False):
    if dtype is None:
        if isinstance(fill_value, bool):
            dtype = D.bool
        elif isinstance(fill_value, int):
            dtype = D.int64
        elif isinstance(fill_value, C.Tensor):
            dtype = C.dtype_of(fill_value)
            fill_value = fill_value.item()
    scalar_check.check(fill_value, dtype or _default.get_default_dtype())
    return _filled("full", size, fill_value, dtype, device, requires_grad, pin_memory, virtual)


def _random_fill(name, size, gen_fn, dtype, device, requires_grad, pin_memory, virtual, generator=None):
    t = _alloc(name, _size_args(name, size), dtype, device, pin_memory, virtual)
    if not t._impl.is_virtual and t._impl.numel:
        C.write(t, gen_fn(t, generator), bump=False)
    return _finish(t, requires_grad)


@_with_out("rand", int_error="check_uniform_bounds")
def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False, virtual=False):
    _check_float("rand", dtype)
    return _random_fill("rand", size, lambda t, g: _random.uniform_values(t, 0.0, 1.0, g), dtype, device,
                        requires_grad, pin_memory, virtual, generator)


@_with_out("randn", int_error="normal_kernel_cpu")
def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, virtual=False):
    _check_float("randn", dtype)
    return _random_fill("randn", size, lambda t, g: _random.normal_values(t, 0.0, 1.0, g), dtype, device,
                        requires_grad, pin_memory, virtual, generator)


def _check_float(name, dtype):
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(f"\"{'uniform' if name == 'rand' else 'normal'}_kernel_cpu\" not implemented for "
                           f"'{_scalar_name(dtype)}'")


def _scalar_name(d):
    from ._ops.elementwise import scalar_name
    return scalar_name(d)


def randint(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False, pin_memory=False,
            layout=None, out=None, low=None, high=None):
    args = list(args)
    if high is not None:  # randint(high=10, size=...), randint(low=0, high=10, size=...), randint(0, high=10, ...)
        if len(args) > 1 or (args and low is not None) or size is None:
            raise TypeError("randint() received an invalid combination of arguments")
        args = [args[0] if args else (low if low is not None else 0), high]
    elif low is not None:
        raise TypeError("randint() received an invalid combination of arguments")
    if size is None:
        size = args.pop()
    if len(args) == 1:
        low, high = 0, args[0]
    elif len(args) == 2:
        low, high = args
    else:
        raise TypeError("randint() received an invalid combination of arguments")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    return _random_fill("randint", size, lambda t, g: _random.randint_values(t, low, high, g), dtype or D.int64,
                        device, requires_grad, pin_memory, False, generator)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False, pin_memory=False, layout=None,
             out=None):
    t = _alloc("randperm", (n,), dtype or D.int64, device, pin_memory, False)
    if n and not t._impl.is_virtual:
        C.write(t, _random.randperm_values(t, generator), bump=False)
    return _finish(t, requires_grad)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None,
           requires_grad=False):
    if isinstance(mean, C.Tensor) or isinstance(std, C.Tensor):
        ref = mean if isinstance(mean, C.Tensor) else std
        m = C.read(mean) if isinstance(mean, C.Tensor) else mean
        s = C.read(std) if isinstance(std, C.Tensor) else std
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
        # ATen: output.normal_(0, 1, generator), then output.mul_(std).add_(mean)
        out = C.new_empty(tuple(shape), C.dtype_of(ref), C.device_of(ref), False, False)
        unit = np.asarray(_random.normal_values(out, 0.0, 1.0, generator), dtype=C.dtype_of(ref)._np)
        return C.make(unit * np.asarray(s, unit.dtype) + np.asarray(m, unit.dtype), C.dtype_of(ref),
                      C.device_of(ref))
    return _random_fill("normal", size, lambda t, g: _random.normal_values(t, mean, std, g), dtype, device,
                        requires_grad, False, False, generator)


def _virtual_result(input, shape, dtype):
    """Inside devicescope.virtual_mode(), a random draw from a virtual tensor is a virtual tensor of the
    result's shape: no values exist to draw from, and none are generated."""
    if isinstance(input, C.Tensor) and input._impl.is_virtual and _default.virtual_mode():
        return C.new_empty(tuple(shape), dtype, C.device_of(input), False, True)
    return None


def bernoulli(input, p=None, *, generator=None, out=None):  # noqa: A002
    v = _virtual_result(input, input._impl.sizes, C.dtype_of(input))
    if v is not None:
        return v
    # ATen: empty_like(input).bernoulli_(input or p): a float tensor of probabilities draws float uniforms
    out = C.new_empty(tuple(input._impl.sizes), C.dtype_of(input), C.device_of(input), False, False)
    probs, p_dtype = (C.read(input), C.dtype_of(input)) if p is None else (p, "float64")
    return C.make(_random.bernoulli_values(out, probs, p_dtype, generator), C.dtype_of(input),
                  C.device_of(input))


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):  # noqa: A002
    v = _virtual_result(input, tuple(input._impl.sizes)[:-1] + (num_samples,), D.int64)
    if v is not None:
        return v
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    sizes = tuple(input._impl.sizes)
    if not replacement and sizes and num_samples > sizes[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if not 1 <= len(sizes) <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    dtype = C.dtype_of(input)
    if not dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {_scalar_name(dtype)}")
    probs = np.asarray(C.read(input), dtype=np.float64 if dtype is D.float64 else np.float32).reshape(-1, sizes[-1])
    if not replacement or num_samples == 1:
        if not np.all(np.isfinite(probs) & (probs >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(probs.sum(axis=1) <= 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    else:
        for row in probs:
            for value in row:
                if not value >= 0:
                    raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
                if not np.isfinite(value):
                    raise RuntimeError("invalid multinomial distribution (encountering probability entry = "
                                       "infinity or NaN)")
            if not row.sum() > 0:
                raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    arr = _cpu_sampling.multinomial(_random.gen(generator, input).engine, probs, num_samples, replacement)
    return C.make(arr.reshape(sizes[:-1] + (num_samples,)), D.int64, C.device_of(input))


# ----------------------------------------------------------------------------- from data
_NUMBER_TYPES = frozenset((int, float))
_INT_ONLY = {int}
_SEQUENCES = (list, tuple)  # (zip_longest's rows of padded token ids are tuples)


def _infer_numbers(data):
    """_infer's result for the common case of a flat list (or a list of equal-length lists; tuples alike) of
    plain Python ints and floats: the element types checked at C speed instead of a walk call per element; None
    for anything else (bools, numpy scalars, tensors, ragged or empty lists), which _infer walks."""
    if not data:
        return None
    first = data[0]
    if type(first) in _SEQUENCES:
        n = len(first)
        types = set()
        for row in data:
            if type(row) not in _SEQUENCES or len(row) != n:
                return None
            types.update(map(type, row))
        shape = (len(data), n)
    else:
        types = set(map(type, data))
        if types == _INT_ONLY:  # (a flat list of ints, a data pipeline's token ids: np.array is 1-D already)
            return np.array(data), D.int64
        shape = (len(data),)
    if not types or not types <= _NUMBER_TYPES:
        return None
    if float in types:
        dtype = _default.get_default_dtype()
        return np.array(data, dtype=np.float64).reshape(shape), dtype
    return np.array(data).reshape(shape), D.int64


def _infer(data):
    """(values, dtype) for nested Python data, with PyTorch's inference and ragged-list errors."""
    if type(data) in _SEQUENCES:
        fast = _infer_numbers(data)
        if fast is not None:
            return fast
    kinds = set()

    def walk(x, depth, shape):
        if isinstance(x, C.Tensor):
            if x._impl.numel != 1 or x._impl.dim > 0 and depth < len(shape):
                if x._impl.numel != 1:
                    raise ValueError("only one element tensors can be converted to Python scalars")
            d = C.dtype_of(x)
            kinds.add("float" if d.is_floating_point else ("bool" if d is D.bool else "int"))
            return x.item()
        if isinstance(x, (list, tuple)):
            if len(shape) <= depth:
                shape.append(len(x))
            elif shape[depth] != len(x):
                raise ValueError(f"expected sequence of length {shape[depth]} at dim {depth} (got {len(x)})")
            return [walk(e, depth + 1, shape) for e in x]
        if isinstance(x, np.ndarray):
            return walk(x.tolist(), depth, shape)
        if isinstance(x, (bool, np.bool_)):
            kinds.add("bool")
        elif isinstance(x, (int, np.integer)):
            kinds.add("int")
        elif isinstance(x, (float, np.floating)):
            kinds.add("float")
        elif isinstance(x, complex):
            raise TypeError("DeviceScope does not model complex tensors")
        else:
            raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
        if len(shape) > depth:
            raise ValueError(f"expected sequence of length {shape[depth]} at dim {depth} (got 0)")
        return x

    shape = []
    values = walk(data, 0, shape)
    if "float" in kinds:
        dtype = _default.get_default_dtype()
    elif "int" in kinds:
        dtype = D.int64
    elif "bool" in kinds:
        dtype = D.bool
    else:
        dtype = _default.get_default_dtype()
    return np.array(values, dtype=np.float64 if dtype.is_floating_point else None).reshape(shape), dtype


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    if type(data) is list and dtype is None and not requires_grad and not pin_memory and data \
            and type(data[0]) is int and set(map(type, data)) == _INT_ONLY:
        # a flat list of Python ints (token ids: translation_transformer makes ~30k of these): _infer_numbers'
        # int64 array, which check_tensor_data passes as it is (numpy made int64 of ints that fit), then new_empty
        # and the copy in make's one C call (the same allocation); ints beyond int64 take the path below (its error)
        values = np.array(data)
        if values.dtype.kind == "i":
            return C.make(values, D.int64, _device(device))
    if isinstance(data, C.Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                      "or sourceTensor.clone().detach().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        values, inferred = C.read(data), C.dtype_of(data)
        target = _default.factory_device(as_device(device)) if device is not None else C.device_of(data)
        t = C.new_empty(values.shape, dtype or inferred, target, bool(pin_memory))
        if t._impl.numel:
            C.write(t, values, bump=False)
        return _finish(t, requires_grad)
    if isinstance(data, np.ndarray):
        values, inferred = np.asarray(data), D.from_numpy_dtype(data.dtype)
    else:
        values, inferred = _infer(data)
        if values.dtype.kind != "f" or dtype is not None:  # (the common float data: nothing to check)
            scalar_check.check_tensor_data(values, dtype or inferred)
    t = C.new_empty(values.shape, dtype or inferred, _device(device), bool(pin_memory))
    if t._impl.numel:
        view, is_copy = _E.numpy_view(t._impl)
        if not is_copy and view.dtype == values.dtype:
            view[...] = values  # (write()'s plain-copy case, without its checks: a fresh tensor, the same dtype)
        else:
            C.write(t, values, bump=False)
    return _finish(t, requires_grad)


def legacy_new(dtype, args):
    """torch.LongTensor(...) & co.: PyTorch's legacy constructor makes data (one list or tuple that is not a
    torch.Size) and sizes in the type's own dtype (through float32 first, large ints and doubles were rounded and a
    float32 tensor allocated too); anything else is Tensor(...) converted."""
    if len(args) == 1 and type(args[0]) in (list, tuple):
        return tensor(args[0], dtype=dtype)
    if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args) or \
            len(args) == 1 and type(args[0]).__name__ == "Size":
        return empty(*args, dtype=dtype)
    return C.Tensor(*args).to(dtype)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, C.Tensor):
        return data.to(device=device, dtype=dtype)
    if isinstance(data, np.ndarray) and data.dtype.kind in "fiub" and data.dtype != np.uint16:
        # Shares the array's memory when nothing needs converting (like PyTorch), else copies.
        t = from_numpy(data)
        return t.to(device=_device(device), dtype=dtype) if (device is not None or dtype is not None
                                                             or _default.factory_device(None) is not None) else t
    return tensor(data, dtype=dtype, device=device)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    if isinstance(obj, C.Tensor) and not copy:
        return obj.to(device=device, dtype=dtype)
    return tensor(obj, dtype=dtype, device=device, requires_grad=requires_grad)


def from_numpy(arr):
    """A CPU tensor sharing the array's memory (writes show through both ways), as in PyTorch."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    return C.wrap(_E.from_numpy(arr))


@_with_out("arange", resize_warning=_arange_resize_warning, numel_only=True)
def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
           pin_memory=False):
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, C.Tensor) else v for v in (start, end, step)]
    start, end, step = vals
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    if dtype is None:
        dtype = _default.get_default_dtype() if any(isinstance(v, float) for v in vals) else D.int64
    n = max(0, math.ceil((end - start) / step))
    t = C.new_empty((n,), dtype, _device(device), bool(pin_memory))  # the engine refuses huge sizes first
    if n:
        C.write(t, start + np.arange(n, dtype=np.float64 if dtype.is_floating_point else np.int64) * step,
                bump=False)
    return _finish(t, requires_grad)


def range(start, end, step=1, *, dtype=None, device=None, requires_grad=False):  # noqa: A001
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior "
                  "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
                  "values in [start, end).", UserWarning, stacklevel=2)
    n = int(math.floor((end - start) / step)) + 1
    t = C.new_empty((n,), dtype or _default.get_default_dtype(), _device(device))
    C.write(t, start + np.arange(n) * step, bump=False)
    return _finish(t, requires_grad)


@_with_out("linspace", numel_only=True)
def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    t = C.new_empty((steps,), dtype or _default.get_default_dtype(), _device(device))
    if steps:
        C.write(t, np.linspace(start, end, steps), bump=False)
    return _finish(t, requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    t = C.new_empty((steps,), dtype or _default.get_default_dtype(), _device(device))
    if steps:
        C.write(t, np.logspace(start, end, steps, base=base), bump=False)
    return _finish(t, requires_grad)


@_with_out("eye")
def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    m = n if m is None else m
    t = C.new_empty((n, m), dtype or _default.get_default_dtype(), _device(device), bool(pin_memory))
    if n and m:
        C.write(t, np.eye(n, m), bump=False)
    return _finish(t, requires_grad)


# ----------------------------------------------------------------------------- *_like (input's device)
def _like(name, t, dtype, device, requires_grad, fill, pin_memory=False):
    dev = C.device_of(t) if device is None else as_device(device)
    dt = dtype or C.dtype_of(t)
    out = C.new_empty(tuple(t._impl.sizes), dt, dev, bool(pin_memory), t._impl.is_virtual)
    strides = _layout.preserved_strides(t._impl.sizes, t._impl.strides)  # memory_format=torch.preserve_format
    if strides != tuple(out._impl.strides):
        out._impl.set_data(_E.as_strided(out._impl, tuple(t._impl.sizes), strides, 0))
    if fill is not None and not t._impl.is_virtual and out._impl.numel:
        C.write(out, fill(out), bump=False)
    return _finish(out, requires_grad)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,  # noqa: A002
               memory_format=None, pin_memory=False):
    return _like("empty_like", input, dtype, device, requires_grad, None, pin_memory)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,  # noqa: A002
               memory_format=None):
    return _like("zeros_like", input, dtype, device, requires_grad, lambda o: np.zeros(tuple(o._impl.sizes)))


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,  # noqa: A002
              memory_format=None):
    return _like("ones_like", input, dtype, device, requires_grad, lambda o: np.ones(tuple(o._impl.sizes)))


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,  # noqa: A002
              memory_format=None):
    scalar_check.check(fill_value, dtype or C.dtype_of(input))
    return _like("full_like", input, dtype, device, requires_grad, lambda o: np.full(tuple(o._impl.sizes), fill_value))


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,  # noqa: A002
              memory_format=None):
    return _like("rand_like", input, dtype, device, requires_grad, lambda t: _random.uniform_values(t, 0.0, 1.0))


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,  # noqa: A002
               memory_format=None):
    return _like("randn_like", input, dtype, device, requires_grad, lambda t: _random.normal_values(t, 0.0, 1.0))


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None,  # noqa: A002
                 requires_grad=False, memory_format=None):
    if high is None:
        low, high = 0, low
    return _like("randint_like", input, dtype, device, requires_grad,
                 lambda t: _random.randint_values(t, low, high))

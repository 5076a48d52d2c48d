# F.max_pool3d / F.avg_pool3d over the C++ loops of engine/python/bindings_pool3d.cpp: ATen's argument checks
# (max_pool3d_with_indices, avg_pool3d, pool3d_shape_check) and nodes - MaxPool3DWithIndicesBackward0 saving
# the input and the int64 indices (always computed: ATen's max_pool3d is max_pool3d_with_indices' first
# output), AvgPool3DBackward0 saving the input. Re-exported by functional.py.
import _devicescope_C as _E

from .._ops import _core as C
from ..autograd import graph, grad_mode
from ._functional_conv import _output_size
from .modules.utils import _triple


def _wants_grad(t):
    return grad_mode._enabled[0] and (t._requires_grad or t._grad_fn is not None)


def _three(fname, name, value, what, allow_empty=False):
    v = tuple(_triple(value)) if not isinstance(value, (list, tuple)) else tuple(value)
    if allow_empty and len(v) == 0:
        return None
    if len(v) not in (1, 3):
        raise RuntimeError("{}: {} must {}".format(fname, name, what))
    return v if len(v) == 3 else v * 3


def _saved_stride(stride):
    """The stride as the node saves it: as passed ([] when omitted; an int expanded to three)."""
    if stride is None:
        return ()
    return tuple(stride) if isinstance(stride, (list, tuple)) else (stride,) * 3


def _shape(fname, input, k, s, p, d, ceil_mode):
    if input.dim() not in (4, 5) or any(n == 0 for n in input.shape[-4:]):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if fname == "avg_pool3d" and any(input.shape[-3 + i] < k[i] for i in range(3)):
        raise RuntimeError("input image (T: {} H: {} W: {}) smaller than kernel size (kT: {} kH: {} kW: {})"
                           .format(*input.shape[-3:], *k))
    out = [_output_size(input.shape[-3 + i], k[i], p[i], s[i], d[i], ceil_mode) for i in range(3)]
    if any(v <= 0 for v in k):
        raise RuntimeError("kernel size should be greater than zero, but got kT: {} kH: {} kW: {}".format(*k))
    if any(v <= 0 for v in s):
        raise RuntimeError("stride should be greater than zero, but got dT: {} dH: {} dW: {}".format(*s))
    if any(v <= 0 for v in d):
        raise RuntimeError("dilation should be greater than zero, but got dilationT: {} dilationH: {} dilationW: {}"
                           .format(*d))
    if any(o < 1 for o in out):
        c = input.shape[-4]
        raise RuntimeError("Given input size: ({}x{}x{}x{}). Calculated output size: ({}x{}x{}x{}). Output size is "
                           "too small".format(c, *input.shape[-3:], c, *out))
    return out


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    fname = "max_pool3d"
    k = _three(fname, "kernel_size", kernel_size, "either be a single int, or a tuple of three ints")
    s = _three(fname, "stride", stride if stride is not None else (), "either be omitted, a single int, or a tuple "
               "of three ints", allow_empty=True) or k
    p = _three(fname, "padding", padding, "be either be a single int, or a tuple of three ints")  # (ATen's words)
    d = _three(fname, "dilation", dilation, "be either a single int, or a tuple of three ints")
    out = _shape(fname, input, k, s, p, d, ceil_mode)
    y, idx = _E.nn_max_pool3d(input.contiguous()._impl, out, k, s, p, d)
    y, indices = C.wrap(y), C.wrap(idx)
    if _wants_grad(input):
        _attach("MaxPool3DWithIndicesBackward0", y, input,
                lambda g: _E.nn_max_pool3d_backward(g, input.contiguous()._impl, indices._impl),
                {"ceil_mode": ceil_mode, "dilation": d, "kernel_size": k, "padding": p, "result1": indices,
                 "self": input, "stride": _saved_stride(stride)})
    return (y, indices) if return_indices else y


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    fname = "avg_pool3d"
    k = _three(fname, "kernel_size", kernel_size, "be a single int, or a tuple of three ints")
    s = _three(fname, "stride", stride if stride is not None else (), "be omitted, a single int, or a tuple of three "
               "ints", allow_empty=True) or k
    p = _three(fname, "padding", padding, "be a single int, or a tuple of three ints")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    out = _shape(fname, input, k, s, p, (1, 1, 1), ceil_mode)
    divisor = divisor_override or 0
    y = C.wrap(_E.nn_avg_pool3d(input.contiguous()._impl, out, k, s, p, count_include_pad, divisor))
    if _wants_grad(input):
        _attach("AvgPool3DBackward0", y, input,
                lambda g: _E.nn_avg_pool3d_backward(g, input.contiguous()._impl, k, s, p, count_include_pad,
                                                    divisor),
                {"ceil_mode": ceil_mode, "count_include_pad": count_include_pad, "divisor_override": divisor_override,
                 "kernel_size": k, "padding": p, "self": input, "stride": _saved_stride(stride)})
    return y


def _attach(name, out, x, kernel_backward, saved):
    # (the closure must not hold `out`: out -> node -> closure -> out would keep the output alive)
    def backward(grads):
        g = grads[0]
        if g is None:
            return [None]
        if grad_mode._enabled[0]:
            raise NotImplementedError("DeviceScope: double backward through 3-D pooling is not supported")
        return [C.wrap(kernel_backward(g.contiguous()._impl))]

    graph.attach(name, [out], [x], backward, saved=saved)

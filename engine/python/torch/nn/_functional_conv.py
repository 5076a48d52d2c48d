# torch.nn.functional's convolutions and pooling over the C++ kernels (engine/python/bindings_nn.cpp):
# PyTorch's argument checks and messages here, values and allocations there (exactly what ATen's CUDA
# kernel allocates, issue 21), and an explicit autograd node named and saving as PyTorch's does
# (derivatives.yaml: convolution saves input and weight; max pooling self and its indices; average
# pooling self). Re-exported by functional.py.
import warnings

import _devicescope_C as _E

import torch
from .._ops import _core as C
from ..autograd import graph, grad_mode
from ._checks import check_conv_types
from ._functional_basic import _constant_pad
from . import _functional_reference as ref
from .modules.utils import _pair, _single


def _impl(t):
    return None if t is None else t._impl


def _wants_grad(*tensors):
    return grad_mode._enabled[0] and any(t is not None and (t._requires_grad or t._grad_fn is not None)
                                         for t in tensors)


def _sizes(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def check_weight_dims_and_groups(x, weight, groups):
    """ATen's check_shape_forward on the weight, shared by every convolution (1-3 d, transposed): its rank
    against the input's, and its first dim against groups."""
    if weight.dim() != x.dim():
        raise RuntimeError("Expected {}-dimensional input for {}-dimensional weight {}, but got {}-dimensional input "
                           "of size {} instead".format(weight.dim(), weight.dim(), _sizes(weight), x.dim(), _sizes(x)))
    if weight.shape[0] < groups:
        raise RuntimeError("Given groups={}, expected weight to be at least {} at dimension 0, but got weight of size "
                           "{} instead".format(groups, groups, _sizes(weight)))
    if weight.shape[0] % groups != 0:
        # ATen prints the sizes inside its own brackets: "[[4, 2, 3, 3]]"
        raise RuntimeError("Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of "
                           "size [{}] instead".format(groups, groups, _sizes(weight)))


# ----------------------------------------------------------------------------- convolution
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def _convolution(fname, nd, input, weight, bias, stride, padding, dilation, groups):
    check_conv_types(input, weight, bias)
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError("Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}"
                           .format(nd + 1, nd + 2, fname, list(input.shape)))
    batched = input.dim() == nd + 2
    x = input if batched else input.unsqueeze(0)
    tup = _pair if nd == 2 else _single
    stride, dilation = tuple(tup(stride)), tuple(tup(dilation))
    ksize = tuple(weight.shape[2:])
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError("Invalid padding string: '{}'".format(padding))
        if padding == "same" and any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        pad = [0] * nd
        if padding == "same" and weight.dim() == nd + 2:
            extra = []
            for i in range(nd):
                total = dilation[i] * (ksize[i] - 1)
                pad[i] = total // 2
                extra.append(total - 2 * (total // 2))
            if any(extra):  # an even kernel: ATen pads the input's right side by one more first
                warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a "
                              "zero-padded copy of the input be created")
                pads = []
                for i in reversed(range(nd)):
                    pads += [0, extra[i]]
                x = _constant_pad(x, pads, 0.0)
        padding = tuple(pad)
    else:
        padding = tuple(tup(padding))
    _check_conv_shape(x, weight, bias, stride, padding, dilation, groups, nd)
    out = C.wrap(_E.nn_conv(x.contiguous()._impl, weight.contiguous()._impl, _impl(bias), stride, padding,
                            dilation, groups))
    if _wants_grad(x, weight, bias):
        _attach_conv(out, x, weight, bias, stride, padding, dilation, groups)
    return out if batched else out.squeeze(0)


def _check_conv_shape(x, weight, bias, stride, padding, dilation, groups, nd):
    """ATen's check_shape_forward, in its order and words."""
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    check_weight_dims_and_groups(x, weight, groups)
    if x.shape[1] != weight.shape[1] * groups:
        raise RuntimeError("Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} "
                           "channels instead".format(groups, _sizes(weight), _sizes(x), weight.shape[1] * groups,
                                                     x.shape[1]))
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError("Given weight of size {}, expected bias to be 1-dimensional with {} elements, but got bias "
                           "of size {} instead".format(_sizes(weight), weight.shape[0], _sizes(bias)))
    padded = [x.shape[2 + i] + 2 * padding[i] for i in range(nd)]
    kernel = [dilation[i] * (weight.shape[2 + i] - 1) + 1 for i in range(nd)]
    if any(k > p for k, p in zip(kernel, padded)):
        raise RuntimeError("Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size can't be "
                           "greater than actual input size".format(" x ".join(map(str, padded)),
                                                                   " x ".join(map(str, kernel))))


def _attach_conv(out, x, weight, bias, stride, padding, dilation, groups):
    mask = [x.requires_grad, weight.requires_grad, bias is not None and bias.requires_grad]

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None, None, None]
        if grad_mode._enabled[0]:  # create_graph: a differentiable backward
            return ref.reference_grads(lambda a, b, c: ref.conv(a, b, c, stride, padding, dilation, groups),
                                       [x, weight, bias], [i for i in range(3) if mask[i]], g)
        # convolution_backward: grad_output made contiguous (cuDNN's requirement, also ATen's copy)
        gi, gw, gb = _E.nn_conv_backward(g.contiguous()._impl, x.contiguous()._impl, weight.contiguous()._impl,
                                         stride, padding, dilation, groups, mask)
        return [None if t is None else C.wrap(t) for t in (gi, gw, gb)]

    graph.attach("ConvolutionBackward0", [out], [x, weight, bias], backward,
                 saved={"bias_sym_sizes_opt": None if bias is None else tuple(bias.shape), "dilation": dilation,
                        "groups": groups, "input": x, "output_padding": (0,) * len(stride), "padding": padding,
                        "stride": stride, "transposed": False, "weight": weight})


# ----------------------------------------------------------------------------- pooling
def _pool_args(fname, kernel_size, stride, padding, dilation=1):
    k = tuple(_pair(kernel_size))
    s = tuple(_pair(stride)) if stride is not None and not (isinstance(stride, (list, tuple)) and len(stride) == 0) \
        else k
    p, d = tuple(_pair(padding)), tuple(_pair(dilation))
    if len(k) not in (1, 2):
        raise RuntimeError(fname + ": kernel_size must either be a single int, or a tuple of two ints")
    if len(s) not in (1, 2):
        raise RuntimeError(fname + ": stride must either be omitted, a single int, or a tuple of two ints")
    if len(p) not in (1, 2):
        raise RuntimeError(fname + ": padding must either be a single int, or a tuple of two ints")
    if len(d) not in (1, 2):
        raise RuntimeError(fname + ": dilation must be either a single int, or a tuple of two ints")
    two = lambda t: t if len(t) == 2 else (t[0], t[0])  # noqa: E731
    return two(k), two(s), two(p), two(d)


def _output_size(size, k, p, s, d, ceil_mode):
    """ATen's pooling_output_shape, with its argument checks."""
    if s == 0:
        raise RuntimeError("stride should not be zero")
    if p < 0:
        raise RuntimeError("pad must be non-negative, but got pad: {}".format(p))
    if p > k // 2:
        raise RuntimeError("pad should be at most half of kernel size, but got pad={} and kernel_size={}".format(p, k))
    num = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    out = num // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_shape(input, k, s, p, d, ceil_mode):
    """The output (oh, ow) with the checks of max_pool2d_with_indices / avg_pool2d and pool2d_shape_check."""
    if input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    h, w = input.shape[-2], input.shape[-1]
    oh, ow = _output_size(h, k[0], p[0], s[0], d[0], ceil_mode), _output_size(w, k[1], p[1], s[1], d[1], ceil_mode)
    if k[0] <= 0 or k[1] <= 0:
        raise RuntimeError("kernel size should be greater than zero, but got kH: {} kW: {}".format(*k))
    if s[0] <= 0 or s[1] <= 0:
        raise RuntimeError("stride should be greater than zero, but got dH: {} dW: {}".format(*s))
    if d[0] <= 0 or d[1] <= 0:
        raise RuntimeError("dilation should be greater than zero, but got dilationH: {} dilationW: {}".format(*d))
    if any(n == 0 for n in input.shape[-3:]) or (input.dim() == 4 and input.shape[0] == 0 and False):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                           + _sizes(input))
    if oh < 1 or ow < 1:
        c = input.shape[-3]
        raise RuntimeError("Given input size: ({}x{}x{}). Calculated output size: ({}x{}x{}). Output size is too small"
                           .format(c, h, w, c, oh, ow))
    return oh, ow


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    k, s, p, d = _pool_args("max_pool2d", kernel_size, stride, padding, dilation)
    oh, ow = _pool_shape(input, k, s, p, d, ceil_mode)
    grad = _wants_grad(input)
    # max_pool2d_with_indices (and its int64 indices) on CUDA, with autograd, or when asked for the indices;
    # the CPU kernel without either keeps no indices.
    with_indices = grad or return_indices or input.is_cuda
    out, idx = _E.nn_max_pool2d(input.contiguous()._impl, k, s, p, d, oh, ow, with_indices)
    out = C.wrap(out)
    indices = None if idx is None else C.wrap(idx)
    if grad:
        _attach_max_from_indices("MaxPool2DWithIndicesBackward0", out, input, indices,
                                 {"ceil_mode": ceil_mode, "dilation": d, "kernel_size": k, "padding": p,
                                  "result1": indices, "self": input, "stride": s})
    return (out, indices) if return_indices else out


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """ATen's max_pool1d_with_indices: max_pool2d over input.unsqueeze(-2), squeezed back."""
    if input.dim() not in (2, 3):
        raise RuntimeError("max_pool1d() Expected 2D or 3D input tensor, but got {}".format(_sizes(input)))
    k, s = _single(kernel_size), _single(stride) if stride is not None and stride != [] else None
    p, d = _single(padding), _single(dilation)
    s = s if s is not None else k
    res = max_pool2d(input.unsqueeze(-2), (1, k[0]), (1, s[0]), (0, p[0]), (1, d[0]), ceil_mode, return_indices)
    if return_indices:
        return res[0].squeeze(-2), res[1].squeeze(-2)
    return res.squeeze(-2)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    k, s, p, _ = _pool_args("avg_pool2d", kernel_size, stride, padding)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    oh, ow = _pool_shape(input, k, s, p, (1, 1), ceil_mode)
    divisor = divisor_override or 0
    out = C.wrap(_E.nn_avg_pool2d(input.contiguous()._impl, k, s, p, oh, ow, count_include_pad, divisor))
    if _wants_grad(input):
        def reference(a):
            if ceil_mode or not count_include_pad:
                raise NotImplementedError("DeviceScope: double backward through avg_pool2d needs ceil_mode=False "
                                          "and count_include_pad=True")
            return ref.avg_pool(a, k, s, p, divisor)

        _attach_pool("AvgPool2DBackward0", out, input, reference,
                     lambda g: _E.nn_avg_pool2d_backward(g, input._impl, k, s, p, count_include_pad, divisor),
                     {"ceil_mode": ceil_mode, "count_include_pad": count_include_pad,
                      "divisor_override": divisor_override, "kernel_size": k, "padding": p, "self": input, "stride": s})
    return out


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    if input.dim() not in (2, 3):
        raise RuntimeError("avg_pool1d() Expected 2D or 3D input tensor, but got {}".format(_sizes(input)))
    k = _single(kernel_size)
    s = _single(stride) if stride is not None and stride != [] else k
    p = _single(padding)
    return avg_pool2d(input.unsqueeze(-2), (1, k[0]), (1, s[0]), (0, p[0]), ceil_mode, count_include_pad).squeeze(-2)


def _adaptive_size(fname, input, output_size):
    oh, ow = _pair(output_size)
    h, w = input.shape[-2], input.shape[-1]
    oh = h if oh is None else oh
    ow = w if ow is None else ow
    if input.dim() not in (3, 4) or any(n == 0 for n in input.shape[-2:]):
        raise RuntimeError("{}(): Expected 3D or 4D tensor, but got {}".format(fname, _sizes(input)))
    if oh < 0 or ow < 0:
        raise RuntimeError("{}: elements of output_size must be greater than or equal to 0 but received {{{}, {}}}"
                           .format(fname, oh, ow))
    return oh, ow


def adaptive_avg_pool2d(input, output_size):
    oh, ow = _adaptive_size("adaptive_avg_pool2d", input, output_size)
    if oh == 1 and ow == 1:
        return input.mean((-1, -2), keepdim=True)  # ATen: the mean over the spatial dims
    out = C.wrap(_E.nn_adaptive_pool2d(input.contiguous()._impl, oh, ow, False)[0])
    if _wants_grad(input):
        _attach_pool("AdaptiveAvgPool2DBackward0", out, input, lambda a: ref.adaptive_avg(a, oh, ow),
                     lambda g: _E.nn_adaptive_avg_pool2d_backward(g, input._impl), {"self": input})
    return out


def adaptive_avg_pool1d(input, output_size):
    if input.dim() not in (2, 3):
        raise RuntimeError("adaptive_avg_pool1d(): Expected 2D or 3D tensor, but got {}".format(_sizes(input)))
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _single(output_size)[0])).squeeze(-2)


def _attach_pool(name, out, x, reference, kernel_backward, saved):
    """The node of a pooling over one input (avg, adaptive avg, max from indices): `kernel_backward(g)` gives
    the C++ backward's grad_input; under create_graph (grad mode on in backward) the differentiable
    `reference(x)` gives it instead, so that double backward works. Closures must not hold `out`: out -> node
    -> closure -> out would keep the pooled activation alive until the garbage collector ran."""
    def backward(grads):
        g = grads[0]
        if g is None:
            return [None]
        if grad_mode._enabled[0]:
            return ref.reference_grads(reference, [x], [0], g)
        return [C.wrap(kernel_backward(g.contiguous()._impl))]

    graph.attach(name, [out], [x], backward, saved=saved)


def _attach_max_from_indices(name, out, x, indices, saved):
    """The node of a max pooling (plain or adaptive): its gradient goes to the input positions the int64
    indices name (one kernel, max_pool2d_with_indices_backward). Its reference keeps out's shape, not out."""
    out_shape = tuple(out.shape)
    _attach_pool(name, out, x, lambda a: ref.max_pool_from_indices(a, indices, out_shape),
                 lambda g: _E.nn_max_pool2d_backward(g, x._impl, indices._impl), saved)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    oh, ow = _adaptive_size("adaptive_max_pool2d", input, output_size)
    out, idx = _E.nn_adaptive_pool2d(input.contiguous()._impl, oh, ow, True)
    out, indices = C.wrap(out), C.wrap(idx)
    if _wants_grad(input):
        _attach_max_from_indices("AdaptiveMaxPool2DBackward0", out, input, indices,
                                 {"result1": indices, "self": input})
    return (out, indices) if return_indices else out


def adaptive_max_pool1d(input, output_size, return_indices=False):
    if input.dim() not in (2, 3):
        raise RuntimeError("adaptive_max_pool1d(): Expected 2D or 3D tensor, but got {}".format(_sizes(input)))
    res = adaptive_max_pool2d(input.unsqueeze(-2), (1, _single(output_size)[0]), return_indices)
    if return_indices:
        return res[0].squeeze(-2), res[1].squeeze(-2)
    return res.squeeze(-2)

# torch.nn.functional's transposed convolutions (1-3 spatial dims) and conv3d over the C++ kernels of
# engine/python/bindings_conv_nd.cpp: at::convolution's argument checks (and the CPU kernels' own, as real
# PyTorch's CPU build words them), then one ConvolutionBackward0 node saving what derivatives.yaml's
# convolution saves (input, weight, transposed, output_padding, ...). Re-exported by functional.py.
import warnings

import _devicescope_C as _E

from .._ops import _core as C
from ..autograd import graph, grad_mode
from . import _functional_reference as ref
from ._checks import check_conv_types
from ._functional_conv import _sizes, _wants_grad, check_weight_dims_and_groups
from ._functional_basic import _constant_pad
from .modules.utils import _triple

_AXES = {1: ("height", "width"), 2: ("height", "width"), 3: ("depth", "height", "width")}


def _expand(name, value, nd):
    """ConvParams' expand_param_if_needed: one value for every spatial dim, or exactly nd of them."""
    v = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(v) == 1:
        return tuple(v * nd)
    if len(v) != nd:
        raise RuntimeError("expected {} to be a single integer value or a list of {} values to match the convolution "
                           "dimensions, but got {}={}".format(name, nd, name, list(v)))
    return tuple(v)


def _batchify(input, nd, fname):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError("Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}"
                           .format(nd + 1, nd + 2, fname, list(input.shape)))
    batched = input.dim() == nd + 2
    return (input if batched else input.unsqueeze(0)), batched


def _check_common(x, weight, groups, stride, padding, output_padding, dilation, transposed):
    """check_shape_forward's checks shared by both directions, in its order."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in dilation) or (not transposed and any(d <= 0 for d in dilation)):
        raise RuntimeError("non-positive dilation is not supported" if not transposed
                           else "dilation should be greater than zero")
    check_weight_dims_and_groups(x, weight, groups)


def _named(prefix, values, axes, sep=" "):
    return sep.join("{}_{}: {}".format(prefix, a, v) for a, v in zip(axes, values))


def _check_transposed(x, weight, bias, stride, padding, output_padding, dilation, groups, nd):
    _check_common(x, weight, groups, stride, padding, output_padding, dilation, True)
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError("Given transposed=1, weight of size {}, expected input{} to have {} channels, but got {} "
                           "channels instead".format(_sizes(weight), _sizes(x), weight.shape[0], x.shape[1]))
    out_c = weight.shape[1] * groups
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != out_c):
        raise RuntimeError("Given transposed=1, weight of size {}, expected bias to be 1-dimensional with {} elements, "
                           "but got bias of size {} instead".format(_sizes(weight), out_c, _sizes(bias)))
    # the CPU kernel's shape check (slow_conv_transpose2d/3d; a 1-D one runs as 2-D with height 1)
    lead = 1 if nd == 1 else 0
    k = (1,) * lead + tuple(weight.shape[2:])
    s, d = (1,) * lead + stride, (1,) * lead + dilation
    op, p = (0,) * lead + output_padding, (0,) * lead + padding
    axes = _AXES[nd]
    if any(v <= 0 for v in k):
        raise RuntimeError("kernel size should be greater than zero, but got " + _named("kernel", k, axes))
    if any(v <= 0 for v in d):
        raise RuntimeError("dilation should be greater than zero, but got " + _named("dilation", d, axes, ", "))
    if not all(o < st or o < di for o, st, di in zip(op, s, d)):
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                           + " ".join([_named("output_padding", op, axes), _named("stride", s, axes),
                                       _named("dilation", d, axes)]))
    ins = (1,) * lead + tuple(x.shape[2:])
    outs = [(i - 1) * st - 2 * pp + di * (kk - 1) + 1 + o for i, st, pp, di, kk, o in zip(ins, s, p, d, k, op)]
    if any(o < 1 for o in outs):
        raise RuntimeError("Given input size per channel: ({}). Calculated output size per channel: ({}). Output size "
                           "is too small".format(" x ".join(map(str, ins)), " x ".join(map(str, outs))))


def _check_forward(x, weight, bias, stride, padding, dilation, groups):
    _check_common(x, weight, groups, stride, padding, (0,) * len(stride), dilation, False)
    if x.shape[1] != weight.shape[1] * groups:
        raise RuntimeError("Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} "
                           "channels instead".format(groups, _sizes(weight), _sizes(x), weight.shape[1] * groups,
                                                     x.shape[1]))
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError("Given weight of size {}, expected bias to be 1-dimensional with {} elements, but got bias "
                           "of size {} instead".format(_sizes(weight), weight.shape[0], _sizes(bias)))
    padded = [x.shape[2 + i] + 2 * padding[i] for i in range(len(stride))]
    kernel = [dilation[i] * (weight.shape[2 + i] - 1) + 1 for i in range(len(stride))]
    if any(k > p for k, p in zip(kernel, padded)):
        raise RuntimeError("Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size can't be "
                           "greater than actual input size".format(" x ".join(map(str, padded)),
                                                                   " x ".join(map(str, kernel))))


def _convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, nd, fname):
    check_conv_types(input, weight, bias)
    x, batched = _batchify(input, nd, fname)
    stride, padding = _expand("stride", stride, nd), _expand("padding", padding, nd)
    dilation, output_padding = _expand("dilation", dilation, nd), _expand("output_padding", output_padding, nd)
    if transposed:
        _check_transposed(x, weight, bias, stride, padding, output_padding, dilation, groups, nd)
    else:
        _check_forward(x, weight, bias, stride, padding, dilation, groups)
    out = C.wrap(_E.nn_conv_nd(x.contiguous()._impl, weight.contiguous()._impl, None if bias is None else bias._impl,
                               stride, padding, dilation, groups, transposed, output_padding))
    if _wants_grad(x, weight, bias):
        _attach(out, x, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    return out if batched else out.squeeze(0)


def _attach(out, x, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    mask = [x.requires_grad, weight.requires_grad, bias is not None and bias.requires_grad]
    nd = len(stride)

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None, None, None]
        if grad_mode._enabled[0]:  # create_graph: differentiate a formula built from differentiable ops
            if not transposed or nd == 3:
                raise NotImplementedError("DeviceScope: double backward through {} is not supported"
                                          .format("conv3d" if not transposed else "conv_transpose3d"))
            from ._functional_unfold import reference_conv_transpose
            return ref.reference_grads(
                lambda a, b, c: reference_conv_transpose(a, b, c, stride, padding, output_padding, dilation, groups),
                [x, weight, bias], [i for i in range(3) if mask[i]], g)
        gi, gw, gb = _E.nn_conv_nd_backward(g.contiguous()._impl, x.contiguous()._impl, weight.contiguous()._impl,
                                            stride, padding, dilation, groups, transposed, output_padding, mask)
        return [None if t is None else C.wrap(t) for t in (gi, gw, gb)]

    graph.attach("ConvolutionBackward0", [out], [x, weight, bias], backward,
                 saved={"bias_sym_sizes_opt": None if bias is None else tuple(bias.shape), "dilation": dilation,
                        "groups": groups, "input": x, "output_padding": output_padding, "padding": padding,
                        "stride": stride, "transposed": transposed, "weight": weight})


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _convolution(input, weight, bias, stride, padding, dilation, True, output_padding, groups, 1,
                        "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _convolution(input, weight, bias, stride, padding, dilation, True, output_padding, groups, 2,
                        "conv_transpose2d")


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _convolution(input, weight, bias, stride, padding, dilation, True, output_padding, groups, 3,
                        "conv_transpose3d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(padding, str):
        input, padding = _string_padding(input, padding, weight, _triple(stride), _triple(dilation))
    return _convolution(input, weight, bias, stride, padding, dilation, False, 0, groups, 3, "conv3d")


def _string_padding(input, padding, weight, stride, dilation):
    """padding='valid' / 'same' (ATen's _convolution_mode): 'same' pads each side by half the effective kernel;
    an odd remainder pads the input's far side first (a zero-padded copy, with ATen's warning)."""
    if padding not in ("same", "valid"):
        raise RuntimeError("Invalid padding string: '{}'".format(padding))
    if padding == "valid":
        return input, (0, 0, 0)
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    totals = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    if any(t % 2 for t in totals):
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
                      "copy of the input be created")
        pads = []
        for t in reversed(totals):
            pads += [0, t % 2]
        input = _constant_pad(input, pads, 0.0)
    return input, tuple(t // 2 for t in totals)


__all__ = ["conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]

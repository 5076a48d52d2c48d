# F.unfold / F.fold (ATen's im2col / col2im, Im2ColBackward0 / Col2ImBackward0) over the C++ kernels of
# engine/python/bindings_conv_nd.cpp, with ATen's shape checks in its words; and the differentiable formula of a
# 1-D/2-D transposed convolution (a matrix product folded back with col2im) that double backward differentiates.
# Each op's backward is the other op, so both are differentiable to any order.
import _devicescope_C as _E

import torch
from .._ops import _core as C
from ..autograd import graph, grad_mode
from .modules.utils import _pair


def _wants_grad(t):
    return grad_mode._enabled[0] and (t._requires_grad or t._grad_fn is not None)


def _tdiv(a, b):
    """C++ integer division (truncates toward zero), as im2col's output size is computed."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _check_lengths(pairs):
    for name, v in pairs:
        if len(v) != 2:
            raise RuntimeError("It is expected {} equals to 2, but got size {}".format(name, len(v)))


def _check_window(k, d, p, s, stride_first):
    """The kernel/dilation/padding/stride checks of im2col_shape_check (stride last) and col2im_shape_check
    (stride second)."""
    checks = [("kernel size should be greater than zero, but got kernel_height: {} kernel_width: {}", k, 1),
              ("dilation should be greater than zero, but got dilation_height: {} dilation_width: {}", d, 1),
              ("padding should be non-negative, but got pad_height: {} pad_width: {}", p, 0),
              ("stride should be greater than zero, but got stride_height: {} stride_width: {}", s, 1)]
    if stride_first:
        checks.insert(1, checks.pop())
    for msg, v, low in checks:
        if v[0] < low or v[1] < low:
            raise RuntimeError(msg.format(*v))


def _im2col(x, k, d, p, s):
    if x.dim() not in (3, 4) or any(n == 0 for n in x.shape[-3:]):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           "dimensions for input, but got: " + _sizes(x))
    h, w = x.shape[-2], x.shape[-1]
    oh = _tdiv(h + 2 * p[0] - (d[0] * (k[0] - 1) + 1), s[0]) + 1
    ow = _tdiv(w + 2 * p[1] - (d[1] * (k[1] - 1) + 1), s[1]) + 1
    if oh < 1 or ow < 1:
        # ATen prints the input height twice (its message's own slip)
        raise RuntimeError("Given input with spatial size ({}, {}), kernel_size=({}, {}), dilation=({}, {}), "
                           "padding=({}, {}), calculated shape of the array of sliding blocks as ({}, {}), but its "
                           "components must be at least one.".format(h, h, *k, *d, *p, oh, ow))
    out = C.wrap(_E.nn_im2col(x.contiguous()._impl, k, d, p, s))
    if _wants_grad(x):
        size = (h, w)
        graph.attach("Im2ColBackward0", [out], [x], lambda grads: [None if grads[0] is None else
                                                                   _col2im(grads[0], size, k, d, p, s)],
                     saved={"dilation": d, "kernel_size": k, "padding": p, "self_sym_argsize_minus_1": w,
                            "self_sym_argsize_minus_2": h, "stride": s})
    return out


def _col2im(cols, size, k, d, p, s):
    if cols.numel() == 0 or cols.dim() not in (2, 3):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           "dimensions for input, but got: " + _sizes(cols))
    planes, length = cols.shape[-2], cols.shape[-1]
    if planes % (k[0] * k[1]) != 0:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           "got input.size(1)={} and kernel_size=({}, {}).".format(planes, *k))
    bh = (size[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    bw = (size[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    head = "Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), stride=({}, {}), " \
        .format(*size, *k, *d, *p, *s)
    if length != bh * bw:
        raise RuntimeError(head + "expected size of input's dimension 2 to match the calculated number of sliding "
                           "blocks {} * {} = {}, but got input.size(2)={}.".format(bh, bw, bh * bw, length))
    if bh < 1 or bw < 1:
        raise RuntimeError(head + "calculated shape of the array of sliding blocks as ({}, {}), which is too small "
                           "(non-positive)".format(bh, bw))
    out = C.wrap(_E.nn_col2im(cols.contiguous()._impl, size, k, d, p, s))
    if _wants_grad(cols):
        graph.attach("Col2ImBackward0", [out], [cols], lambda grads: [None if grads[0] is None else
                                                                      _im2col(grads[0], k, d, p, s)],
                     saved={"dilation": d, "kernel_size": k, "padding": p, "stride": s})
    return out


def _sizes(t):
    return "[" + ", ".join(str(n) for n in t.shape) + "]"


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    k, d, p, s = (tuple(_pair(v)) for v in (kernel_size, dilation, padding, stride))
    _check_lengths([("kernel_size", k), ("dilation", d), ("padding", p), ("stride", s)])
    _check_window(k, d, p, s, stride_first=False)
    return _im2col(input, k, d, p, s)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    size, k, d, p, s = (tuple(_pair(v)) for v in (output_size, kernel_size, dilation, padding, stride))
    _check_lengths([("output_size", size), ("kernel_size", k), ("dilation", d), ("padding", p), ("stride", s)])
    _check_window(k, d, p, s, stride_first=True)
    return _col2im(input, size, k, d, p, s)


def reference_conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups):
    """conv_transpose1d/2d of a batched x from differentiable ops: per group the columns W_g^T @ x_g, folded
    into the output image (col2im); for double backward only."""
    if x.dim() == 3:
        out = reference_conv_transpose(x.unsqueeze(2), weight.unsqueeze(2), bias, (1,) + tuple(stride),
                                       (0,) + tuple(padding), (0,) + tuple(output_padding), (1,) + tuple(dilation),
                                       groups)
        return out.squeeze(2)
    n, cin, h, w = x.shape
    k = tuple(weight.shape[2:])
    size = tuple((i - 1) * s - 2 * p + d * (kk - 1) + 1 + o
                 for i, s, p, d, kk, o in zip((h, w), stride, padding, dilation, k, output_padding))
    cig, cog = cin // groups, weight.shape[1]
    cols = []
    for g in range(groups):
        wg = weight[g * cig:(g + 1) * cig].reshape(cig, cog * k[0] * k[1])  # (cig, cog*K)
        xg = x[:, g * cig:(g + 1) * cig].reshape(n, cig, h * w)
        cols.append(wg.t().matmul(xg))  # (n, cog*K, L)
    col = torch.cat(cols, 1) if groups > 1 else cols[0]
    if any(o >= st for o, st in zip(output_padding, stride)):  # col2im would count more windows than x has
        raise NotImplementedError("DeviceScope: double backward through conv_transpose with output_padding >= "
                                  "stride is not supported")
    out = fold(col, size, k, dilation, padding, stride)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1)
    return out

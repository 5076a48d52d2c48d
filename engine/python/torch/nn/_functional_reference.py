# Convolution, pooling and normalization written with primitive (differentiable) ops. Not the forward
# path: the C++ kernels (engine/python/bindings_nn.cpp, through _functional_conv.py / _functional_norm.py)
# compute forward and backward. These formulas serve create_graph=True only (double backward, e.g. a
# gradient penalty): the kernels' backward is not itself differentiable, so under grad mode a backward
# recomputes the op from its saved inputs with these and differentiates that (reference_grads).
import torch
from ._functional_basic import _constant_pad


def reference_grads(compute, inputs, wanted, grad):
    """Gradients of compute(*inputs) w.r.t. inputs[i] for i in wanted, given the output gradient `grad`,
    as a differentiable graph (create_graph)."""
    # the inputs themselves, not detached copies: the second backward must reach their history (a gradient
    # penalty's gradient for a conv weight flows through the input gradient's dependence on the weight)
    inner = list(inputs)
    with torch.enable_grad():
        out = compute(*inner)
    gs = torch.autograd.grad([out], [inner[i] for i in wanted], [grad], create_graph=True, allow_unused=True)
    res = [None] * len(inputs)
    for i, gi in zip(wanted, gs):
        res[i] = gi
    return res


def patches2d(x, kh, kw, sh, sw, dh, dw):
    """Sliding windows as kh*kw strided slices stacked last: (N, C, Ho, Wo, kh*kw)."""
    h, w = x.shape[2], x.shape[3]
    ho = (h - (dh * (kh - 1) + 1)) // sh + 1
    wo = (w - (dw * (kw - 1) + 1)) // sw + 1
    cols = []
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dh, j * dw
            cols.append(x[:, :, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw])
    return torch.stack(cols, -1), ho, wo


def conv(input, weight, bias, stride, padding, dilation, groups):
    """conv1d (3-D input) or conv2d (4-D input)."""
    if input.dim() == 3:
        return conv(input.unsqueeze(2), weight.unsqueeze(2), bias, (1,) + tuple(stride), (0,) + tuple(padding),
                    (1,) + tuple(dilation), groups).squeeze(2)
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    o, cg, kh, kw = weight.shape
    n = input.shape[0]
    x = _constant_pad(input, (pw, pw, ph, ph), 0.0) if (ph or pw) else input
    patches, ho, wo = patches2d(x, kh, kw, sh, sw, dh, dw)
    og = o // groups
    outs = []
    for g in range(groups):
        p = patches[:, g * cg:(g + 1) * cg] if groups > 1 else patches
        p = p.permute(0, 2, 3, 1, 4).reshape(n, ho, wo, cg * kh * kw)
        w = (weight[g * og:(g + 1) * og] if groups > 1 else weight).reshape(og, cg * kh * kw)
        outs.append(p.matmul(w.t()))
    out = torch.cat(outs, -1) if groups > 1 else outs[0]
    if bias is not None:
        out = out + bias
    return out.permute(0, 3, 1, 2).contiguous()


def batch_norm(input, weight, bias, mean, invstd):
    """(x - mean) * invstd * weight + bias over the channel dim, statistics given (detached)."""
    shape = [1, input.shape[1]] + [1] * (input.dim() - 2)
    out = (input - mean.reshape(shape)) * invstd.reshape(shape)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


def batch_norm_train(input, weight, bias, eps):
    """Training-mode batch norm with the batch statistics differentiated too."""
    dims = tuple([0] + list(range(2, input.dim())))
    mean = input.mean(dims, keepdim=True)
    var = ((input - mean) * (input - mean)).mean(dims, keepdim=True)
    out = (input - mean) / torch.sqrt(var + eps)
    shape = [1, input.shape[1]] + [1] * (input.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


def layer_norm(input, n, weight, bias, eps):
    dims = tuple(range(input.dim() - n, input.dim()))
    mean = input.mean(dims, keepdim=True)
    centered = input - mean
    var = (centered * centered).mean(dims, keepdim=True)
    out = centered / torch.sqrt(var + eps)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


def group_norm(input, num_groups, weight, bias, eps):
    n, c = input.shape[0], input.shape[1]
    x = input.reshape(n, num_groups, -1)
    mean = x.mean(2, keepdim=True)
    var = ((x - mean) * (x - mean)).mean(2, keepdim=True)
    out = ((x - mean) / torch.sqrt(var + eps)).reshape(input.shape)
    shape = [1, c] + [1] * (input.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


def max_pool_from_indices(input, indices, out_shape):
    """max pooling as a gather of the saved indices (differentiable in the input)."""
    planes = input.reshape(input.shape[0] * input.shape[1] if input.dim() == 4 else input.shape[0], -1)
    idx = indices.reshape(planes.shape[0], -1)
    return torch.gather(planes, 1, idx).reshape(out_shape)


def avg_pool(input, kernel, stride, padding, divisor):
    """avg_pool2d without ceil_mode, counting padding (the default), or with a divisor_override."""
    (kh, kw), (sh, sw), (ph, pw) = kernel, stride, padding
    x = input if input.dim() == 4 else input.unsqueeze(0)
    if ph or pw:
        x = _constant_pad(x, (pw, pw, ph, ph), 0.0)
    out = patches2d(x, kh, kw, sh, sw, 1, 1)[0].sum(-1) / float(divisor or kh * kw)
    return out if input.dim() == 4 else out.squeeze(0)


def adaptive_avg(input, oh, ow):
    h, w = input.shape[-2], input.shape[-1]
    rows = []
    for i in range(oh):
        h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
        cols = []
        for j in range(ow):
            w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
            cols.append(input[..., h0:h1, w0:w1].mean((-2, -1)))
        rows.append(torch.stack(cols, -1))
    return torch.stack(rows, -2)

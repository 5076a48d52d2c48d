# torch.nn.functional built from the core's primitive ops (so autograd comes for free), with
# PyTorch's argument checks and error texts. Losses live in _functional_loss.py (re-exported here).
import math
import warnings

import torch
from ._checks import check_conv_types, check_same_device
from ._composite import named
from ._functional_loss import (  # noqa: F401
    _Reduction, binary_cross_entropy, binary_cross_entropy_with_logits, cross_entropy, l1_loss,
    mse_loss, nll_loss, smooth_l1_loss, huber_loss, kl_div)
from .modules.utils import _pair
from ._functional_basic import _constant_pad, dropout, linear, pad  # noqa: F401
from ._functional_dropout import (  # noqa: F401
    alpha_dropout, dropout1d, dropout2d, dropout3d, feature_alpha_dropout)
from ._functional_attention import (  # noqa: F401
    _canonical_mask, _none_or_dtype, multi_head_attention_forward, scaled_dot_product_attention)


# ----------------------------------------------------------------------------- linear
def bilinear(input1, input2, weight, bias=None):
    # y_k = x1^T W_k x2 + b_k
    out = torch.einsum("bi,kij,bj->bk", input1, weight, input2) if hasattr(torch, "einsum") else None
    if out is None:
        raise NotImplementedError("DeviceScope: bilinear needs torch.einsum")
    return out + bias if bias is not None else out


# ----------------------------------------------------------------------------- activations
def relu(input, inplace=False):
    if inplace:
        return torch.relu_(input) if hasattr(torch, "relu_") else input.copy_(torch.relu(input))
    return torch.relu(input)


def relu_(input):
    return relu(input, inplace=True)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def _elementwise(name, compute, input, inplace, saved=None):
    """An activation kernel: its node saves its input ("self") and its scalar arguments (`saved`)."""
    if inplace:
        return input.copy_(compute(input))
    return named(name, compute, (input,), saved={**(saved or {}), "self": input})


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _elementwise("HardtanhBackward0", lambda x: torch.clamp(x, min_val, max_val), input, inplace,
                        {"max_val": max_val, "min_val": min_val})


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _elementwise("LeakyReluBackward0", lambda x: torch.where(x > 0, x, x * negative_slope), input, inplace,
                        {"negative_slope": negative_slope})


def elu(input, alpha=1.0, inplace=False):
    return _elementwise("EluBackward0", lambda x: torch.where(x > 0, x, (torch.exp(x) - 1) * alpha), input, inplace,
                        {"alpha": alpha, "input_scale": 1, "scale": 1})


def _gelu(x, approximate):
    if approximate == "tanh" or not hasattr(torch, "erf"):
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + torch.tanh(inner))
    return 0.5 * x * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))


def gelu(input, approximate="none"):
    return named("GeluBackward0", lambda x: _gelu(x, approximate), (input,),
                 saved={"approximate": approximate, "self": input})


def silu(input, inplace=False):
    return _elementwise("SiluBackward0", lambda x: x * torch.sigmoid(x), input, inplace)


def sigmoid(input):
    warnings.warn("nn.functional.sigmoid is deprecated. Use torch.sigmoid instead.")
    return torch.sigmoid(input)


def tanh(input):
    warnings.warn("nn.functional.tanh is deprecated. Use torch.tanh instead.")
    return torch.tanh(input)


def _softplus(x, beta, threshold):
    scaled = x * beta
    soft = torch.log(1 + torch.exp(-scaled.abs())) / beta + torch.clamp(x, min=0)
    return torch.where(scaled > threshold, x, soft)


def softplus(input, beta=1, threshold=20):  # ATen's defaults are the integers 1 and 20 (saved as such)
    return named("SoftplusBackward0", lambda x: _softplus(x, beta, threshold), (input,),
                 saved={"beta": beta, "self": input, "threshold": threshold})


def logsigmoid(input):
    # log_sigmoid_forward also returns a `buffer`, saved with the input: empty on CUDA, input-sized on CPU
    def saved(result):
        with torch.no_grad():
            buf = torch.empty((0,) if input.is_cuda else tuple(input.shape), dtype=input.dtype, device=input.device)
        return {"buffer": buf, "self": input}
    return named("LogSigmoidBackward0", lambda x: -_softplus(-x, 1.0, 20.0), (input,), saved=saved)


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn("Implicit dimension choice for {} has been deprecated. "
                  "Change the call to include dim=X as an argument.".format(name), stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return torch.softmax(input, dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return torch.log_softmax(input, dim)


# ----------------------------------------------------------------------------- dropout


# ----------------------------------------------------------------------------- normalisation
def _verify_batch_size(size):
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size {}".format(size))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    if training:
        _verify_batch_size(input.size())
    check_same_device("_native_batch_norm_legit", [
        ("input", input), ("weight", weight), ("bias", bias),
        ("running_mean", running_mean), ("running_var", running_var)])
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean must be defined in evaluation mode"
                           if running_mean is None else "running_var must be defined in evaluation mode")
    # Backward recomputes the normalisation; in training it must not update the running statistics again.
    return named("NativeBatchNormBackward0",
                 lambda x, w, b: _batch_norm(x, running_mean, running_var, w, b, training, momentum, eps),
                 (input, weight, bias),
                 recompute=(lambda x, w, b: _batch_norm(x, None, None, w, b, True, momentum, eps)) if training
                 else None)


def _write_in_place(t, values):
    """t[...] = values in t's own memory, as a kernel's in-place store (no copy_ recorded)."""
    from .._ops import _core
    _core.write(t, _core.read(values))


def _batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps):
    c = input.shape[1]
    dims = tuple([0] + list(range(2, input.dim())))
    shape = [1, c] + [1] * (input.dim() - 2)
    if training:
        mean = input.mean(dims, keepdim=True)
        var = ((input - mean) * (input - mean)).mean(dims, keepdim=True)
        if training and running_mean is not None and running_var is not None:
            n = input.numel() / c
            with torch.no_grad():
                # Running stats use the unbiased variance (as ATen does); updated in place.
                m = mean.detach().reshape(c)
                v = var.detach().reshape(c) * (n / max(n - 1, 1))
                # Written in place without a copy_: ATen updates them inside the kernel (no D2D memcpy
                # in the Transfers view), but the version counter moves as it does in PyTorch.
                _write_in_place(running_mean, running_mean * (1.0 - momentum) + m * momentum)
                _write_in_place(running_var, running_var * (1.0 - momentum) + v * momentum)
    else:
        mean = running_mean.reshape(shape)
        var = running_var.reshape(shape)
    out = (input - mean) / torch.sqrt(var + eps)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    n = len(normalized_shape)
    if input.dim() < n or tuple(input.shape[input.dim() - n:]) != normalized_shape:
        raise RuntimeError("Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}"
                           .format(list(normalized_shape), ", ".join(str(s) for s in normalized_shape),
                                   list(input.shape)))
    check_same_device("_native_layer_norm", [("input", input), ("weight", weight), ("bias", bias)])

    def saved(result):
        # native_layer_norm returns (out, mean, rstd) and its node keeps all but out
        with torch.no_grad():
            dims = tuple(range(input.dim() - n, input.dim()))
            mean = input.mean(dims, keepdim=True)
            rstd = 1.0 / torch.sqrt(((input - mean) * (input - mean)).mean(dims, keepdim=True) + eps)
        return {"bias": bias, "input": input, "normalized_shape": normalized_shape, "result1": mean,
                "result2": rstd, "weight": weight}
    return named("NativeLayerNormBackward0", lambda x, w, b: _layer_norm(x, n, w, b, eps), (input, weight, bias),
                 saved=saved)


def _layer_norm(input, n, weight, bias, eps):
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


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    n, c = input.shape[0], input.shape[1]
    if c % num_groups != 0:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, "
                           "but got input of shape {} and num_groups={}".format(list(input.shape), num_groups))
    def saved(result):
        # native_group_norm returns (out, mean, rstd), each statistic of shape (N, groups); bias is not saved
        with torch.no_grad():
            x = input.reshape(n, num_groups, -1)
            mean = x.mean(2)
            rstd = 1.0 / torch.sqrt(((x - mean.unsqueeze(2)) * (x - mean.unsqueeze(2))).mean(2) + eps)
        hxw = input.numel() // max(n * c, 1)
        return {"C": c, "HxW": hxw, "N": n, "eps": eps, "group": num_groups, "input": input, "result1": mean,
                "result2": rstd, "weight": weight}
    return named("NativeGroupNormBackward0", lambda x, w, b: _group_norm(x, num_groups, w, b, eps),
                 (input, weight, bias), saved=saved)


def _group_norm(input, num_groups, weight, bias, eps):
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


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    norm = (input.abs() ** p).sum(dim, keepdim=True) ** (1.0 / p)
    return input / torch.clamp(norm, min=eps)


# ----------------------------------------------------------------------------- embedding
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if input.dtype not in (torch.int64, torch.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                           "types: Long, Int; but got {} instead (while checking arguments for embedding)"
                           .format(input.type()))
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
    check_same_device("_index_select", [("self", weight), ("index", input)])
    shape = list(input.shape) + [weight.shape[1]]
    flat_idx = input.reshape(-1)
    # PyTorch's node keeps the indices and the weight's row count (this one also holds the weight, a
    # parameter, which costs no memory)
    return named("EmbeddingBackward0", lambda w: torch.index_select(w, 0, flat_idx).reshape(shape), (weight,),
                 saved={"indices": input, "padding_idx": -1 if padding_idx is None else padding_idx,
                        "scale_grad_by_freq": scale_grad_by_freq, "sparse": sparse,
                        "weight_sym_argsize_0": weight.shape[0]})


def one_hot(tensor, num_classes=-1):
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor.")
    if num_classes == -1:
        num_classes = int(tensor.max().item()) + 1
    classes = torch.arange(num_classes, device=tensor.device)
    return (tensor.unsqueeze(-1) == classes).to(torch.int64)


# ----------------------------------------------------------------------------- padding, conv, pooling
def _patches2d(x, kh, kw, sh, sw, dh, dw):
    """Sliding windows as kh*kw strided slices stacked last: (N, C, Ho, Wo, kh*kw)."""
    h, w = x.shape[2], x.shape[3]
    ho = (h - (dh * (kh - 1) + 1)) // sh + 1
    wo = (w - (dw * (kw - 1) + 1)) // sw + 1
    if ho <= 0 or wo <= 0:
        raise RuntimeError("Calculated output size: ({}x{}). Output size is too small".format(ho, wo))
    cols = []
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dh, j * dw
            cols.append(x[:, :, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw])
    return torch.stack(cols, -1), ho, wo


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    check_conv_types(input, weight, bias)
    batched = input.dim() == 4
    if input.dim() == 3:
        input = input.unsqueeze(0)
    elif input.dim() != 4:
        raise RuntimeError("Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: {}"
                           .format(list(input.shape)))
    sh, sw = _pair(stride)
    dh, dw = _pair(dilation)
    o, cg, kh, kw = weight.shape
    n, c = input.shape[0], input.shape[1]
    if c != cg * groups:
        raise RuntimeError("Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} "
                           "channels instead".format(groups, list(weight.shape), list(input.shape), cg * groups, c))
    if isinstance(padding, str):
        if padding == "valid":
            ph = pw = 0
        elif padding == "same":
            ph, pw = dh * (kh - 1) // 2, dw * (kw - 1) // 2
        else:
            raise ValueError("Invalid padding string '{}'".format(padding))
    else:
        ph, pw = _pair(padding)
    out = named("ConvolutionBackward0",
                lambda x, w, b: _conv2d(x, w, b, sh, sw, ph, pw, dh, dw, groups), (input, weight, bias),
                saved=_conv_saved(input, weight, bias, (sh, sw), (ph, pw), (dh, dw), groups))
    return out if batched else out.squeeze(0)


def _conv_saved(input, weight, bias, stride, padding, dilation, groups):
    # convolution keeps input and weight; of the bias only its sizes (the bias, a parameter, is held here
    # anyway, at no memory cost)
    return {"bias_sym_sizes_opt": None if bias is None else tuple(bias.shape), "dilation": dilation,
            "groups": groups, "input": input, "output_padding": (0,) * len(stride), "padding": padding,
            "stride": stride, "transposed": False, "weight": weight}


def _conv2d(input, weight, bias, sh, sw, ph, pw, dh, dw, groups):
    o, cg, kh, kw = weight.shape
    n = input.shape[0]
    x = _constant_pad(input, (pw, pw, ph, ph), 0.0) if (ph or pw) else input
    patches, ho, wo = _patches2d(x, kh, kw, sh, sw, dh, dw)        # N, C, Ho, Wo, K
    og = o // groups
    outs = []
    for g in range(groups):
        p = patches[:, g * cg:(g + 1) * cg] if groups > 1 else patches
        p = p.permute(0, 2, 3, 1, 4).reshape(n, ho, wo, cg * kh * kw)
        w = (weight[g * og:(g + 1) * og] if groups > 1 else weight).reshape(og, cg * kh * kw)
        outs.append(p.matmul(w.t()))                               # N, Ho, Wo, og
    out = torch.cat(outs, -1) if groups > 1 else outs[0]
    if bias is not None:
        out = out + bias
    return out.permute(0, 3, 1, 2).contiguous()


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """A 1-D convolution is a 2-D one over a height-1 image (the same windows, the same weights)."""
    check_conv_types(input, weight, bias)
    batched = input.dim() == 3
    if input.dim() not in (2, 3):
        raise RuntimeError("Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: {}"
                           .format(list(input.shape)))
    x = (input if batched else input.unsqueeze(0)).unsqueeze(2)
    s = stride[0] if isinstance(stride, (tuple, list)) else stride
    d = dilation[0] if isinstance(dilation, (tuple, list)) else dilation
    if isinstance(padding, str):
        pad_arg = padding
    else:
        pad_arg = (0, padding[0] if isinstance(padding, (tuple, list)) else padding)
    out = named("ConvolutionBackward0",
                lambda xx, w, b: conv2d(xx, w.unsqueeze(2), b, (1, s), pad_arg, (1, d), groups).squeeze(2),
                (x, weight, bias),
                saved=_conv_saved(x, weight, bias, (s,), (pad_arg[1],) if not isinstance(pad_arg, str) else (0,),
                                  (d,), groups))
    return out if batched else out.squeeze(0)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    if return_indices:
        raise NotImplementedError("DeviceScope: max_pool2d(return_indices=True) is not supported")
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(stride if stride is not None and stride != [] else kernel_size)
    ph, pw = _pair(padding)
    dh, dw = _pair(dilation)
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)

    def compute(x):
        if ph or pw:
            x = _constant_pad(x, (pw, pw, ph, ph), float("-inf"))
        return _patches2d(x, kh, kw, sh, sw, dh, dw)[0].amax(-1)

    def saved(result):
        # max_pool2d_with_indices: the node keeps the input and the int64 indices (output-sized)
        with torch.no_grad():
            xp = _constant_pad(x, (pw, pw, ph, ph), float("-inf")) if (ph or pw) else x
            indices = _patches2d(xp, kh, kw, sh, sw, dh, dw)[0].argmax(-1)
        return {"ceil_mode": ceil_mode, "dilation": (dh, dw), "kernel_size": (kh, kw), "padding": (ph, pw),
                "result1": indices, "self": x, "stride": (sh, sw)}
    out = named("MaxPool2DWithIndicesBackward0", compute, (x,), saved=saved)
    return out if batched else out.squeeze(0)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(stride if stride is not None and stride != [] else kernel_size)
    ph, pw = _pair(padding)
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)

    def compute(x):
        if ph or pw:
            x = _constant_pad(x, (pw, pw, ph, ph), 0.0)
        return _patches2d(x, kh, kw, sh, sw, 1, 1)[0].sum(-1) / float(divisor_override or kh * kw)

    out = named("AvgPool2DBackward0", compute, (x,),
                saved={"ceil_mode": ceil_mode, "count_include_pad": count_include_pad,
                       "divisor_override": divisor_override, "kernel_size": (kh, kw), "padding": (ph, pw),
                       "self": x, "stride": (sh, sw)})
    return out if batched else out.squeeze(0)


def adaptive_avg_pool2d(input, output_size):
    oh, ow = _pair(output_size)
    h, w = input.shape[-2], input.shape[-1]
    oh = h if oh is None else oh
    ow = w if ow is None else ow
    if oh == 1 and ow == 1:
        return input.mean((-2, -1), keepdim=True)
    return named("AdaptiveAvgPool2DBackward0", lambda x: _adaptive_avg(x, oh, ow, h, w), (input,),
                 saved={"self": input})


def _adaptive_avg(input, oh, ow, h, w):
    rows = []
    for i in range(oh):
        h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
        cols = []
        for j in range(ow):
            w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
            cols.append(input[..., h0:h1, w0:w1].mean((-2, -1)))
        rows.append(torch.stack(cols, -1))
    return torch.stack(rows, -2)


def flatten(input, start_dim=0, end_dim=-1):
    return torch.flatten(input, start_dim, end_dim)

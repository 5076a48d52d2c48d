# torch.nn.functional built from the core's primitive ops (so autograd comes for free), with
# PyTorch's argument checks and error texts. Losses live in _functional_loss.py, convolution and pooling in
# _functional_conv.py, normalization in _functional_norm.py (C++ kernels with explicit backward nodes; all
# re-exported here).
import math
import warnings

import torch
from ._checks import check_same_device
from ._composite import named
from ._functional_loss import (  # noqa: F401
    _Reduction, binary_cross_entropy, binary_cross_entropy_with_logits, cross_entropy, l1_loss,
    mse_loss, nll_loss, smooth_l1_loss, huber_loss, kl_div)
from ._functional_basic import _constant_pad, dropout, linear  # noqa: F401
from ._functional_activation import (  # noqa: F401
    _elu_result_grad, celu, celu_, glu, inplace_kernel, hardshrink, hardsigmoid, hardswish, mish, prelu, rrelu,
    rrelu_, selu, selu_, softmin, softshrink, softsign, tanhshrink, threshold, threshold_)
from ._functional_distance import cosine_similarity, pairwise_distance, pdist  # noqa: F401
from ._functional_loss_more import (  # noqa: F401
    cosine_embedding_loss, hinge_embedding_loss, margin_ranking_loss, soft_margin_loss, triplet_margin_loss)
from ._functional_resample import (  # noqa: F401
    channel_shuffle, interpolate, pad, pixel_shuffle, pixel_unshuffle, upsample, upsample_bilinear, upsample_nearest)
from ._functional_dropout import (  # noqa: F401
    alpha_dropout, dropout1d, dropout2d, dropout3d, feature_alpha_dropout)
from ._functional_attention import (  # noqa: F401
    _canonical_mask, _none_or_dtype, multi_head_attention_forward, scaled_dot_product_attention)
from ._functional_conv import (  # noqa: F401
    adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d, adaptive_max_pool2d, avg_pool1d, avg_pool2d,
    conv1d, conv2d, max_pool1d, max_pool2d)
from ._functional_norm import batch_norm, group_norm, layer_norm  # noqa: F401
from ._functional_conv_nd import conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d  # noqa: F401
from ._functional_unfold import fold, unfold  # noqa: F401
from ._functional_instance_norm import instance_norm  # noqa: F401
from ._functional_embedding_bag import _no_grad_embedding_renorm_, embedding_bag  # noqa: F401
from ._functional_embedding import embedding  # noqa: F401
from ._functional_loss_nll import gaussian_nll_loss, poisson_nll_loss  # noqa: F401
from ._functional_pool3d import avg_pool3d, max_pool3d  # noqa: F401
from ._functional_ctc import ctc_loss  # noqa: F401
from ._functional_more import (  # noqa: F401
    adaptive_max_pool1d_with_indices, adaptive_max_pool2d_with_indices, gumbel_softmax, local_response_norm,
    lp_pool1d, lp_pool2d, max_pool1d_with_indices, max_pool2d_with_indices, max_pool3d_with_indices,
    multilabel_soft_margin_loss, triplet_margin_with_distance_loss)


# ----------------------------------------------------------------------------- linear
def bilinear(input1, input2, weight, bias=None):
    # y_k = x1^T W_k x2 + b_k over any leading dims (*, in1) x (*, in2) -> (*, out)
    lead = tuple(input1.shape[:-1])
    a = input1.reshape(-1, input1.shape[-1]) if len(lead) != 1 else input1
    b = input2.reshape(-1, input2.shape[-1]) if len(lead) != 1 else input2
    out = torch.einsum("bi,kij,bj->bk", a, weight, b)
    if len(lead) != 1:
        out = out.reshape(lead + (weight.shape[0],))
    return out + bias if bias is not None else out


# ----------------------------------------------------------------------------- activations
def relu(input, inplace=False):
    if inplace:
        return torch.relu_(input) if hasattr(torch, "relu_") else input.copy_(torch.relu(input))
    return torch.relu(input)


def relu_(input):
    return relu(input, inplace=True)


def relu6(input, inplace=False):
    # at::relu6 is hardtanh(self, 0, 6): integer Scalars, saved as such (nn.ReLU6 passes 0.0 and 6.0)
    return hardtanh(input, 0, 6, inplace)


def _elementwise(name, compute, input, inplace, saved=None, inplace_name=None, result_grad=None):
    """An activation kernel: its node saves its input ("self") and its scalar arguments (`saved`). In place:
    _functional_activation.inplace_kernel (the Backward1 node saving the result when `result_grad` is given)."""
    if inplace:
        return inplace_kernel(inplace_name or name, compute, input, saved or {}, result_grad)
    return named(name, compute, (input,), saved={**(saved or {}), "self": input})


def _hardtanh(x, min_val, max_val):
    # hardtanh_backward: 0 where x <= min_val or x >= max_val, grad elsewhere (nan included): the bounds are
    # constant branches (a clamp's gradient would be 1 on its closed interval)
    lo = torch.full((), min_val, dtype=x.dtype, device=x.device)
    hi = torch.full((), max_val, dtype=x.dtype, device=x.device)
    return torch.where(x >= max_val, hi, torch.where(x <= min_val, lo, x))


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _elementwise("HardtanhBackward0", lambda x: _hardtanh(x, min_val, max_val), input, inplace,
                        {"max_val": max_val, "min_val": min_val})


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _elementwise("LeakyReluBackward0", lambda x: torch.where(x > 0, x, x * negative_slope), input, inplace,
                        {"negative_slope": negative_slope}, "LeakyReluBackward1",
                        lambda g, r: torch.where(r > 0, g, g * negative_slope))


def elu(input, alpha=1.0, inplace=False):
    return _elementwise("EluBackward0", lambda x: torch.where(x > 0, x, (torch.exp(x) - 1) * alpha), input, inplace,
                        {"alpha": alpha, "input_scale": 1, "scale": 1}, "EluBackward1",
                        _elu_result_grad(alpha, 1, 1))


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


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
    # ATen: x when x * beta > threshold, else log1p(exp(x * beta)) / beta. The clamp keeps the unused branch
    # finite (its zero gradient stays 0, not 0 * inf); autograd of this gives softplus_backward's
    # grad * sigmoid(x * beta), 1/2 at 0 (an abs/clamp form would give 1 there)
    scaled = x * beta
    soft = torch.log1p(torch.exp(torch.clamp(scaled, max=threshold))) / beta
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
def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    # torch/nn/functional.py's own body: one norm, clamp_min, an expanded view (the graph and the allocations
    # PyTorch makes: NormBackward1 -> ClampMinBackward0 -> ExpandBackward0 -> DivBackward0)
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return torch.div(input, denom, out=out)


# ----------------------------------------------------------------------------- embedding
def one_hot(tensor, num_classes=-1):
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor.")
    if num_classes == -1:
        num_classes = int(tensor.max().item()) + 1
    classes = torch.arange(num_classes, device=tensor.device)
    return (tensor.unsqueeze(-1) == classes).to(torch.int64)


def flatten(input, start_dim=0, end_dim=-1):
    return torch.flatten(input, start_dim, end_dim)

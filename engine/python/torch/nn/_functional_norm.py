# torch.nn.functional's batch_norm, layer_norm and group_norm over the C++ kernels
# (engine/python/bindings_nn.cpp): checks and messages here; values, the kernels' statistics (layer_norm's
# mean/rstd, batch_norm's save_mean/save_invstd, group_norm's mean/rstd) and exactly ATen's CUDA allocations
# there. Each op gets PyTorch's node (NativeLayerNormBackward0, NativeBatchNormBackward0 or, on CUDA where
# cuDNN takes the op, CudnnBatchNormBackward0, NativeGroupNormBackward0) saving what derivatives.yaml saves.
# Re-exported by functional.py.
import _devicescope_C as _E

import torch
from .._ops import _core as C
from ..autograd import graph, grad_mode
from ._checks import check_same_device
from . import _functional_reference as ref


def _impl(t):
    return None if t is None else t._impl


def _wants_grad(*tensors):
    return grad_mode._enabled[0] and any(t is not None and (t._requires_grad or t._grad_fn is not None)
                                         for t in tensors)


def _wrap_all(impls):
    return [None if t is None else C.wrap(t) for t in impls]


def _mask(*tensors):
    return [t is not None and t.requires_grad for t in tensors]


def _attach_norm(name, y, inputs, reference, kernel_backward, saved):
    """The node of one norm kernel (the three share it): `kernel_backward(g, mask)` -> the C++ backward's
    gradients; under create_graph (grad mode on in backward) the differentiable `reference(*inputs)` gives
    them instead, so that double backward works. `inputs` are (input, weight, bias)."""
    mask = _mask(*inputs)

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None] * len(inputs)
        if grad_mode._enabled[0]:
            return ref.reference_grads(reference, list(inputs), [i for i in range(len(inputs)) if mask[i]], g)
        return _wrap_all(kernel_backward(g.contiguous()._impl, mask))

    graph.attach(name, [y], list(inputs), backward, saved=saved)
    return y


# ----------------------------------------------------------------------------- batch norm
def _verify_batch_size(size):
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size {}".format(size))


def _uses_cudnn(input, weight, bias, running_mean, running_var, training):
    """ATen's _select_batch_norm_backend choosing cuDNN (its input-size and dtype conditions)."""
    if not input.is_cuda or weight is None or bias is None or input.dim() < 3:
        return False
    if input.dtype == torch.bfloat16 or weight.dtype == torch.bfloat16:
        return False
    if input.dtype == torch.float16 and weight.dtype != torch.float32:
        return False
    if (running_mean is None) != (running_var is None) or (running_mean is None and not training):
        return False
    return input.shape[0] <= (880801 if training else 65535) and input.numel() < 2 ** 31 - 1


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    if training:
        _verify_batch_size(input.size())
    check_same_device("_native_batch_norm_legit", [
        ("input", input), ("weight", weight), ("bias", bias),
        ("running_mean", running_mean), ("running_var", running_var)])
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean must be defined in evaluation mode"
                           if running_mean is None else "running_var must be defined in evaluation mode")
    c = input.shape[1] if input.dim() > 1 else 1
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean), ("running_var", running_var)):
        if t is not None and t.numel() != c:
            raise RuntimeError("{} should contain {} elements not {}".format(name, c, t.numel()))
    cudnn = _uses_cudnn(input, weight, bias, running_mean, running_var, training)
    stats = "cudnn" if cudnn else "native" if input.is_cuda else "cpu"
    x = input.contiguous()
    y, save_mean, save_invstd = _wrap_all(_E.nn_batch_norm(
        x._impl, _impl(weight), _impl(bias), _impl(running_mean), _impl(running_var), bool(training),
        float(momentum if momentum is not None else 0.0), float(eps), stats))
    if not _wants_grad(input, weight, bias):
        return y

    def reference(a, w, b):
        if training:
            return ref.batch_norm_train(a, w, b, eps)
        return ref.batch_norm(a, w, b, running_mean.detach(), 1.0 / torch.sqrt(running_var.detach() + eps))

    def kernel_backward(g, mask):
        return _E.nn_batch_norm_backward(g, input.contiguous()._impl, _impl(weight), _impl(running_mean),
                                         _impl(running_var), _impl(save_mean), _impl(save_invstd), bool(training),
                                         float(eps), mask)

    if cudnn:
        saved = {"epsilon": eps, "input": input, "result1": save_mean, "result2": save_invstd,
                 "running_mean": running_mean, "running_var": running_var, "training": training, "weight": weight}
        name = "CudnnBatchNormBackward0"
    else:
        saved = {"eps": eps, "input": input, "result1": save_mean, "result2": save_invstd,
                 "running_mean": running_mean, "running_var": running_var, "training": training, "weight": weight}
        name = "NativeBatchNormBackward0"
    return _attach_norm(name, y, (input, weight, bias), reference, kernel_backward, saved)


# ----------------------------------------------------------------------------- layer norm
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    n = len(normalized_shape)
    if n == 0:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    # (sizes read from the impls as tuples: no Size objects on this per-layer, per-step path)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t._impl.sizes) != normalized_shape:
            raise RuntimeError("Expected {} to be of same shape as normalized_shape, but got {} of shape {} and "
                               "normalized_shape = {}".format(name, name, list(t.shape), list(normalized_shape)))
    sizes = tuple(input._impl.sizes)
    if len(sizes) < n or sizes[len(sizes) - n:] != normalized_shape:
        raise RuntimeError("Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}"
                           .format(list(normalized_shape), ", ".join(str(s) for s in normalized_shape),
                                   list(input.shape)))
    check_same_device("_native_layer_norm", [("input", input), ("weight", weight), ("bias", bias)])
    axis = len(sizes) - n
    m_rows, n_cols = 1, 1
    for s in sizes[:axis]:
        m_rows *= s
    for s in normalized_shape:
        n_cols *= s
    x = input.contiguous()
    y, mean, rstd = _wrap_all(_E.nn_layer_norm(x._impl, m_rows, n_cols, _impl(weight), _impl(bias), float(eps)))
    # layer_norm_cuda returns the statistics viewed as input.shape[:axis] + (1,) * n
    stat_shape = sizes[:axis] + (1,) * n
    mean, rstd = mean.view(stat_shape), rstd.view(stat_shape)
    if not _wants_grad(input, weight, bias):
        return y
    return _attach_norm(
        "NativeLayerNormBackward0", y, (input, weight, bias), lambda a, w, b: ref.layer_norm(a, n, w, b, eps),
        lambda g, mask: _E.nn_layer_norm_backward(g, input.contiguous()._impl, mean._impl, rstd._impl, _impl(weight),
                                                  _impl(bias), m_rows, n_cols, mask),
        {"bias": bias, "input": input, "normalized_shape": normalized_shape, "result1": mean, "result2": rstd,
         "weight": weight})


# ----------------------------------------------------------------------------- group norm
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received {}".format(input.dim()))
    n, c = input.shape[0], input.shape[1]
    if c % num_groups != 0:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, "
                           "but got input of shape {} and num_groups={}".format(list(input.shape), num_groups))
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError("Expected {} to be a vector of size equal to the number of channels in input, but got "
                               "{} of shape {} and input of shape {}".format(name, name, list(t.shape),
                                                                           list(input.shape)))
    check_same_device("native_group_norm", [("input", input), ("weight", weight), ("bias", bias)])
    hxw = input.numel() // max(n * c, 1)
    x = input.contiguous()
    y, mean, rstd = _wrap_all(_E.nn_group_norm(x._impl, _impl(weight), _impl(bias), n, c, hxw, num_groups,
                                               float(eps)))
    if not _wants_grad(input, weight, bias):
        return y
    # native_group_norm's node keeps input, weight and the statistics (not the bias)
    return _attach_norm(
        "NativeGroupNormBackward0", y, (input, weight, bias), lambda a, w, b: ref.group_norm(a, num_groups, w, b, eps),
        lambda g, mask: _E.nn_group_norm_backward(g, input.contiguous()._impl, mean._impl, rstd._impl, _impl(weight),
                                                  n, c, hxw, num_groups, mask),
        {"C": c, "HxW": hxw, "N": n, "eps": eps, "group": num_groups, "input": input, "result1": mean,
         "result2": rstd, "weight": weight})

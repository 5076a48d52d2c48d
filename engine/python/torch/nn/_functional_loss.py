# Loss functions of torch.nn.functional (cross_entropy, nll_loss, mse_loss, ...), composed from core ops.
import warnings

import _devicescope_C as _E

import torch
from ._checks import check_same_device
from .. import _default
from .._ops import _core as C
from .._ops._core import materialize
from .._scratch import scratch
from ._composite import named
from . import _loss_fast
from . import _loss_mse
from . import _loss_smooth_l1

_SCALAR_NAMES = {}


def _scalar_name(dtype):
    if not _SCALAR_NAMES:
        for name, attr in (("Float", "float32"), ("Double", "float64"), ("Half", "float16"),
                           ("BFloat16", "bfloat16"), ("Long", "int64"), ("Int", "int32"),
                           ("Short", "int16"), ("Char", "int8"), ("Byte", "uint8"), ("Bool", "bool")):
            dt = getattr(torch, attr, None)
            if dt is not None:
                _SCALAR_NAMES[dt] = name
    return _SCALAR_NAMES.get(dtype, str(dtype))


class _Reduction:
    @staticmethod
    def legacy_get_string(size_average, reduce, emit_warning=True):
        warning = "size_average and reduce args will be deprecated, please use reduction='{}' instead."
        if size_average is None:
            size_average = True
        if reduce is None:
            reduce = True
        if size_average and reduce:
            ret = "mean"
        elif reduce:
            ret = "sum"
        else:
            ret = "none"
        if emit_warning:
            warnings.warn(warning.format(ret))
        return ret


def _reduce(loss, reduction):
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError("{} is not a valid value for reduction".format(reduction))


def _input_sized_result(input, reduction, elementwise_temp=False):
    """named()'s allocate hook for a reduced loss that ATen computes into `result = at::empty_like(input)`:
    mean_out / sum_out resize it to 0-dim without shrinking its storage (Loss.cpp), so the scalar loss keeps an
    input-sized block for as long as it lives, and memory_allocated() counts it (seen on real PyTorch 1.13 CPU
    and 2.11 CUDA: a 32x10 float input leaves a 1280-byte loss). mse_loss_out then makes its elementwise loss as a temporary (TensorIterator's output), freed when the
    reduction is done. None (a plain result) for reduction='none'."""
    if reduction == "none":
        return None

    shape = tuple(input.shape)

    def allocate(values, dtype=None, device=None):
        # (dtype, device: the values' when there is no values tensor - _loss_mse's forward)
        if values is not None:
            dtype, device = values.dtype, values.device
        # torch.empty(shape, dtype=dtype, device=device) without its argument parsing (a third of a small loss)
        virtual = _default.virtual_mode()
        result = C.new_empty(shape, dtype, device, False, virtual)
        result._impl.set_data(_E.as_strided(result._impl, (), (), 0))
        temps = [C.new_empty(shape, dtype, device, False, virtual)] if elementwise_temp else []
        return result, temps
    return allocate


_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}  # at::Reduction, as loss nodes save it


def _check_reduction(reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError("{} is not a valid value for reduction".format(reduction))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    _check_reduction(reduction)
    check_same_device("nll_loss_forward", [("self", input), ("target", target), ("weight", weight)])
    if input.dim() < 1:
        raise ValueError("Expected 1 or more dimensions (got {})".format(input.dim()))
    if target.dtype != torch.int64:
        raise RuntimeError("expected scalar type Long but found {}".format(_scalar_name(target.dtype)))
    unbatched = input.dim() == 1
    if unbatched:
        if target.dim() != 0:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        input = input.unsqueeze(0)
        target = target.unsqueeze(0)
    if input.shape[0] != target.shape[0]:
        raise ValueError("Expected input batch_size ({}) to match target batch_size ({}).".format(
            input.shape[0], target.shape[0]))
    if not unbatched:
        fast = _loss_fast.nll_loss(input, target, weight, ignore_index, reduction)
        if fast is not None:
            return fast
    n_classes = input.shape[1]
    if target.device.type == "cpu":
        # The CPU kernel reports a bad class index; CUDA would hit a device-side assert instead.
        for t in target.reshape(-1).tolist():
            if t != ignore_index and (t < 0 or t >= n_classes):
                raise IndexError("Target {} is out of bounds.".format(t))

    def weights(t, wt, dtype):
        # per-sample weight (0 where ignored) and the class index to read (0 where ignored)
        valid = t != ignore_index
        safe = torch.where(valid, t, torch.zeros_like(t))
        validf = valid.to(dtype)
        w = validf if wt is None else torch.index_select(wt, 0, safe.reshape(-1)).reshape(safe.shape) * validf
        return safe, w

    # The weights are derived from target inside compute, so that backward recomputes them from the saved
    # target instead of the node holding them: nll_loss keeps self, target, weight and total_weight only.
    def compute(x, t, wt):
        safe, w = weights(t, wt, x.dtype)
        loss = -x.gather(1, safe.unsqueeze(1)).squeeze(1) * w
        if reduction == "none":
            return loss.squeeze(0) if unbatched else loss
        if reduction == "sum":
            return loss.sum()
        return loss.sum() / w.sum()

    def total_weight(result):
        # nll_loss_forward's second output, a 0-dim tensor the node keeps, allocated after the loss
        with torch.no_grad(), scratch():
            values = weights(target, weight, input.dtype)[1].sum()
        return materialize(values)

    def saved(result, total_weight):
        return {"ignore_index": ignore_index, "reduction": _REDUCTION_ENUM[reduction], "self": input,
                "target": target, "total_weight": total_weight, "weight": weight}

    return named("NllLoss2DBackward0" if input.dim() > 2 else "NllLossBackward0", compute,
                 (input, target, weight), saved=saved, buffers=total_weight)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    _check_reduction(reduction)
    class_dim = 0 if input.dim() == 1 else 1
    logp = torch.log_softmax(input, class_dim)
    if target.dtype.is_floating_point and tuple(target.shape) == tuple(input.shape):
        # Class probabilities as target.
        check_same_device("mul", [("self", logp), ("other", target)])
        if label_smoothing > 0.0:
            target = target * (1.0 - label_smoothing) + label_smoothing / input.shape[class_dim]
        prod = logp * target
        if weight is not None:
            shape = [1] * input.dim()
            shape[class_dim] = input.shape[class_dim]
            prod = prod * weight.reshape(shape)
        loss = -prod.sum(class_dim)
        if reduction == "mean":
            n = input.numel() // input.shape[class_dim]
            # ATen divides by a C++ scalar here: div.Scalar, whose node is DivBackward1 and saves only
            # that number (not the per-sample losses).
            return named("DivBackward1", lambda l: l.sum() / n, (loss,), saved={"other": n}, linear=(0,))
        return _reduce(loss, reduction)
    nll = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing <= 0.0:
        return nll
    n_classes = input.shape[class_dim]
    valid = (target != ignore_index).to(input.dtype)
    lp = logp
    if weight is not None:
        shape = [1] * input.dim()
        shape[class_dim] = n_classes
        lp = lp * weight.reshape(shape)
    smooth = -lp.sum(class_dim) * valid
    if reduction == "none":
        smooth_red = smooth
    elif reduction == "sum":
        smooth_red = smooth.sum()
    else:
        if weight is not None:
            safe = torch.where(target != ignore_index, target, torch.zeros_like(target))
            denom = (torch.index_select(weight, 0, safe.reshape(-1)).reshape(safe.shape) * valid).sum()
        else:
            denom = valid.sum()
        smooth_red = smooth.sum() / denom
    return nll * (1.0 - label_smoothing) + smooth_red * (label_smoothing / n_classes)


def _warn_size(input, target):
    if tuple(target.size()) != tuple(input.size()):
        warnings.warn("Using a target size ({}) that is different to the input size ({}). "
                      "This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.".format(target.size(), input.size()),
                      stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    _check_reduction(reduction)
    if _loss_mse.applies(input, target):  # PyTorch's backward node (the composite is its reference)
        return _loss_mse.mse_loss(input, target, reduction, _REDUCTION_ENUM[reduction],
                                  lambda a, b: _reduce((a - b) * (a - b), reduction),
                                  _input_sized_result(input, reduction, elementwise_temp=True))
    return named("MseLossBackward0", lambda a, b: _reduce((a - b) * (a - b), reduction),
                 (input, target), allocate=_input_sized_result(input, reduction, elementwise_temp=True),
                 saved={"reduction": _REDUCTION_ENUM[reduction], "self": input, "target": target})


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    _check_reduction(reduction)
    return _reduce((input - target).abs(), reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    _check_reduction(reduction)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)

    if _loss_smooth_l1.applies(input, target, beta):
        return _loss_smooth_l1.smooth_l1_loss(input, target, reduction, beta, _input_sized_result(input, reduction),
                                              _reduce)

    def compute(a, b):
        d = (a - b).abs()
        return _reduce(torch.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)

    return named("SmoothL1LossBackward0", compute, (input, target), allocate=_input_sized_result(input, reduction),
                 saved={"beta": beta, "reduction": _REDUCTION_ENUM[reduction], "self": input, "target": target})


def huber_loss(input, target, reduction="mean", delta=1.0):
    _warn_size(input, target)
    _check_reduction(reduction)

    def compute(a, b):
        d = (a - b).abs()
        return _reduce(torch.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)), reduction)

    return named("HuberLossBackward0", compute, (input, target),
                 saved={"delta": delta, "reduction": _REDUCTION_ENUM[reduction], "self": input, "target": target})


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    _check_reduction(reduction)
    if tuple(target.size()) != tuple(input.size()):
        raise ValueError("Using a target size ({}) that is different to the input size ({}) is deprecated. "
                         "Please ensure they have the same size.".format(target.size(), input.size()))

    def compute(x, t, w):
        # Loss.cpp's kernel: (t - 1) * max(log1p(-x), -100) - t * max(log(x), -100) (the logs clamped so that
        # log(0) stays finite), then the weight, then the reduction
        loss = (t - 1.0) * torch.clamp(torch.log1p(-x), min=-100.0) - t * torch.clamp(torch.log(x), min=-100.0)
        return _reduce(loss * w if w is not None else loss, reduction)

    from . import _loss_bce
    if _loss_bce.applies(input, target, weight):  # PyTorch's backward node (the composite is its reference)
        return _loss_bce.binary_cross_entropy(input, target, weight, reduction, _REDUCTION_ENUM[reduction], compute,
                                              _input_sized_result(input, reduction))
    return named("BinaryCrossEntropyBackward0", compute, (input, target, weight),
                 allocate=_input_sized_result(input, reduction),
                 saved={"reduction": _REDUCTION_ENUM[reduction], "self": input, "target": target, "weight": weight})


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    _check_reduction(reduction)
    if tuple(target.size()) != tuple(input.size()):
        raise ValueError("Target size ({}) must be the same as input size ({})".format(target.size(), input.size()))

    def compute(x, t, w, pw):
        # log(1 + exp(-|x|)) + max(-x, 0): the stable form of -log(sigmoid(x)).
        log_sig_neg = torch.log(1.0 + torch.exp(-x.abs())) + torch.clamp(-x, min=0)
        if pw is not None:
            loss = (1 - t) * x + ((pw - 1) * t + 1) * log_sig_neg
        else:
            loss = (1 - t) * x + log_sig_neg
        return _reduce(loss * w if w is not None else loss, reduction)

    return named("BinaryCrossEntropyWithLogitsBackward0", compute, (input, target, weight, pos_weight),
                 saved={"pos_weight": pos_weight, "reduction": _REDUCTION_ENUM[reduction], "self": input,
                        "target": target, "weight": weight})


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        loss = torch.where(target > 0, target * (torch.log(torch.clamp(target, min=1e-38)) - input),
                           torch.zeros_like(target))
    if reduction == "batchmean":
        return loss.sum() / input.shape[0]
    return _reduce(loss, reduction)

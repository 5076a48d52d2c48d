# Argument checks shared by torch.nn.functional: PyTorch's mixed-device and conv type messages.
import torch


def dispatch_prefix(tensors):
    """'wrapper_CUDA_' when any tensor is on CUDA (that kernel is chosen), else 'wrapper_CPU_'."""
    for t in tensors:
        if t is not None and t.device.type == "cuda":
            return "wrapper_CUDA_"
    return "wrapper_CPU_"


def check_same_device(method, named):
    """Raises PyTorch's common-device error for an op with argument checks.

    `named` is [(arg_name, tensor_or_None), ...] in the op's argument order; the first tensor fixes
    the common device and the first one on another device is named (as c10's check does).
    """
    common = None
    for _, t in named:
        if t is not None:
            common = t.device
            break
    if common is None:
        return
    for name, t in named:
        if t is not None and t.device != common:
            wrapper = dispatch_prefix([x for _, x in named]) + method
            raise RuntimeError(
                "Expected all tensors to be on the same device, but got {} is on {}, different from "
                "other tensors on {} (when checking argument in method {})".format(
                    name, t.device, common, wrapper))


def check_conv_types(input, weight, bias):
    """Convolution's own check (Convolution.cpp check_input_same_type_as_parameters)."""
    same_w = input.device == weight.device and input.dtype == weight.dtype
    same_b = bias is None or (input.device == bias.device and input.dtype == bias.dtype)
    if same_w and same_b:
        return
    # CPU float input goes to the MKLDNN backend, whose message is longer.
    mkldnn = input.device.type == "cpu" and input.dtype in (torch.float32, torch.bfloat16)
    if not same_w:
        msg = "Input type ({}) and weight type ({}) should be the same".format(input.type(), weight.type())
        if mkldnn:
            msg += " or input should be a MKLDNN tensor and weight is a dense tensor"
    else:
        msg = "Input type ({}) and bias type ({}) should be the same".format(input.type(), bias.type())
        if mkldnn:
            msg += " or input should be a MKLDNN tensor and bias is a dense tensor"
    raise RuntimeError(msg)

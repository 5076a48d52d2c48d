# F.instance_norm as ATen's instance_norm (Normalization.cpp) computes it: batch_norm over the input viewed as
# one sample of N*C channels, with weight, bias and running statistics repeated N times (RepeatBackward0 on
# the affine parameters), the result viewed back (ViewBackward0), and the running statistics written back as
# the mean over the N copies. Statement for statement, so the nodes and allocations are PyTorch's.
from ._functional_norm import batch_norm


def _verify_spatial_size(size):
    size_prods = 1
    for i in range(2, len(size)):
        size_prods *= size[i]
    if size_prods == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size {}".format(size))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    if use_input_stats:
        _verify_spatial_size(input.size())
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    b, c = input.size(0), input.size(1)
    shape = list(input.shape)
    shape[1] = b * c
    shape[0] = 1

    def repeat_if_defined(t):
        return t.repeat(b) if t is not None else t

    weight_ = repeat_if_defined(weight)
    bias_ = repeat_if_defined(bias)
    running_mean_ = repeat_if_defined(running_mean)
    running_var_ = repeat_if_defined(running_var)
    input_reshaped = input.contiguous().view(shape)
    out = batch_norm(input_reshaped, running_mean_, running_var_, weight_, bias_, use_input_stats, momentum, eps)
    # ATen copies into an alias of the (const) running statistics
    if running_mean is not None:
        running_mean.copy_(running_mean_.view(b, c).mean(0, False))
    if running_var is not None:
        running_var.copy_(running_var_.view(b, c).mean(0, False))
    return out.view(input.shape)



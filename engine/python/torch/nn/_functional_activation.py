# More activations for torch.nn.functional (re-exported there): mish, selu, celu, softsign, prelu, glu,
# softmin, hardswish, hardsigmoid, tanhshrink, softshrink, hardshrink, threshold, rrelu.
#
# Where ATen has one kernel with its own derivative (MishBackward0, CeluBackward0, GluBackward0, ...) the op is
# `named(...)`: computed from primitives, shown as ATen's node with ATen's saved values. Where ATen's op is a
# composite (softsign = x / (|x| + 1), tanhshrink = x - tanh(x), softmin = softmax(-x)) the primitives themselves
# make PyTorch's graph. Backward formulas are ATen's, including at the kinks: each compute below is written so
# that autograd of it gives the kernel's gradient there (e.g. hardsigmoid's gradient is 0 at +-3, not 1/6).
import warnings

import numpy as np

import torch
from ._composite import named

# ATen's constants (Activation.cpp)
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _kernel(name, compute, input, inplace, saved, inplace_name=None, result_grad=None):
    """An elementwise kernel with its own node that saves `saved` (its scalars and `self`); in place, see
    inplace_kernel."""
    if inplace:
        return inplace_kernel(inplace_name or name, compute, input, saved, result_grad)
    return named(name, compute, (input,), saved={**saved, "self": input})


def inplace_kernel(name, compute, input, saved, result_grad=None):
    """ATen's in-place activation (elu_, selu_, leaky_relu_, hardswish_, ...): input's values are overwritten
    and its history continues through one node on its old edge. With `result_grad(grad, result)` the node is
    the in-place formula that saves the result (EluBackward1, LeakyReluBackward1, ...): nothing is copied.
    Without it the formula reads the original self, which ATen's generated code saves as self.clone() before
    the write (one input-sized allocation); backward recomputes the op from that clone under autograd."""
    import contextlib
    from .._ops import _core as C
    from .._scratch import scratch
    from ..autograd import graph
    C.check_inplace(input)
    if not C.needs_grad(input):
        with torch.no_grad(), scratch():
            values = compute(input)
        C.write(input, C.read(values))
        return input
    edge = graph.edge_of(input)
    before = graph.base_edge(input)  # written through a view: its base's history continues (CopySlices)
    original = None
    if result_grad is None:
        with torch.no_grad():
            original = input.clone()
    with torch.no_grad(), scratch():
        values = compute(input.detach() if original is None else original)
    C.write(input, C.read(values))
    del values

    def grad_mode_scope():
        return contextlib.nullcontext() if torch.is_grad_enabled() else scratch()

    if result_grad is not None:
        rs = graph.SavedOutput(input)

        def backward(grads):
            g = grads[0]
            if g is None:
                return (None,)
            with grad_mode_scope():
                gi = result_grad(g, rs.unpack())
            return (gi if torch.is_grad_enabled() else C.materialize(gi),)
        node = graph.attach_edges(name, [input], [edge], backward, saved={**saved, "result": input})
        rs.bind(node)
        graph.rebase_view(input, before)
        return input

    kept = original.detach()

    def backward(grads):
        g = grads[0]
        if g is None:
            return (None,)
        create_graph = torch.is_grad_enabled()
        with grad_mode_scope():
            # under create_graph the recomputation hangs off the input's old history, as named() does
            x = graph.on_edge(kept, edge) if create_graph else kept.detach().requires_grad_(True)
            with torch.enable_grad():
                out = compute(x)
            gi, = torch.autograd.grad([out], [x], [g], create_graph=create_graph)
        return (gi if create_graph else C.materialize(gi),)
    graph.attach_edges(name, [input], [edge], backward, saved={**saved, "self": original})
    graph.rebase_view(input, before)
    return input


def _elu_result_grad(alpha, scale, input_scale):
    # elu_backward(is_result=True): result <= 0 -> grad * input_scale * (result + alpha * scale), else grad * scale
    def grad(g, r):
        return torch.where(r > 0, g * scale, g * input_scale * (r + alpha * scale))
    return grad


def _elu(x, alpha, scale, input_scale):
    # elu_backward: x <= 0 -> grad * input_scale * alpha * scale * exp(x * input_scale), else grad * scale
    neg = (torch.exp(x * input_scale) - 1) * (alpha * scale)
    return torch.where(x > 0, x * scale, neg) if scale != 1 else torch.where(x > 0, x, neg)


def _softplus_exact(x):
    # log1p(exp(x)) as ATen's mish kernel writes it. Above 20 it is x in float precision; the clamp keeps the
    # unused branch finite so that its zero gradient stays zero (not 0 * inf), and its gradient at 0 is 1/2.
    return torch.where(x > 20, x, torch.log1p(torch.exp(torch.clamp(x, max=20))))


def mish(input, inplace=False):
    return _kernel("MishBackward0", lambda x: x * torch.tanh(_softplus_exact(x)), input, inplace, {})


def selu(input, inplace=False):
    # at::selu is at::elu(self, SELU_ALPHA, SELU_SCALE): EluBackward0 with the SELU constants
    return _kernel("EluBackward0", lambda x: _elu(x, SELU_ALPHA, SELU_SCALE, 1.0), input, inplace,
                   {"alpha": SELU_ALPHA, "input_scale": 1, "scale": SELU_SCALE}, "EluBackward1",
                   _elu_result_grad(SELU_ALPHA, SELU_SCALE, 1.0))


def selu_(input):
    return selu(input, inplace=True)


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _kernel("CeluBackward0", lambda x: _elu(x, alpha, 1.0, 1.0 / alpha), input, inplace, {"alpha": alpha},
                   "CeluBackward1", _elu_result_grad(alpha, 1.0, 1.0 / alpha))


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def hardswish(input, inplace=False):
    # hardswish_backward: x < -3 -> 0, x <= 3 -> grad * (x / 3 + 0.5), else grad (autograd of the clamp form
    # gives the same values at +-3: clamp's gradient is 1 on its closed interval)
    return _kernel("HardswishBackward0", lambda x: x * torch.clamp(x + 3, 0, 6) / 6, input, inplace, {})


def _hardsigmoid(x):
    # hardsigmoid_backward: grad / 6 strictly inside (-3, 3), 0 elsewhere (the outer branches are constants)
    inside = (x > -3) & (x < 3)
    return torch.where(inside, (x + 3) / 6, (x >= 3).to(x.dtype))


def hardsigmoid(input, inplace=False):
    return _kernel("HardsigmoidBackward0", _hardsigmoid, input, inplace, {})


def softshrink(input, lambd=0.5):
    if lambd < 0:
        raise RuntimeError("lambda must be greater or equal to 0, but found to be {}.".format(_num(lambd)))

    def compute(x):
        zero = torch.zeros((), dtype=x.dtype, device=x.device)
        return torch.where(x > lambd, x - lambd, torch.where(x < -lambd, x + lambd, zero))
    return named("SoftshrinkBackward0", compute, (input,), saved={"lambd": lambd, "self": input})


def hardshrink(input, lambd=0.5):
    def compute(x):
        zero = torch.zeros((), dtype=x.dtype, device=x.device)
        return torch.where((x >= -lambd) & (x <= lambd), zero, x)
    return named("HardshrinkBackward0", compute, (input,), saved={"lambd": lambd, "self": input})


def _num(v):
    """A Scalar as ATen prints it: -1 for an integral double."""
    return int(v) if float(v).is_integer() else v


def threshold(input, threshold, value, inplace=False):
    def compute(x):
        return torch.where(x > threshold, x, torch.full((), value, dtype=x.dtype, device=x.device))
    if inplace:  # threshold_'s formula reads self: ThresholdBackward1 keeps a clone of it
        return inplace_kernel("ThresholdBackward1", compute, input, {"threshold": threshold})
    return named("ThresholdBackward0", compute, (input,), saved={"self": input, "threshold": threshold})


def threshold_(input, threshold, value):
    return globals()["threshold"](input, threshold, value, inplace=True)


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    wrap = dim + input.dim() if dim < 0 else dim
    n = input.shape[wrap]
    if n % 2 != 0:
        raise RuntimeError("Halving dimension must be even, but dimension {} is size {}".format(wrap, n))

    def compute(x):
        a, b = x.narrow(wrap, 0, n // 2), x.narrow(wrap, n // 2, n // 2)
        return a * torch.sigmoid(b)
    return named("GluBackward0", compute, (input,), saved={"dim": dim, "self": input})


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        warnings.warn("Implicit dimension choice for softmin has been deprecated. "
                      "Change the call to include dim=X as an argument.", stacklevel=_stacklevel)
        dim = 0 if input.dim() in (0, 1, 3) else 1
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)


def prelu(input, weight):
    """at::prelu (2.x): checks, then _prelu_kernel(self, weight viewed to broadcast over dim 1):
    PreluKernelBackward0, with a ViewBackward0 on the weight when it is reshaped."""
    if input.dtype != weight.dtype:
        raise RuntimeError("prelu: Type promoting not supported. Got {} and {}".format(
            _scalar_name(input.dtype), _scalar_name(weight.dtype)))
    ndim = input.dim()
    if weight.numel() != 1:
        if ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError("Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               "{} and channel size = {}.".format(weight.numel(), channels))
    if weight.dim() > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {}"
                           .format(weight.dim()))
    w = weight
    if ndim != weight.dim():
        shape = [1] * ndim
        if ndim > 1:
            shape[1] = weight.numel()
        w = weight.reshape(shape)

    def compute(x, wt):
        return torch.where(x > 0, x, wt * x)
    return named("PreluKernelBackward0", compute, (input, w), saved={"self": input, "weight": w})


def _scalar_name(dtype):
    return {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
            torch.bfloat16: "BFloat16"}.get(dtype, str(dtype).replace("torch.", "").capitalize())


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """at::rrelu: rrelu_with_noise(self, noise = empty_like(self), lower, upper, training). The noise is
    allocated (and saved) even in eval mode, where the op is leaky_relu with slope (lower + upper) / 2. In
    training, each element <= 0 draws r ~ U(lower, upper) (one 64-bit draw, uniform_real_distribution<double>
    over the bounds as the input's type) from the CPU generator, in memory order: out = x * r, noise = r;
    elsewhere noise = 1. Backward: grad * noise (training) or leaky_relu_backward (eval)."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    with torch.no_grad():
        noise = torch.empty_like(input, memory_format=torch.contiguous_format)
    if training:
        from .._ops import _core as C
        from .. import _random, _cpu_sampling
        xv = np.ascontiguousarray(C.read(input)).reshape(-1)
        single = input.dtype != torch.float64
        lo = float(np.float32(lower)) if single else float(lower)
        hi = float(np.float32(upper)) if single else float(upper)
        neg = xv <= 0
        draws = _cpu_sampling.uniform_real(_random.gen(None).engine, int(neg.sum()), "float64", lo, hi)
        vals = np.ones(xv.shape, dtype=np.float64)
        vals[neg] = draws
        from .._scratch import scratch
        with torch.no_grad(), scratch():  # the draws land in the noise buffer; the staging tensor is scratch
            noise.copy_(C.make(vals.reshape(tuple(input.shape)).astype(xv.dtype), input.dtype, input.device))

        def compute(x):
            return x * noise

        def result_grad(g, r):
            return g * noise
    else:
        slope = (lower + upper) / 2.0

        def compute(x):
            return torch.where(x > 0, x, x * slope)

        def result_grad(g, r):  # leaky_relu_backward(grad, result, slope, is_result=True)
            return torch.where(r > 0, g, g * slope)
    if inplace:
        return inplace_kernel("RreluWithNoiseBackward1", compute, input,
                              {"lower": lower, "noise": noise, "training": training, "upper": upper}, result_grad)
    return named("RreluWithNoiseBackward0", compute, (input,),
                 saved={"lower": lower, "noise": noise, "self": input, "training": training, "upper": upper})


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)

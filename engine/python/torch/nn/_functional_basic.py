# linear, dropout and pad for torch.nn.functional (re-exported there): kept below functional.py because the
# attention functions (_functional_attention.py), which functional.py re-exports too, are built on them.
import _devicescope_C as _E
import torch
from .._ops._core import FAST_KERNELS as _FAST, materialize, wrap as _wrap
from .._scratch import scratch
from ..autograd import graph
from ._composite import named


def linear(input, weight, bias=None):
    r"""y = x A^T + b. 2-D input with bias is one addmm(bias, input, weight.t()), as in ATen, so a
    mixed-device call fails in addmm and names mat1 (the input)."""
    sizes = input._impl.sizes  # (a tuple: no Size objects on this per-layer path)
    if bias is not None and len(sizes) >= 2 and bias._impl.dim == 1:
        if len(sizes) == 2:
            return torch.addmm(bias, input, weight.t())
        if input.is_contiguous():
            # ATen's _flatten_nd_linear: flatten leading dims, one addmm, view back.
            flat = input.reshape(-1, sizes[-1])
            out = torch.addmm(bias, flat, weight.t())
            return out.view(*sizes[:-1], out._impl.sizes[1])
    output = input.matmul(weight.t())
    if bias is not None:
        # ATen adds the bias in place into matmul's fresh output (no second output-sized allocation)
        output = output.add_(bias)
    return output


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
    if not training or p == 0.0:
        return input
    if p == 1.0:
        # ATen multiplies by a 0-dim zero tensor on the input's device, which MulBackward0 saves
        zero = torch.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(zero) if inplace else input * zero
    if input.is_cuda and not inplace:
        return _native_dropout(input, p)
    # ATen's CPU (and in-place) dropout: noise = empty_like(input).bernoulli_(1 - p).div_(1 - p); input * noise.
    # MulBackward0 saves the noise, a tensor like the input (the only allocation besides the output).
    with torch.no_grad():
        noise = torch.empty_like(input, memory_format=torch.contiguous_format).bernoulli_(1.0 - p).div_(1.0 - p)
    return input.mul_(noise) if inplace else input * noise


def _native_dropout(input, p):
    """CUDA's fused kernel (Dropout.cu dropout_cuda): it allocates the bool mask, then the output (the random
    draws are registers, not memory: Note [Scratch allocations]); NativeDropoutBackward0 saves the mask (one
    byte per element), not the input, and its backward allocates the one gradient."""
    scale = 1.0 / (1.0 - p)
    with torch.no_grad(), scratch():
        drawn = _uniforms(input) if _FAST else None
        if drawn is None:
            drawn = torch.rand_like(input)
    # the C++ kernel (bindings_transformer.cpp) for dense float tensors: the mask and the output in one pass,
    # allocated as below; else the ops themselves in scratch, and the two results materialized
    made = _E.nn_dropout(input._impl, drawn._impl, p, scale) if _FAST and not drawn._impl.is_virtual else None
    if made is not None:
        del drawn
        mask, out = _wrap(made[0]), _wrap(made[1])
    else:
        with torch.no_grad(), scratch():
            keep = drawn >= p
            del drawn
            values = input * keep * scale
        mask = materialize(keep)
        out = materialize(values)
        del keep, values
    if not (torch.is_grad_enabled() and input.requires_grad):
        return out

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None]
        if _FAST and not g._impl.is_virtual:
            gi = _E.nn_dropout_backward(g._impl, mask._impl, scale)
            if gi is not None:
                return [_wrap(gi)]
        with scratch():
            gi = g * mask * scale
        return [materialize(gi)]
    graph.attach("NativeDropoutBackward0", [out], [input], backward, saved={"p": p, "result1": mask, "train": True})
    return out


def _uniforms(input):
    """torch.rand_like(input) for a contiguous, non-empty, real float32/float64 input: a contiguous tensor of the
    generator's unit values (uniform_real over [0, 1) is exactly those, k * 2^-digits, which the dtype holds),
    drawn in the same order from the same engine, without rand_like's layout, scale and offset passes. None
    where rand_like itself must run (it then draws as before)."""
    from .. import _cpu_sampling, _random
    from .._ops import _core as C
    impl = input._impl
    dt = input.dtype
    if impl.is_virtual or not impl.numel or not impl.is_contiguous or dt not in _UNIFORM_DTYPES:
        return None
    values = _random.gen(None, input).engine.unit(impl.numel, _cpu_sampling.digits(dt))
    out = C.new_empty(tuple(impl.sizes), dt, input.device)
    view, is_copy = _E.numpy_view(out._impl)
    view[...] = values.reshape(view.shape)  # (exact: the values fit the dtype)
    if is_copy:
        _E.upload(out._impl, view)
    return out


_UNIFORM_DTYPES = (torch.float32, torch.float64)


def pad(input, pad, mode="constant", value=None):
    if mode != "constant":
        raise NotImplementedError("DeviceScope: F.pad supports mode='constant' only")
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length too large")
    value = 0.0 if value is None else value
    # constant_pad_nd_backward(grad, pad) needs only the pad: the input is not kept
    return named("ConstantPadNdBackward0", lambda x: _constant_pad(x, pad, value), (input,),
                 saved={"pad": tuple(pad)}, linear=(0,))


def _constant_pad(input, pad, value):
    out = input
    for i in range(len(pad) // 2):
        dim = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        parts = []
        if before > 0:
            shape = list(out.shape)
            shape[dim] = before
            parts.append(torch.full(shape, value, dtype=out.dtype, device=out.device))
        parts.append(out)
        if after > 0:
            shape = list(out.shape)
            shape[dim] = after
            parts.append(torch.full(shape, value, dtype=out.dtype, device=out.device))
        if len(parts) > 1:
            out = torch.cat(parts, dim)
    return out

# F.pad in every mode (at::pad / _pad_enum: constant, reflect, replicate, circular) and F.interpolate /
# F.upsample* (the upsample_* kernels: nearest, nearest-exact, linear, bilinear, trilinear; area is
# adaptive_avg_pool). Re-exported by torch.nn.functional.
#
# reflect / replicate and the upsample kernels are ATen kernels with their own nodes (ReflectionPad2DBackward0,
# UpsampleBilinear2DBackward0, ...): `named`, computed as gathers along each spatial dim (index_select, whose
# gradient is the kernels' scatter-add) and weighted sums. Source indices and weights follow ATen's
# UpSample.h in the kernels' precision (float for float32). circular is ATen's composite: a new_empty output
# filled by slice copies (CopySlices), as _pad_circular does.
import numpy as np

import torch
from ._composite import named
from ._functional_basic import pad as _constant_pad_op

_MODES = ("constant", "reflect", "replicate", "circular")


def pad(input, pad, mode="constant", value=None):
    if mode not in _MODES:
        raise NotImplementedError("Unrecognised padding mode {}".format(mode))
    pad = [int(p) for p in pad]
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > input.dim() * 2:
        raise RuntimeError("Padding length too large")
    if mode == "constant":
        return _constant_pad_op(input, pad, "constant", value)
    if value is not None and value != 0:
        raise RuntimeError('Padding mode "{}" doesn\'t take in value argument'.format(mode))
    nd = len(pad) // 2
    if not (1 <= nd <= 3 and input.dim() in (nd + 1, nd + 2)):
        raise NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now")
    if mode == "circular":
        return _pad_circular(input, pad)
    return _pad_gather(input, pad, mode, nd)


def _pad_gather(input, pad, mode, nd):
    shape = list(input.shape)
    dims = list(range(input.dim() - nd, input.dim()))  # the padded dims, outermost first
    if any(s == 0 for s in shape[1:]) or (input.dim() == nd + 1 and shape[0] == 0):
        raise RuntimeError("Expected {}D or {}D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           "dimensions for input, but got: {}".format(nd + 1, nd + 2, shape))
    index = []
    for k, d in enumerate(dims):
        # pad lists the last dim first: dims[-1] gets pad[0:2]
        lo, hi = pad[2 * (nd - 1 - k)], pad[2 * (nd - 1 - k) + 1]
        size = shape[d]
        if mode == "reflect" and (lo >= size or hi >= size):
            arg = {0: 4, 1: 6, 2: 8}[nd - 1 - k]
            raise RuntimeError("Argument #{}: Padding size should be less than the corresponding input dimension, "
                               "but got: padding ({}, {}) at dimension {} of input {}".format(
                                   arg, lo, hi, d, shape))
        out = size + lo + hi
        if out < 1:
            raise RuntimeError("input ({}: {}) is too small. Calculated output {}: {}".format(
                "DHW"[3 - nd + k], size, "DHW"[3 - nd + k], out))
        j = np.arange(out, dtype=np.int64) - lo
        if mode == "reflect":
            j = np.abs(j)
            j = np.where(j >= size, 2 * (size - 1) - j, j)
        else:
            j = np.clip(j, 0, size - 1)
        index.append((d, j))

    def compute(x):
        return _gather(x, index)
    name = {"reflect": "ReflectionPad", "replicate": "ReplicationPad"}[mode] + "{}DBackward0".format(nd)
    return named(name, compute, (input,), saved={"padding": tuple(pad), "self": input})


def _pad_circular(input, pad):
    """ATen's _pad_circular fills a new_empty output by slice copies (the middle from the input, then each
    padded dim's bands from the opposite side), so PyTorch's grad_fn is a CopySlices. DeviceScope gathers the
    same values in one step (per padded dim, out[o] = in[(o - left) mod size], the input cropped first by
    negative pads) under one node of that name."""
    shape = list(input.shape)
    nd = len(pad) // 2
    lead = input.dim() - nd
    if lead not in (1, 2):
        raise RuntimeError("Invalid padding size, expected 1 or 2 non-padded dimensions, which would be equivalent "
                           "to padding of length {} or {} respectively but got {}".format(
                               (input.dim() - 1) * 2, (input.dim() - 2) * 2, len(pad)))
    index = []
    for i in range(nd):
        d = lead + i
        pl, pr = pad[2 * (nd - i - 1)], pad[2 * (nd - i - 1) + 1]
        size = shape[d]
        if not (pl <= size and pr <= size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        out = size + pl + pr
        if out < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
        # negative pads crop first: the output wraps around the kept part in[start:start + kept]
        start, kept = max(-pl, 0), size - max(-pl, 0) - max(-pr, 0)
        j = start + np.mod(np.arange(out, dtype=np.int64) - max(pl, 0), max(kept, 1))
        index.append((d, j))

    def compute(x):
        return _gather(x, index)
    return named("CopySlices", compute, (input,), saved={}, linear=(0,))


def _gather(x, index):
    """x gathered along each (dim, numpy index array). The index tensors are made here, inside the op's
    scratch scope (forward and backward's recomputation), so that they are not allocations of the op's own:
    ATen's kernels compute their source indices in registers."""
    if _all_finite(x):
        # one matmul per dim by a 0/1 selection matrix: the same values (x * 1 plus exact zeros), and its
        # gradient (the transpose) is the scatter-add, at BLAS speed instead of index_select/index_add's
        return _by_matrices(x, [(d, _selection(idx, x.shape[d])) for d, idx in index])
    for d, idx in index:
        x = x.index_select(d, torch.as_tensor(idx, device=x.device))
    return x


def _all_finite(x):
    """Whether the matrix forms may run: they mix every input of a row into each output (0 * inf is nan), so
    only for finite inputs; and only on the CPU: on a CUDA device a matmul allocates cuBLAS's workspace,
    which ATen's pad/upsample kernels never do."""
    from .._ops import _core as C
    if x._impl.is_virtual or x.device.type != "cpu":
        return False
    return bool(np.isfinite(C.read(x)).all())


def _selection(idx, size):
    m = np.zeros((len(idx), size))
    m[np.arange(len(idx)), idx] = 1.0
    return m


def _by_matrices(x, mats):
    """x with each (dim d, matrix M of shape (out, in)) applied along d: y[.., o, ..] = sum_i M[o, i] x[.., i, ..],
    contiguous."""
    for d, m in mats:
        w = torch.as_tensor(m, dtype=x.dtype, device=x.device)
        x = torch.matmul(x.transpose(d, -1), w.t()).transpose(d, -1)
    return x.contiguous()


# ----------------------------------------------------------------------------- interpolate
_LINEAR = {1: "linear", 2: "bilinear", 3: "trilinear"}


def _scale_value(scale, in_size, out_size, dt):
    # compute_scales_value: 1 / scale when a positive scale was given, else in / out (in the kernel's type)
    if scale is not None and scale > 0:
        return dt(1.0 / scale)
    return dt(in_size) / dt(out_size)


def _nearest_index(in_size, out_size, scale, exact):
    dt = np.float32
    dst = np.arange(out_size)
    if not exact and out_size == in_size:
        return dst
    if not exact and out_size == 2 * in_size:
        return dst >> 1
    s = _scale_value(scale, in_size, out_size, dt)
    pos = (dst.astype(dt) + dt(0.5)) * s if exact else dst.astype(dt) * s
    return np.minimum(np.floor(pos).astype(np.int64), in_size - 1)


def _linear_weights(in_size, out_size, scale, align_corners, dt):
    """compute_source_index_and_lambda over the output: (i0, i1, lambda0, lambda1) in the kernel's type."""
    dst = np.arange(out_size)
    if out_size == in_size:
        return dst, dst, np.ones(out_size, dt), np.zeros(out_size, dt)
    if align_corners:
        ratio = dt(in_size - 1) / dt(out_size - 1) if out_size > 1 else dt(0)
        real = ratio * dst.astype(dt)
    else:
        ratio = _scale_value(scale, in_size, out_size, dt)
        real = np.maximum(ratio * (dst.astype(dt) + dt(0.5)) - dt(0.5), dt(0))
    i0 = np.minimum(np.floor(real).astype(np.int64), in_size - 1)
    lam1 = np.minimum(np.maximum(real - i0.astype(dt), dt(0)), dt(1)).astype(dt)
    i1 = i0 + (i0 < in_size - 1)
    return i0, i1, (dt(1) - lam1).astype(dt), lam1


def _upsample(input, output_size, scales, mode, align_corners):
    nd = input.dim() - 2
    shape = tuple(input.shape)
    dev = input.device
    steps = []  # per spatial dim: (dim, gathers)
    dt = np.float64 if input.dtype == torch.float64 else np.float32
    for k in range(nd):
        d, in_size, out_size = 2 + k, shape[2 + k], output_size[k]
        sc = scales[k] if scales is not None else None
        if mode in ("nearest", "nearest-exact"):
            idx = _nearest_index(in_size, out_size, sc, mode == "nearest-exact")
            steps.append((d, [(idx, None)]))
        else:
            i0, i1, l0, l1 = _linear_weights(in_size, out_size, sc, align_corners, dt)
            wshape = [1] * input.dim()
            wshape[d] = out_size
            steps.append((d, [(i0, l0.reshape(wshape)), (i1, l1.reshape(wshape))]))

    def compute(x):
        # index and weight tensors are made inside the op's scratch scope (see _gather)
        if _all_finite(x):
            return _by_matrices(x, [(d, _interp_matrix(gathers, x.shape[d])) for d, gathers in steps])
        for d, gathers in steps:
            if len(gathers) == 1:
                x = x.index_select(d, torch.as_tensor(gathers[0][0], device=dev))
            else:
                (a, wa), (b, wb) = gathers
                wa = torch.as_tensor(wa, dtype=x.dtype, device=dev)
                wb = torch.as_tensor(wb, dtype=x.dtype, device=dev)
                x = (x.index_select(d, torch.as_tensor(a, device=dev)) * wa
                     + x.index_select(d, torch.as_tensor(b, device=dev)) * wb)
        return x
    kind = {"nearest": "UpsampleNearest", "nearest-exact": "_UpsampleNearestExact"}.get(mode)
    if kind is None:
        kind = {1: "UpsampleLinear", 2: "UpsampleBilinear", 3: "UpsampleTrilinear"}[nd]
    name = "{}{}DBackward0".format(kind, nd)
    saved = {"output_size": tuple(output_size), "self_sym_sizes": shape}
    scale_names = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}[nd]
    for k, nm in enumerate(scale_names):
        saved[nm] = scales[k] if scales is not None else None
    if mode not in ("nearest", "nearest-exact"):
        saved["align_corners"] = align_corners
    return named(name, compute, (input,), saved=saved)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the "
                             "interpolating modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    "input with spatial dimensions of {} and output size of {}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.".format(list(input.shape[2:]), size))
            if not all(isinstance(x, int) or (isinstance(x, torch.Tensor) and not x.is_floating_point())
                       for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                                "Tuple[int, int, int], but got size with types {}".format([type(x) for x in size]))
            output_size = [int(x) for x in size]
        else:
            output_size = [int(size) for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    "got input with spatial dimensions of {} and scale_factor of shape {}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "scale_factor in (s1, s2, ...,sK) format.".format(list(input.shape[2:]), scale_factor))
            scale_factors = [float(s) for s in scale_factor]
        else:
            scale_factors = [float(scale_factor) for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size = [int(input.shape[i + 2] * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias:
        raise NotImplementedError("DeviceScope: F.interpolate(antialias=True) is not supported")
    if mode == "area":
        from ._functional_conv import adaptive_avg_pool1d, adaptive_avg_pool2d
        pools = {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d}
        if dim in pools:
            return pools[dim](input, output_size)
    linear = _LINEAR.get(dim)
    if 1 <= dim <= 3 and (mode in ("nearest", "nearest-exact") or mode == linear):
        if output_size is None:
            # compute_output_size: floor(input * scale) per spatial dim, in double
            output_size = [int(input.shape[i + 2] * scale_factors[i]) for i in range(dim)]
        for o in output_size:
            if o <= 0:
                raise RuntimeError("Input and output sizes should be greater than 0, but got input ({}) and "
                                   "output ({})".format(_dims_text(input.shape[2:]), _dims_text(output_size)))
        return _upsample(input, output_size, scale_factors, mode, align_corners)
    for need, wanted in ((2, "bilinear"), (3, "trilinear"), (1, "linear"), (2, "bicubic")):
        if mode == wanted and 1 <= dim <= 3 and dim != need:
            raise NotImplementedError("Got {}D input, but {} mode needs {}D input".format(
                input.dim(), wanted, need + 2))
    if mode == "bicubic" and dim == 2:
        raise NotImplementedError("DeviceScope: F.interpolate(mode='bicubic') is not supported")
    raise NotImplementedError(
        "Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the modes: nearest | linear | "
        "bilinear | bicubic | trilinear | area | nearest-exact (got {})".format(input.dim(), mode))


def _dims_text(sizes):
    names = ["D: ", "H: ", "W: "][3 - len(sizes):]
    return ", ".join("{}{}".format(n, s) for n, s in zip(names, sizes))


def _interp_matrix(gathers, in_size):
    """The (out, in) matrix of one dim's gathers: one-hot rows (nearest) or lambda0 / lambda1 at i0 / i1."""
    if len(gathers) == 1:
        return _selection(gathers[0][0], in_size)
    (a, wa), (b, wb) = gathers
    rows = np.arange(len(a))
    m = np.zeros((len(a), in_size))
    np.add.at(m, (rows, a), wa.reshape(-1))
    np.add.at(m, (rows, b), wb.reshape(-1))
    return m


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    import warnings
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    import warnings
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    import warnings
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ----------------------------------------------------------------------------- pixel shuffle
def _shuffle_checks(name, input, factor, what):
    if input.dim() < 3:
        raise RuntimeError("{} expects input to have at least 3 dimensions, but got input with {} dimension(s)"
                           .format(name, input.dim()))
    if factor <= 0:
        raise RuntimeError("{} expects a positive {}, but got {}".format(name, what, factor))


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r): one PixelShuffleBackward0 node (its backward is pixel_unshuffle,
    so the input is not kept), a contiguous result."""
    r = int(upscale_factor)
    _shuffle_checks("pixel_shuffle", input, r, "upscale_factor")
    c, h, w = input.shape[-3:]
    if c % (r * r) != 0:
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           "upscale_factor, but input.size(-3)={} is not divisible by {}".format(c, r * r))
    lead = tuple(input.shape[:-3])
    n = len(lead)

    def compute(x):
        x = x.reshape(lead + (c // (r * r), r, r, h, w))
        x = x.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
        return x.reshape(lead + (c // (r * r), h * r, w * r))
    return named("PixelShuffleBackward0", compute, (input,), saved={"upscale_factor": r}, linear=(0,))


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W): PixelUnshuffleBackward0, the inverse of pixel_shuffle."""
    r = int(downscale_factor)
    _shuffle_checks("pixel_unshuffle", input, r, "downscale_factor")
    c, h, w = input.shape[-3:]
    if h % r != 0:
        raise RuntimeError("pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)={}"
                           " is not divisible by {}".format(h, r))
    if w % r != 0:
        raise RuntimeError("pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)={}"
                           " is not divisible by {}".format(w, r))
    lead = tuple(input.shape[:-3])
    n = len(lead)

    def compute(x):
        x = x.reshape(lead + (c, h // r, r, w // r, r))
        x = x.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
        return x.reshape(lead + (c * r * r, h // r, w // r))
    return named("PixelUnshuffleBackward0", compute, (input,), saved={"downscale_factor": r}, linear=(0,))


def channel_shuffle(input, groups):
    """(N, C, *) with C = g k -> channels reordered (g, k) -> (k, g): ChannelShuffleBackward0, contiguous."""
    groups = int(groups)
    if input.dim() <= 2:
        raise RuntimeError("channel_shuffle expects input to have at least 3 dimensions, but got input with {} "
                           "dimension(s)".format(input.dim()))
    if groups <= 0:
        raise RuntimeError("Number of groups to divide channels in must be positive. Value of groups:{}"
                           .format(groups))
    c = input.shape[1]
    if c % groups != 0:
        raise RuntimeError("Number of channels must be divisible by groups. Got {} channels and {} groups."
                           .format(c, groups))
    shape = tuple(input.shape)

    def compute(x):
        return x.reshape((shape[0], groups, c // groups) + shape[2:]).transpose(1, 2).reshape(shape)
    return named("ChannelShuffleBackward0", compute, (input,), saved={"groups": groups}, linear=(0,))

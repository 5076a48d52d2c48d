# ATen's CPU sampling kernels (aten/src/ATen/native/cpu/DistributionTemplates.h, DistributionsHelper.h,
# TransformationHelper.h), on PyTorch's engine (torch/_mt19937.py): with the same seed, torch.rand / randn /
# randint / randperm / uniform_ / normal_ / bernoulli_ / random_ and dropout give PyTorch's values bit for bit,
# so a seeded tutorial prints what it prints under PyTorch. Values come back as a flat array in the order the
# kernel writes them (memory order: see fill_order). The AVX2 kernels are compiled with FMA and GCC fuses
# `x * (to - from) + from` into one multiply-add: _fma64 reproduces that for doubles (an error-free product
# and sum); for float32 a float64 computation is the fused result. Checked against torch 1.13 (AVX2 build).
import math
import os

import numpy as np

import _devicescope_C as _E

from . import _avx_mathfun

# DEVICESCOPE_NO_FAST_OPS=1 (as torch/_ops/_core.py's FAST_KERNELS) keeps the numpy emulation below
_FAST = os.environ.get("DEVICESCOPE_NO_FAST_OPS") != "1"

# std::numeric_limits<T>::digits of the floating types (uniform_real's mask) by itemsize/name
_DIGITS = {"float64": 53, "float32": 24, "float16": 11, "bfloat16": 8}
_SPLIT = 134217729.0  # 2^27 + 1: Veltkamp's splitter for float64


def _fma64(a, b, c):
    """a * b + c with one rounding (float64 arrays), by TwoProduct and TwoSum."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    return s + (t + err)


def _split(x):
    c = _SPLIT * x
    hi = c - (c - x)
    return hi, x - hi


def _name(dtype):
    return dtype if isinstance(dtype, str) else dtype._name


def digits(dtype):
    return _DIGITS.get(_name(dtype), 24)


def uniform_real(engine, n, dtype, low, high):
    """uniform_real_distribution<T>(from, to) n times: (val & (2^digits - 1)) * 2^-digits * (to - from) + from,
    val one 32-bit draw (random64 for double)."""
    d = digits(dtype)
    # (the scale and the offset are taken in place: each temporary of a 12.5M-element draw is 100 MB of fresh pages)
    x = engine.unit(n, d)
    if d == 53:
        low, high = float(low), float(high)
        if low == 0.0:  # fma(x, s, 0) is the rounded product (+ 0.0 turns a -0.0 into PyTorch's +0.0): exact, 10x faster
            np.multiply(x, np.float64(high - low), out=x)
            np.add(x, 0.0, out=x)
            return x
        return _fma64(x, np.float64(high - low), np.float64(low))
    low32, high32 = np.float32(low), np.float32(high)  # static_cast<scalar_t>(from_), as float
    np.multiply(x, np.float64(high32 - low32), out=x)
    np.add(x, np.float64(low32), out=x)
    return x.astype(np.float32)


def normal(gen, n, dtype, mean, std, contiguous):
    """normal_kernel: float32, >= 16 elements, contiguous: the AVX2 Box-Muller over blocks of 16; other floating
    types the same with libm; fewer elements or a strided tensor: one normal_distribution<double> draw each
    (Box-Muller pairs, the second kept in the generator for the next draw)."""
    if n >= 16 and contiguous:
        if digits(dtype) == 24:
            return _normal_fill(gen.engine, n, dtype, mean, std, _block16_avx2)
        return _normal_fill(gen.engine, n, dtype, mean, std, _block16_libm)
    return np.array([gen.normal_double(mean, std) for _ in range(n)], dtype=np.float64)


def _normal_fill(engine, n, dtype, mean, std, block16):
    data = uniform_real(engine, n, dtype, 0.0, 1.0)
    full = (n // 16) * 16
    blocks = data[:full].reshape(-1, 16)
    data[:full] = block16(blocks, mean, std).reshape(-1)
    if n % 16:  # the last 16 values are drawn again and recomputed
        tail = uniform_real(engine, 16, dtype, 0.0, 1.0).reshape(1, 16)
        data[n - 16:] = block16(tail, mean, std).reshape(-1)
    return data


def _block16_avx2(blocks, mean, std):
    if _FAST:  # the same ops in C++ (engine/python/bindings_sampling.cpp), one pass instead of ~40 numpy ones
        return _E.normal_block16(blocks, float(mean), float(std))
    f = np.float32
    u1 = f(1) - blocks[:, :8]
    u2 = blocks[:, 8:]
    radius = np.sqrt(f(-2) * _avx_mathfun.log256(u1))
    sin, cos = _avx_mathfun.sincos256(f(2.0 * math.pi) * u2)
    mean64, std64 = np.float64(f(mean)), np.float64(f(std))
    n1 = (radius * cos).astype(np.float64) * std64 + mean64  # _mm256_fmadd_ps(n, std, mean)
    n2 = (radius * sin).astype(np.float64) * std64 + mean64
    return np.concatenate([n1, n2], axis=1).astype(f)


def _block16_libm(blocks, mean, std):
    # normal_fill_16<double>: std::log/sqrt/cos/sin of glibc (Python's math module calls the same functions;
    # numpy's vectorised ones differ in the last bit)
    u1 = (1.0 - blocks[:, :8]).reshape(-1)
    u2 = blocks[:, 8:].reshape(-1)
    radius = np.array([math.sqrt(-2.0 * math.log(v)) for v in u1])
    theta = 2.0 * math.pi * u2
    cos = np.array([math.cos(v) for v in theta])
    sin = np.array([math.sin(v) for v in theta])
    std, mean = np.float64(std), np.float64(mean)
    n1 = _fma64(radius * cos, std, mean)
    n2 = _fma64(radius * sin, std, mean)
    return np.concatenate([n1.reshape(-1, 8), n2.reshape(-1, 8)], axis=1)


def box_muller_pair(engine):
    """normal_distribution<double>'s fresh pair: (r cos(theta), r sin(theta)) from two uniform doubles."""
    u1, u2 = uniform_real(engine, 2, "float64", 0.0, 1.0)
    r = math.sqrt(-2.0 * math.log(1.0 - u2))
    theta = 2.0 * math.pi * u1
    return r * math.cos(theta), r * math.sin(theta)


def scale_normal(value, mean, std):
    return float(_fma64(np.float64(value), np.float64(std), np.float64(mean)))


def bernoulli(engine, p, p_dtype="float64"):
    """bernoulli_distribution per element of the array p: a uniform of p's type (double for a Python number
    or a double tensor, float for other floating tensors) < p."""
    if digits(p_dtype) == 53:
        p = np.asarray(p, dtype=np.float64)
        return uniform_real(engine, p.size, "float64", 0.0, 1.0).reshape(p.shape) < p
    p = np.asarray(p, dtype=np.float32)
    return uniform_real(engine, p.size, "float32", 0.0, 1.0).reshape(p.shape) < p


def exponential(engine, n, lambd):
    """exponential_distribution<double>(lambda): -1 / lambda * log(1 - u), u a uniform double (glibc's log)."""
    scale = -1.0 / lambd
    return np.array([scale * math.log(1.0 - u) for u in uniform_real(engine, n, "float64", 0.0, 1.0).tolist()])


def geometric(engine, n, p):
    """geometric_distribution<double>(p): ceil(log(u) / log(1 - p)), u a uniform double."""
    denominator = math.log(1.0 - p)
    return np.array([math.ceil(math.log(u) / denominator)
                     for u in uniform_real(engine, n, "float64", 0.0, 1.0).tolist()], dtype=np.float64)


def cauchy(engine, n, median, sigma):
    """cauchy_distribution<double>(median, sigma): median + sigma * tan(pi * (u - 0.5))."""
    return np.array([median + sigma * math.tan(math.pi * (u - 0.5))
                     for u in uniform_real(engine, n, "float64", 0.0, 1.0).tolist()], dtype=np.float64)


def multinomial(engine, probs, n_sample, replacement):
    """ATen's CPU multinomial of the rows of the 2-D array probs (in its own float type). Without replacement,
    or for one sample: argmax / topk of p / q with q ~ Exp(1) (the Gumbel trick); with replacement: per row, the
    cumulative distribution normalised in p's type and a binary search per uniform double."""
    rows, categories = probs.shape
    if not replacement or n_sample == 1:
        q = exponential(engine, probs.size, 1.0).astype(probs.dtype).reshape(probs.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = probs / q
        if n_sample == 1:
            return np.argmax(ratio, axis=1).reshape(rows, 1)
        return np.argsort(-ratio, axis=1, kind="stable")[:, :n_sample]
    out = np.empty((rows, n_sample), dtype=np.int64)
    for i in range(rows):
        cum = np.cumsum(probs[i])  # sequential, in p's type
        cum = cum / cum[-1]
        cum[-1] = 1
        out[i] = np.searchsorted(cum.astype(np.float64), uniform_real(engine, n_sample, "float64", 0.0, 1.0),
                                 side="left")
    return out


def random_from_to(engine, n, low, high):
    """random_(from, to) / randint: (val % range) + from, val random64 when range >= 2^32."""
    span = int(high) - int(low)
    vals = engine.random64(n) if span >= 1 << 32 else engine.random(n)
    return ((vals % np.uint64(span)).astype(np.int64) + np.int64(low)) if span < 1 << 63 else \
        np.array([(int(v) % span) + int(low) for v in vals], dtype=np.int64)


def random_default(engine, n, dtype):
    """random_() with no bounds (uniform_int_distribution<T>): [0, 2^digits] for floating types, [0, max] for
    integers (random64 for int64 and double)."""
    name = _name(dtype)
    if name == "bool":
        return engine.random(n) & np.uint64(1)
    if name in _DIGITS:
        vals = engine.random64(n) if name == "float64" else engine.random(n)
        return (vals % np.uint64((1 << _DIGITS[name]) + 1)).astype(np.float64)
    if name == "int64":
        return (engine.random64(n) % np.uint64(1 << 63)).astype(np.int64)
    limit = {"int32": 1 << 31, "int16": 1 << 15, "int8": 1 << 7, "uint8": 1 << 8}.get(name, 1 << 31)
    return (engine.random(n) % np.uint64(limit)).astype(np.int64)


def randperm(engine, n):
    """randperm_cpu: Fisher-Yates from the front, swapping i with i + random() % (n - i)."""
    r = list(range(n))
    if n > 1:
        draws = engine.random(n - 1).tolist()
        for i in range(n - 1):
            j = draws[i] % (n - i) + i
            r[i], r[j] = r[j], r[i]
    return np.array(r, dtype=np.int64)


def fill_order(sizes, strides):
    """Where each value of a serial fill lands: TensorIterator writes a nullary op's output in memory order
    (dims sorted by stride). Returns the logical flat index of the k-th value written, or None when that is
    row-major order (contiguous)."""
    sizes, strides = tuple(sizes), tuple(strides)
    expected, contiguous = 1, True
    for size, stride in zip(reversed(sizes), reversed(strides)):
        if size != 1 and stride != expected:
            contiguous = False
            break
        expected *= size
    if contiguous:
        return None
    offsets = np.zeros((), dtype=np.int64)
    for size, stride in zip(sizes, strides):
        offsets = offsets[..., None] + np.arange(size, dtype=np.int64) * stride
    return np.argsort(offsets.reshape(-1), kind="stable")

# The fused attention kernel's values (_sdpa_fused.py), computed directly in numpy: softmax(q k^T * scale + mask),
# dropout, @ v forward, and the gradients of q, k and v backward from the softmax probabilities. The reference (the
# math path's torch ops in scratch, an inner autograd graph and torch.autograd.grad on it in backward) cost ~300 us
# per call forward and as much backward in op dispatch and graph bookkeeping for [16, 4, 8, 8] attention
# (translation_transformer: 1458 calls); this path allocates nothing on the device (the kernel's own buffers stay
# with _sdpa_fused.attention) and takes the dropout uniforms from the generator as the math path's dropout does
# (rand_like of the [B, H, L, S] weights), so the random stream and the masks are the same. The math is float64 with one
# rounding at the end (the math path rounds after each op): values agree to float32 rounding.
# DEVICESCOPE_PY_COMPOSITE=1 runs the reference; tests/composite_backward/sdpa.py compares the two.
import math

import numpy as np

import torch
from .. import _cpu_sampling, _random
from .._ops import _core as C

_FLOATS = None


def usable(query, key, value, attn_mask, dropout_p, is_causal):
    """Whether the direct path computes what the math path would (else the math path runs, with its errors)."""
    global _FLOATS
    if _FLOATS is None:
        _FLOATS = (torch.float32, torch.float64)
    dt = query.dtype
    if dt not in _FLOATS or key.dtype is not dt or value.dtype is not dt or not 0.0 <= dropout_p < 1.0:
        return False
    qs, ks, vs = query._impl.sizes, key._impl.sizes, value._impl.sizes
    if qs[:2] != ks[:2] or ks[:3] != vs[:3] or qs[3] != ks[3] or 0 in qs or 0 in ks or 0 in vs:
        return False
    if attn_mask is not None:
        if is_causal or attn_mask._impl.is_virtual or (attn_mask.dtype is not torch.bool and attn_mask.dtype is not dt):
            return False
        full = (qs[0], qs[1], qs[2], ks[2])
        ms = tuple(attn_mask._impl.sizes)
        if len(ms) > 4 or any(m not in (1, f) for m, f in zip(ms[::-1], full[::-1])):
            return False
    return True


class State:
    """What backward needs: the softmax probabilities and the dropout's keep mask (None: no dropout), or None
    for both when backward recomputes them from the saved inputs (no dropout, as the reference does)."""
    __slots__ = ("probs", "keep", "scale", "dscale")


def _probs(q, k, attn_mask, is_causal, scale):
    s = np.matmul(q, np.swapaxes(k, -1, -2))
    s *= scale
    L, S = s.shape[-2], s.shape[-1]
    if is_causal:
        s = np.where(np.tril(np.ones((L, S), dtype=bool)), s, -np.inf)
    if attn_mask is not None:
        m = C.read(attn_mask)
        s = np.where(m, s, -np.inf) if m.dtype == np.bool_ else s + m
    mx = _row_max(s)
    mx = np.where(np.isfinite(mx), mx, 0.0)
    e = np.exp(s - mx)
    return e / _row_sum(e)


# numpy reduces a short last axis row by row (~45 us for 512 rows of 8); these take the same values in a few
# vectorized passes: the max over the columns of the transposed rows, the sum as a product with ones.
def _row_max(a):
    n = a.shape[-1]
    return np.ascontiguousarray(a.reshape(-1, n).T).max(axis=0).reshape(a.shape[:-1] + (1,))


def _row_sum(a):
    return np.matmul(a, np.ones(a.shape[-1]))[..., None]


def forward(query, key, value, attn_mask, dropout_p, is_causal, scale, keep_state):
    """(output values [B, H, L, Dv] float64, State or None)."""
    scale = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    with np.errstate(all="ignore"):
        p = _probs(C.values_of(query, np.float64), C.values_of(key, np.float64), attn_mask, is_causal, scale)
        keep = dscale = None
        pd = p
        if dropout_p > 0.0:
            # The math path's dropout draws rand_like(weights) (contiguous [B, H, L, S], query's dtype): uniform_real
            # over [0, 1) is the engine's unit values, exactly (k * 2^-digits, times 1, plus 0, then rounded to a
            # dtype that holds them), so the keep mask compares those with p in the dtype.
            drawn = _random.gen(None, query).engine.unit(p.size, _cpu_sampling.digits(query.dtype)).reshape(p.shape)
            keep = drawn >= C.read(query).dtype.type(dropout_p)
            dscale = 1.0 / (1.0 - dropout_p)
            pd = p * keep * dscale
        out = np.matmul(pd, C.values_of(value, np.float64))
    if not keep_state:
        return out, None
    st = State()
    st.scale, st.dscale = scale, dscale
    st.probs, st.keep = (p, keep) if keep is not None else (None, None)
    return out, st


def backward(st, g, query, key, value, attn_mask, is_causal, wanted):
    """The gradients (float64) of the inputs listed in `wanted` (0 query, 1 key, 2 value), in that order."""
    with np.errstate(all="ignore"):
        q, k, v = (C.values_of(t, np.float64) for t in (query, key, value))
        p = st.probs if st.probs is not None else _probs(q, k, attn_mask, is_causal, st.scale)
        gv = C.values_of(g, np.float64)
        pd = p if st.keep is None else p * st.keep * st.dscale
        res = {}
        if 2 in wanted:
            res[2] = np.matmul(np.swapaxes(pd, -1, -2), gv)
        if 0 in wanted or 1 in wanted:
            dp = np.matmul(gv, np.swapaxes(v, -1, -2))
            if st.keep is not None:
                dp = dp * st.keep * st.dscale
            ds = p * (dp - _row_sum(dp * p))
            if 0 in wanted:
                res[0] = np.matmul(ds, k) * st.scale
            if 1 in wanted:
                res[1] = np.matmul(np.swapaxes(ds, -1, -2), q) * st.scale
    return [res[i] for i in wanted]

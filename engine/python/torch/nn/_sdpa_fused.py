# scaled_dot_product_attention on CUDA as PyTorch 2.x runs it: one fused kernel, never the math path's
# [B, H, L, S] attention matrix. sdp_utils.cpp's select_sdp_backend tries flash attention (half / bfloat16, no
# attn_mask, head_dim % 8 == 0 and <= 256), then memory-efficient attention (any float type, an additive mask
# allowed), then math. Values are computed by the math path in scratch (Note [Scratch allocations]); what is
# allocated is what the fused kernel allocates:
#   flash (flash_api.cpp mha_fwd / mha_bwd): out [B, L, H, D], softmax_lse [B, H, L] float; backward dq, dk,
#     dv laid like q, k, v, softmax_d [B, H, round128(L)] float and dq_accum [B, round128(L), H, round32(D)]
#     float (FA2 always accumulates dq in float), freed when backward returns.
#   efficient (attention.cu _efficient_attention_forward / attention_backward.cu): out [B, L, H, Dv], logsumexp
#     [B, H, round32(L)] float when a gradient is wanted; backward one [B, L, 3, H, D] chunk for dq, dk, dv when
#     q, k and v share a storage (MultiheadAttention's packed projection), else one per input laid like it, and
#     delta [B, H, L] float while it runs.
# Both return out.transpose(1, 2) ([B, H, L, D]) and save query, key, value, out and the lse.
# float32 values come from _sdpa_direct.py (numpy, no torch ops; the math path stays the reference with
# DEVICESCOPE_PY_COMPOSITE=1 and for what the direct path does not cover).
import math

import _devicescope_C as _E
import torch
from .._ops import _core as C
from .._ops._core import fill
from .._scratch import scratch
from ..autograd import graph
from . import _composite, _sdpa_direct

_HALF = None


def _round(n, m):
    return (n + m - 1) // m * m


def select_backend(query, key, value, attn_mask):
    """'flash', 'efficient' or None (math), as select_sdp_backend decides for CUDA tensors."""
    global _HALF
    if _HALF is None:
        _HALF = (torch.float16, torch.bfloat16)
    if not query.is_cuda or query.dim() != 4 or key.dim() != 4 or value.dim() != 4:
        return None
    d, dv = query.size(-1), value.size(-1)
    if query.dtype in _HALF and attn_mask is None and d == dv and d % 8 == 0 and d <= 256:
        return "flash"
    if query.dtype in _HALF + (torch.float32,) and d % (8 if query.dtype in _HALF else 4) == 0 \
            and dv % (8 if query.dtype in _HALF else 4) == 0:
        return "efficient"
    return None


def _empty(shape, dtype, device, virtual=False):
    return C.new_empty(tuple(shape), dtype, device, False, virtual)


def _laid_like(t, virtual=False):
    """at::empty_strided(t.sizes(), t.strides()) for a dense t, else contiguous."""
    from .._ops.layout import is_non_overlapping_and_dense
    impl = t._impl
    if is_non_overlapping_and_dense(impl.sizes, impl.strides):
        base = _empty((impl.numel,), t.dtype, t.device, virtual)
        return C.wrap(_E.as_strided(base._impl, impl.sizes, impl.strides, 0))
    return _empty(impl.sizes, t.dtype, t.device, virtual)


def attention(backend, math_fn, query, key, value, attn_mask, dropout_p, is_causal, scale):
    B, H, L, _ = query._impl.sizes
    Dv = value._impl.sizes[3]
    inputs = (query, key, value)
    # (a virtual operand makes every buffer of the kernel virtual: its values are unknown)
    virt = (query._impl.is_virtual or key._impl.is_virtual or value._impl.is_virtual
            or (attn_mask is not None and attn_mask._impl.is_virtual))
    wanted = [i for i, x in enumerate(inputs) if x.requires_grad]
    needs_grad = torch.is_grad_enabled() and bool(wanted)
    keep_graph = needs_grad and dropout_p > 0.0  # a recompute would draw another dropout mask
    direct = not virt and not _composite.REFERENCE and _sdpa_direct.usable(query, key, value, attn_mask, dropout_p,
                                                                            is_causal)
    if direct:  # the values in numpy (_sdpa_direct.py), no torch ops
        values, state = _sdpa_direct.forward(query, key, value, attn_mask, dropout_p, is_causal, scale, needs_grad)
        out = _empty((B, L, H, Dv), query.dtype, query.device, virt).transpose(1, 2)
        C.write(out, values)
    else:
        with scratch():
            if keep_graph:
                inner = [x.detach().requires_grad_(i in wanted) for i, x in enumerate(inputs)]
                values = math_fn(*inner, attn_mask, dropout_p, is_causal, scale)
            else:
                with torch.no_grad():
                    values = math_fn(query, key, value, attn_mask, dropout_p, is_causal, scale)
        out = fill(_empty((B, L, H, Dv), query.dtype, query.device, virt).transpose(1, 2), values)
    lse = None
    if backend == "flash":
        lse = _empty((B, H, L), torch.float32, query.device, virt)
    elif needs_grad:
        lse = _empty((B, H, _round(L, 32)), torch.float32, query.device, virt)
    if not needs_grad:
        return out
    if not keep_graph:
        del values
    if direct:
        values = None
    kept = [x.detach() for x in inputs]
    qkv_chunk = (query._impl.same_storage(key._impl) and query._impl.same_storage(value._impl)
                 and tuple(query._impl.sizes) == tuple(key._impl.sizes) and key._impl.sizes[3] == Dv)
    nin = len(inputs)

    def allocate_grads():
        if backend == "flash":
            grads = [_laid_like(x, virt) for x in kept]
            temps = [_empty((B, H, _round(L, 128)), torch.float32, query.device, virt),
                     _empty((B, _round(L, 128), H, _round(query.size(-1), 32)), torch.float32, query.device, virt)]
            return grads, temps
        if qkv_chunk:
            chunk = _empty((B, L, 3, H, query.size(-1)), query.dtype, query.device, virt)
            grads = [chunk.select(2, i).transpose(1, 2) for i in range(3)]
        else:
            grads = [_laid_like(x, virt) for x in kept]
        return grads, [_empty((B, H, L), torch.float32, query.device, virt)]

    def backward(grads):
        g = grads[0]
        res = [None] * nin
        if g is None:
            return res
        if direct:
            gs = _sdpa_direct.backward(state, g, *kept, attn_mask, is_causal, wanted)
            made, temps = allocate_grads()
            for i, gi in zip(wanted, gs):
                res[i] = made[i]
                C.write(made[i], gi)
            del temps
            return res
        with scratch():
            if keep_graph:
                leaves = [x for x in inner if x.requires_grad]
                gs = torch.autograd.grad([values], leaves, [g], retain_graph=False, allow_unused=True)
            else:
                again = [x.detach().requires_grad_(i in wanted) for i, x in enumerate(kept)]
                with torch.enable_grad():
                    o = math_fn(*again, attn_mask, dropout_p, is_causal, scale)
                gs = torch.autograd.grad([o], [again[i] for i in wanted], [g], retain_graph=False,
                                         allow_unused=True)
        made, temps = allocate_grads()
        for i, gi in zip(wanted, gs):
            if gi is not None:
                res[i] = fill(made[i], gi)
        del temps
        return res

    name = ("ScaledDotProductFlashAttentionBackward0" if backend == "flash"
            else "ScaledDotProductEfficientAttentionBackward0")
    saved = {"query": query, "key": key, "value": value, "output": out,
             ("logsumexp" if backend == "flash" else "log_sumexp"): lse,
             "dropout_p": dropout_p, "is_causal": is_causal,
             "scale": scale if scale is not None else 1.0 / math.sqrt(query.size(-1))}
    if backend == "efficient":
        saved["attn_bias"] = attn_mask
    graph.attach(name, [out], list(inputs), backward, saved=saved)
    return out


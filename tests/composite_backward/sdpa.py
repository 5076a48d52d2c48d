# The fused attention kernel's values computed directly in numpy (nn/_sdpa_direct.py) against the reference, the
# math path's torch ops in scratch with torch.autograd.grad on them (DEVICESCOPE_PY_COMPOSITE=1), through
# tests/tools/run_composite_backward_agreement.py: node names, saved values, versions, which inputs get a gradient,
# the allocator trace (the kernel's out, logsumexp and gradient buffers, nothing else), and the dropout stream (the
# same uniforms drawn: the masks, so which weights are zero, agree); values compared in-process with the
# reference's (within 2e-6 relative: the direct path rounds once, the math path after each op). Masks: none, bool,
# additive float broadcast over heads, causal; dropout on and off; q, k and v packed in one storage (MHA's
# projection), partly wanting a gradient; nn.MultiheadAttention and a TransformerEncoderLayer step.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import _composite
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from agreement_probe import print_allocator_trace  # noqa: E402

DEV = "cuda"


def inputs(seed, dtype=torch.float32, packed=False, want=(True, True, True)):
    torch.manual_seed(seed)
    if packed:  # MHA's self-attention layout: one [L, B, 3, H, D]-like storage, three strided views
        proj = torch.randn(6, 2, 3, 4, 8, device=DEV, dtype=dtype).requires_grad_()
        q, k, v = (proj.select(2, i).permute(1, 2, 0, 3) for i in range(3))
        return [q, k, v], [proj]
    leaves = [torch.randn(2, 4, 6 if i == 0 else 5, 8, device=DEV, dtype=dtype).requires_grad_(w)
              for i, w in enumerate(want)]
    return leaves, leaves


def cases():
    bool_mask = torch.rand(2, 1, 6, 5, device=DEV) > 0.3
    bool_mask[..., 0] = True
    float_mask = torch.zeros(2, 1, 1, 5, device=DEV)
    float_mask[0, ..., -2:] = float("-inf")
    for p in (0.0, 0.25):
        yield f"p={p} no mask", {}, dict(dropout_p=p)
        yield f"p={p} bool mask", {}, dict(attn_mask=bool_mask, dropout_p=p)
        yield f"p={p} float mask", {}, dict(attn_mask=float_mask, dropout_p=p)
    yield "float64 (the math path, not the kernel)", dict(dtype=torch.float64), dict(dropout_p=0.25)
    yield "causal", dict(packed=True), dict(is_causal=True)
    yield "packed, dropout, scale", dict(packed=True), dict(dropout_p=0.5, scale=0.2)
    yield "only v wants a grad", dict(want=(False, False, True)), dict(dropout_p=0.25)
    yield "only q wants a grad", dict(want=(True, False, False)), {}


def step(seed, ikw, kw):
    qkv, leaves = inputs(seed, **ikw)
    torch.manual_seed(100 + seed)
    out = F.scaled_dot_product_attention(*qkv, **kw)
    fn = out.grad_fn
    info = [type(fn).__name__, tuple(out.shape), out.stride(), out._version]
    if hasattr(fn, "_saved_log_sumexp"):
        info += [fn._saved_dropout_p, fn._saved_is_causal, round(fn._saved_scale, 12),
                 tuple(fn._saved_log_sumexp.shape),
                 None if fn._saved_attn_bias is None else tuple(fn._saved_attn_bias.shape)]
    gout = torch.linspace(-1, 1, out.numel(), device=DEV, dtype=out.dtype).reshape(out.shape)
    out.backward(gout)
    grads = [None if x.grad is None else x.grad.clone() for x in leaves]
    info.append([None if g is None else (tuple(g.shape), g.stride()) for g in grads])
    info.append(int((out == 0).sum()))  # dropped weights change the output: the same draws give the same zeros
    return out.detach().clone(), grads, info


def close(a, b, dtype):
    tol = 2e-6 if dtype is torch.float32 else 1e-12
    return (a is None) == (b is None) and (a is None or torch.allclose(a, b, rtol=tol, atol=tol))


def compare():
    for seed, (name, ikw, kw) in enumerate(cases()):
        _composite.REFERENCE = True
        want_out, want_grads, want_info = step(seed, ikw, kw)
        _composite.REFERENCE = was
        out, grads, info = step(seed, ikw, kw)
        dtype = ikw.get("dtype", torch.float32)
        print(name, "as the reference:", info == want_info, close(out, want_out, dtype),
              all(close(a, b, dtype) for a, b in zip(grads, want_grads)))


def run():
    for seed, (name, ikw, kw) in enumerate(cases()):
        print(name, *step(seed, ikw, kw)[2])
    torch.manual_seed(3)
    mha = nn.MultiheadAttention(16, 2, dropout=0.1).to(DEV)
    layer = nn.TransformerEncoderLayer(16, 2, 32, 0.1).to(DEV)
    x = torch.randn(5, 3, 16, device=DEV, requires_grad=True)
    pad = torch.zeros(3, 5, dtype=torch.bool, device=DEV)
    pad[1, -2:] = True
    out, _ = mha(x, x, x, key_padding_mask=pad, need_weights=False)
    y = layer(out, src_key_padding_mask=pad)
    y.sum().backward()
    print("mha + encoder layer", type(out.grad_fn).__name__, type(y.grad_fn).__name__, tuple(x.grad.shape),
          bool(torch.isfinite(x.grad).all()))
    with torch.no_grad():
        print("no_grad", F.scaled_dot_product_attention(x.view(5, 3, 2, 8), x.view(5, 3, 2, 8),
                                                         x.view(5, 3, 2, 8)).grad_fn)


was = _composite.REFERENCE
print("composite:", "reference" if was else "direct")
compare()
torch.cuda.memory._record_memory_history(max_entries=100000)
run()
print_allocator_trace()

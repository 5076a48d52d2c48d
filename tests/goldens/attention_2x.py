"""PyTorch 2.x's attention path, run on the CPU reference (torch 1.13, which has neither) so that the op trace of
an attention program is what 2.x does on CUDA. Installed by trace_real_ops.py for the traced run only.

- MultiheadAttention (need_weights=False, batched self-attention without bias_k/add_zero_attn/static k, v):
  torch/nn/functional.py of 2.x: the packed in-projection made one contiguous (3, L, N, E) copy whose slices are
  q, k and v; q, k, v viewed (N*H, L, hd) then (N, H, L, hd); scaled_dot_product_attention; the output
  permuted to (L, N, H, hd) and made contiguous; the out-projection as linear. Other calls keep 1.13's code.
- scaled_dot_product_attention on CUDA float32: the memory-efficient kernel (flash needs half precision).
  aten/src/ATen/native/transformers/cuda/attention.cu _efficient_attention_forward allocates the output
  (B, L, H, Dv) and the logsumexp (B, H, round32(L)) float when a gradient is wanted; attention_backward.cu
  allocates one (B, L, 3, H, D) chunk for dq, dk, dv when q, k and v share a storage (else one tensor each) and
  delta (B, H, L) float. The values are computed by the math path with the trace mode popped, so that only these
  allocations are traced.

This is a reading of the same sources DeviceScope's nn/_sdpa_fused.py follows: the attention kernels' own
buffers are not independent evidence, the rest of the program (projections, views, autograd through them,
gradient accumulation) is real PyTorch.
"""
import math

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import _pop_mode_temporarily


def _round(n, m):
    return (n + m - 1) // m * m


def _math(q, k, v, attn_mask, is_causal, scale):
    s = (q @ k.transpose(-2, -1)) * scale
    if is_causal:
        L, S = q.size(-2), k.size(-2)
        s = s.masked_fill(torch.ones(L, S, dtype=torch.bool).tril(0).logical_not(), float("-inf"))
    if attn_mask is not None:
        s = s.masked_fill(attn_mask.logical_not(), float("-inf")) if attn_mask.dtype == torch.bool else s + attn_mask
    return torch.softmax(s, -1) @ v


class _EfficientAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, attn_mask, is_causal, scale):
        B, H, L, _ = q.shape
        with _pop_mode_temporarily():
            values = _math(q, k, v, attn_mask, is_causal, scale)
        out = torch.empty(B, L, H, v.size(-1), dtype=q.dtype).transpose(1, 2)
        lse = torch.empty(B, H, _round(L, 32), dtype=torch.float32)
        with _pop_mode_temporarily():
            out.copy_(values)
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.attn_mask, ctx.is_causal, ctx.scale = attn_mask, is_causal, scale
        return out

    @staticmethod
    def backward(ctx, g):
        q, k, v, out, lse = ctx.saved_tensors
        B, H, L, D = q.shape
        with _pop_mode_temporarily():
            with torch.enable_grad():
                leaves = [t.detach().requires_grad_(True) for t in (q, k, v)]
                o = _math(*leaves, ctx.attn_mask, ctx.is_causal, ctx.scale)
                grads = torch.autograd.grad(o, leaves, g)
        shared = (q.storage().data_ptr() == k.storage().data_ptr() == v.storage().data_ptr()
                  and q.shape == k.shape == v.shape)
        if shared:
            chunk = torch.empty(B, L, 3, H, D, dtype=q.dtype)
            made = [chunk.select(2, i).transpose(1, 2) for i in range(3)]
        else:
            made = [torch.empty_strided(t.size(), t.stride(), dtype=t.dtype) for t in (q, k, v)]
        delta = torch.empty(B, H, L, dtype=torch.float32)
        with _pop_mode_temporarily():
            for m, gi in zip(made, grads):
                m.copy_(gi)
        del delta
        return made[0], made[1], made[2], None, None, None


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    if dropout_p != 0.0 or query.dim() != 4:
        raise NotImplementedError("the reference's 2.x attention covers dropout_p=0 on 4-d inputs")
    scale = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale
    return _EfficientAttention.apply(query, key, value, attn_mask, is_causal, scale)


_mha_113 = F.multi_head_attention_forward


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    simple = (not need_weights and query is key and key is value and query.dim() == 3 and bias_k is None
              and not add_zero_attn and not use_separate_proj_weight and static_k is None and static_v is None
              and key_padding_mask is None and attn_mask is None and (dropout_p == 0.0 or not training))
    if not simple:
        return _mha_113(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k,
                        bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=training,
                        key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
                        use_separate_proj_weight=use_separate_proj_weight, q_proj_weight=q_proj_weight,
                        k_proj_weight=k_proj_weight, v_proj_weight=v_proj_weight, static_k=static_k,
                        static_v=static_v, average_attn_weights=average_attn_weights)
    tgt_len, bsz, embed_dim = query.shape
    head_dim = embed_dim // num_heads
    proj = F.linear(query, in_proj_weight, in_proj_bias)
    proj = proj.unflatten(-1, (3, embed_dim)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
    q, k, v = proj[0], proj[1], proj[2]
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    src_len = k.size(1)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, None, 0.0, is_causal)
    out = out.permute(2, 0, 1, 3).contiguous().view(bsz * tgt_len, embed_dim)
    out = F.linear(out, out_proj_weight, out_proj_bias)
    return out.view(tgt_len, bsz, out.size(1)), None


def install():
    F.scaled_dot_product_attention = scaled_dot_product_attention
    F.multi_head_attention_forward = multi_head_attention_forward

# nn.MultiheadAttention, the Transformer layers and F.scaled_dot_product_attention against real PyTorch:
# reprs, parameter names and shapes, outputs and gradients with weights set from a formula (batch_first,
# masks of each kind, need_weights / average_attn_weights, kdim/vdim, add_bias_kv, add_zero_attn, norm_first,
# gelu), generate_square_subsequent_mask, errors. Everything runs in eval() or with dropout=0.
import torch
from torch import nn
import torch.nn.functional as F


def fill(module):
    with torch.no_grad():
        for i, (name, p) in enumerate(module.named_parameters()):
            p.copy_((torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).sin().reshape(p.shape) * 0.3)


def data(*shape, k=0.0):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float32) * 0.61 + k).cos().reshape(shape)


def show(label, t):
    if t is None:
        print(label, None)
        return
    vals = [f"{v:.4f}" for v in t.detach().flatten().tolist()[:6]]
    print(label, tuple(t.shape), f"{t.detach().sum().item():.3f}", vals)


def params(m):
    print([(n, tuple(p.shape)) for n, p in m.named_parameters()])


# ---- MultiheadAttention
mha = nn.MultiheadAttention(8, 2)
print(mha)
params(mha)
print(mha.in_proj_bias.abs().sum().item(), mha.out_proj.bias.abs().sum().item(), mha.q_proj_weight, mha.bias_k)
fill(mha)
q = data(4, 3, 8).requires_grad_(True)
out, w = mha(q, q, q)
show("self-attn out", out)
show("weights", w)
(out.pow(2).sum() + w.sum()).backward()
show("q.grad", q.grad)
show("in_proj_weight.grad", mha.in_proj_weight.grad)
show("out_proj.weight.grad", mha.out_proj.weight.grad)

k = data(6, 3, 8, k=1.0)
v = data(6, 3, 8, k=2.0)
out, w = mha(q, k, v, average_attn_weights=False)
show("cross out", out)
show("per-head weights", w)
out, w = mha(q, k, k)
show("key is value out", out)
out, w = mha(q, k, v, need_weights=False)
show("need_weights=False", out)
print(w)
causal = nn.Transformer.generate_square_subsequent_mask(4)
print(causal)
show("float attn_mask", mha(q, q, q, attn_mask=causal)[0])
bool_mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
show("bool attn_mask", mha(q, q, q, attn_mask=bool_mask)[0])
show("bool attn_mask weights", mha(q, q, q, attn_mask=bool_mask)[1])
kpm = torch.tensor([[False] * 6, [False] * 4 + [True] * 2, [False] * 3 + [True] * 3])
show("key_padding_mask", mha(q, k, v, key_padding_mask=kpm)[0])
show("key_padding_mask no weights", mha(q, k, v, key_padding_mask=kpm, need_weights=False)[0])
show("3-D attn_mask", mha(q, k, v, attn_mask=data(6, 4, 6) * 0.5)[0])
show("unbatched", mha(q[:, 0], k[:, 0], v[:, 0])[0])
show("unbatched weights", mha(q[:, 0], k[:, 0], v[:, 0])[1])

bf = nn.MultiheadAttention(8, 4, batch_first=True, bias=False)
params(bf)
fill(bf)
x = data(3, 4, 8)
show("batch_first", bf(x, x, x)[0])
show("batch_first cross", bf(x, data(3, 5, 8), data(3, 5, 8, k=1.0))[0])

kv = nn.MultiheadAttention(8, 2, kdim=5, vdim=3, add_bias_kv=True, add_zero_attn=True)
print(kv)
params(kv)
fill(kv)
out, w = kv(q, data(6, 3, 5), data(6, 3, 3))
show("kdim/vdim/bias_kv/zero_attn", out)
show("kdim weights", w)

# ---- scaled_dot_product_attention (PyTorch 1.13 has no public one: the reference run uses its formula)
def sdpa_formula(q, k, v, attn_mask=None, is_causal=False):
    scores = q.matmul(k.transpose(-2, -1)) / (q.size(-1) ** 0.5)
    if is_causal:
        attn_mask = torch.ones(q.size(-2), k.size(-2), dtype=torch.bool).tril()
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        scores = scores.masked_fill(~attn_mask, float("-inf"))
    elif attn_mask is not None:
        scores = scores + attn_mask
    return scores.softmax(-1).matmul(v)


sdpa = getattr(F, "scaled_dot_product_attention", sdpa_formula)
Q, K, V = data(2, 3, 4, 8), data(2, 3, 5, 8, k=1.0), data(2, 3, 5, 8, k=2.0)
show("sdpa", sdpa(Q, K, V))
show("sdpa bool mask", sdpa(Q, K, V, attn_mask=torch.ones(4, 5, dtype=torch.bool).tril()))
show("sdpa float mask", sdpa(Q, K, V, attn_mask=data(4, 5)))
show("sdpa causal", sdpa(Q, K[:, :, :4], V[:, :, :4], is_causal=True))

# ---- encoder / decoder layers and stacks
enc = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
print(enc)
params(enc)
fill(enc)
src = data(5, 2, 8).requires_grad_(True)
y = enc(src)
show("encoder layer", y)
y.pow(2).sum().backward()
show("src.grad", src.grad)
show("linear1.weight.grad", enc.linear1.weight.grad)
enc2 = nn.TransformerEncoderLayer(8, 2, 16, 0.0, activation="gelu", norm_first=True, batch_first=True)
fill(enc2)
show("norm_first gelu batch_first", enc2(data(2, 5, 8)))
show("with src_mask", enc(src, src_mask=nn.Transformer.generate_square_subsequent_mask(5)))

stack = nn.TransformerEncoder(enc, num_layers=2, norm=nn.LayerNorm(8))
params(stack)
fill(stack)
show("encoder stack", stack(src))
show("encoder stack padding mask", stack(src, src_key_padding_mask=torch.tensor([[False] * 5, [False] * 3 + [True] * 2])))

dec = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
print(dec)
params(dec)
fill(dec)
tgt = data(4, 2, 8, k=3.0)
memory = data(5, 2, 8, k=4.0)
show("decoder layer", dec(tgt, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(4)))
dstack = nn.TransformerDecoder(dec, num_layers=2)
fill(dstack)
show("decoder stack", dstack(tgt, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(4),
                             memory_key_padding_mask=torch.tensor([[False] * 5, [False] * 4 + [True]])))

t = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=16, dropout=0.0)
print(t.decoder)  # (the whole model's repr: 2.x folds repeated layers as "(0-1): 2 x", 1.13 does not)
print([n for n, _ in t.named_parameters()])
print(len(list(t.parameters())), sum(p.numel() for p in t.parameters()))
fill(t)
src = data(5, 2, 8).requires_grad_(True)
out = t(src, tgt, tgt_mask=t.generate_square_subsequent_mask(4))
show("transformer", out)
out.pow(2).sum().backward()
show("transformer src.grad", src.grad)
show("transformer decoder.norm.weight.grad", t.decoder.norm.weight.grad)
t.eval()
with torch.no_grad():
    show("transformer eval", t(src, tgt))


def err(f):
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)


err(lambda: nn.MultiheadAttention(8, 3))
err(lambda: mha(q, k, v[:5]))
err(lambda: mha(q, q, q, attn_mask=torch.zeros(3, 3)))
err(lambda: mha(q, q, q, attn_mask=torch.zeros(5, 4, 4)))
err(lambda: mha(q, q, q, key_padding_mask=torch.zeros(3, 4, dtype=torch.int64)))
err(lambda: mha(q[..., :6], q[..., :6], q[..., :6]))
err(lambda: t(data(5, 2, 8), data(4, 3, 8)))
err(lambda: t(data(5, 2, 6), data(4, 2, 6)))
err(lambda: nn.TransformerEncoderLayer(8, 2, activation="tanh"))

# inference fast path: a batch_first encoder in eval() under no_grad runs padded batches as nested tensors,
# so padded positions come out as zeros; with autograd on they are computed like any other position
layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, 2)
fill(enc)
x = data(2, 4, 8)
pad = torch.tensor([[False, False, False, True], [False, False, True, True]])
enc.eval()
with torch.no_grad():
    # (1.13 pads the result back to the longest sequence, 2.x to the input's length: only those compared)
    show("nested fast path", enc(x, src_key_padding_mask=pad)[:, :3])
    show("nested fast path padded row", enc(x, src_key_padding_mask=pad)[1, 2])
show("with autograd", enc(x, src_key_padding_mask=pad))

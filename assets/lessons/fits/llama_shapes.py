# A Llama-shaped decoder (Llama 2/3 layout, as Hugging Face's LlamaForCausalLM builds it), shipped with the app
# for lesson 019's what-fits-where view (fits_step.py); the virtual-step benchmarks and agreement checks in tests/
# import it from here: token embedding, per layer RMSNorm -> q/k/v projections (grouped-query attention) ->
# rotary embedding -> causal scaled_dot_product_attention -> o projection, RMSNorm -> SiLU-gated
# MLP, final RMSNorm, lm_head, cross_entropy. Plain torch only, so the same file runs on real tensors.
import torch
from torch import nn
import torch.nn.functional as F

SHAPES = {  # hidden, intermediate, layers, heads, kv_heads, vocab
    "70b": (8192, 28672, 80, 64, 8, 128256),   # Llama-3-70B
    "8b": (4096, 14336, 32, 32, 8, 128256),    # Llama-3-8B
    "1b": (2048, 8192, 16, 32, 8, 128256),     # Llama-3.2-1B (its lm_head untied here: 1.50 B parameters)
    "tiny": (256, 688, 2, 8, 2, 4096),         # a small model for the agreement test
}


class RMSNorm(nn.Module):
    """LlamaRMSNorm: computed in float32, scaled in the input's dtype."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Attention(nn.Module):
    def __init__(self, hidden, heads, kv_heads):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, hidden // heads
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        rep = self.heads // self.kv_heads  # repeat_kv: expand, then reshape (a copy)
        k = k[:, :, None].expand(b, self.kv_heads, rep, s, self.head_dim).reshape(b, self.heads, s, self.head_dim)
        v = v[:, :, None].expand(b, self.kv_heads, rep, s, self.head_dim).reshape(b, self.heads, s, self.head_dim)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(b, s, -1))


class MLP(nn.Module):
    def __init__(self, hidden, intermediate):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Block(nn.Module):
    def __init__(self, hidden, intermediate, heads, kv_heads):
        super().__init__()
        self.input_layernorm = RMSNorm(hidden)
        self.self_attn = Attention(hidden, heads, kv_heads)
        self.post_attention_layernorm = RMSNorm(hidden)
        self.mlp = MLP(hidden, intermediate)

    def forward(self, x, cos, sin):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin)
        return x + self.mlp(self.post_attention_layernorm(x))


class Llama(nn.Module):
    def __init__(self, shape, checkpointing=False):
        super().__init__()
        hidden, intermediate, layers, heads, kv_heads, vocab = SHAPES[shape] if isinstance(shape, str) else shape
        self.head_dim = hidden // heads
        self.checkpointing = checkpointing
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList(Block(hidden, intermediate, heads, kv_heads) for _ in range(layers))
        self.norm = RMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def rotary(self, seq, device):
        # (made per forward, as Hugging Face's LlamaRotaryEmbedding does; float32, then the activations' dtype)
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, self.head_dim, 2, device=device).float() / self.head_dim))
        t = torch.arange(seq, device=device).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos(), emb.sin()

    def forward(self, tokens, labels):
        x = self.embed_tokens(tokens)
        cos, sin = self.rotary(tokens.shape[1], tokens.device)
        for layer in self.layers:
            if self.checkpointing and self.training:
                from torch.utils.checkpoint import checkpoint
                x = checkpoint(layer, x, cos, sin, use_reentrant=False)
            else:
                x = layer(x, cos, sin)
        logits = self.lm_head(self.norm(x))
        return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), labels.view(-1))


def train_steps(model, optimizer, batch, seq, vocab, steps, device, autocast_dtype=None, on_step=None):
    """`steps` training steps (forward, backward, optimizer step, zero_grad(set_to_none=True)) on random tokens."""
    for i in range(steps):
        tokens = torch.randint(0, vocab, (batch, seq), device=device)
        labels = torch.randint(0, vocab, (batch, seq), device=device)
        if autocast_dtype is not None:
            with torch.autocast("cuda", dtype=autocast_dtype):
                loss = model(tokens, labels)
        else:
            loss = model(tokens, labels)
        loss.backward()
        if on_step is not None:
            on_step("backward", i)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if on_step is not None:
            on_step("step", i)

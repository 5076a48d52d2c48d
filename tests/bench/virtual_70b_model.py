# Benchmark (prints figures, asserts nothing): a Llama-70B-shaped virtual model is built inside
# devicescope.virtual_mode() and moved to a simulated GPU. Virtual tensors hold no bytes, so building and
# moving must cost time and memory per tensor (~720 of them), never per parameter (70 billion).
# Target (issue 14): build + .to("cuda") <= 5 s, peak RSS <= 200 MB.
#   build/app/devicescope --backend sim --sim-devices 1 --sim-memory 300GiB run tests/bench/virtual_70b_model.py
import resource
import time

import devicescope
import torch
from torch import nn

HIDDEN, INTERMEDIATE, LAYERS, VOCAB, KV = 8192, 28672, 80, 128256, 1024  # Llama-3-70B


def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) // 1024 for l in f if l.startswith("VmRSS"))


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_layernorm = RMSNorm(HIDDEN)
        self.q_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.k_proj = nn.Linear(HIDDEN, KV, bias=False)
        self.v_proj = nn.Linear(HIDDEN, KV, bias=False)
        self.o_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.post_attention_layernorm = RMSNorm(HIDDEN)
        self.gate_proj = nn.Linear(HIDDEN, INTERMEDIATE, bias=False)
        self.up_proj = nn.Linear(HIDDEN, INTERMEDIATE, bias=False)
        self.down_proj = nn.Linear(INTERMEDIATE, HIDDEN, bias=False)


class Llama(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, HIDDEN)
        self.layers = nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = RMSNorm(HIDDEN)
        self.lm_head = nn.Linear(HIDDEN, VOCAB, bias=False)


rss0, t0 = rss_mb(), time.perf_counter()
with devicescope.virtual_mode():
    model = Llama()
t1 = time.perf_counter()
model.to("cuda")
t2 = time.perf_counter()
params = list(model.parameters())
n = sum(p.numel() for p in params)
assert all(p.is_virtual and p.device.type == "cuda" for p in params)
print(f"parameters: {n / 1e9:.1f} B in {len(params)} tensors, {n * 4 / 2**30:.0f} GiB float32 on cuda:0 "
      f"(memory_allocated {torch.cuda.memory_allocated(0) / 2**30:.0f} GiB)")
print(f"build: {t1 - t0:.2f} s   .to('cuda'): {t2 - t1:.2f} s   total: {t2 - t0:.2f} s   (target <= 5 s)")
print(f"RSS: {rss0} MB before, {rss_mb()} MB after (+{rss_mb() - rss0} MB, "
      f"{(rss_mb() - rss0) * 2**20 / len(params) / 1024:.1f} KiB per tensor); peak {peak_rss_mb()} MB "
      f"(target <= 200 MB)")

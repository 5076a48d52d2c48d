# %% lesson: A 70B-parameter model: what fits where
# | How much memory does a 70-billion-parameter model need, and where can it live? We build one with the exact
# | tensor shapes of Llama-2-70B - without needing 128 GiB of RAM - using DeviceScope's *virtual tensors*:
# | `torch.empty(..., virtual=True)` is a DeviceScope extension (real PyTorch has no `virtual=`). A virtual
# | tensor is placed and accounted like any other - it counts in `memory_allocated()`, its moves are recorded,
# | it can run out of memory - but it never holds values.
# |
# | The numbers in the narration are for DeviceScope's default simulated GPUs (16 GiB each); on other devices
# | the expectations are computed from the device's own capacity.
# requires: torch.cuda.is_available()
# verdict: FALSE | A 70B model fits on one big GPU | In bfloat16 its weights alone are 128.5 GiB, more than an 80 GB GPU holds | Try the whole model on one GPU
# verdict: TRUE | A failed `model.to("cuda")` can leave the model half on the GPU | `_apply` converts tensor by tensor; the ones converted before the OOM stay converted | Try the whole model on one GPU
# verdict: HALF-TRUE | Quantizing to 4 bits makes a 70B model fit on a single GPU | The weights become ~32 GiB, which fits an 80 GB GPU but not a 16 or 24 GB one; activations and the KV cache need room too | Bytes per parameter decide

# %% step: Build the model, virtually
# | 80 transformer blocks (attention with grouped-query K/V, a SwiGLU MLP, two norms), a token embedding, a final
# | norm and an output head - all bfloat16 Parameters with virtual storage on the CPU.
import math
import torch
import torch.nn as nn

VOCAB, DIM, LAYERS, FFN, KV = 32000, 8192, 80, 28672, 1024
GiB = 2 ** 30


def weight(*shape):
    # DeviceScope extension: virtual=True accounts the bytes but stores no values.
    return nn.Parameter(torch.empty(*shape, dtype=torch.bfloat16, virtual=True), requires_grad=False)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.q, self.k, self.v, self.o = weight(DIM, DIM), weight(KV, DIM), weight(KV, DIM), weight(DIM, DIM)
        self.gate, self.up, self.down = weight(FFN, DIM), weight(FFN, DIM), weight(DIM, FFN)
        self.attn_norm, self.mlp_norm = weight(DIM), weight(DIM)


class Llama70B(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = weight(VOCAB, DIM)
        self.layers = nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = weight(DIM)
        self.head = weight(VOCAB, DIM)


model = Llama70B()
n_params = sum(p.numel() for p in model.parameters())
model_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
layer_bytes = sum(p.numel() * p.element_size() for p in model.layers[0].parameters())
print(f"{n_params:,} parameters, {model_bytes / GiB:.1f} GiB in bfloat16, {layer_bytes / GiB:.2f} GiB per block")
# expect-stdout: 68,976,648,192 parameters, 128.5 GiB in bfloat16, 1.59 GiB per block
# expect: all(p.is_virtual for p in model.parameters())
# > 69.0 billion parameters x 2 bytes. (The "70B" in the name is rounded.) None of it exists in memory: the
# > tensors have shapes, dtypes, devices and sizes, nothing else.

# %% step: What one GPU holds
free0, total0 = torch.cuda.mem_get_info(0)
print(f"cuda:0 has {total0 / GiB:.1f} GiB; the weights need {model_bytes / total0:.1f} of these GPUs")
# expect: model_bytes > total0
# > On the default simulated 16 GiB GPU the weights alone need eight of them (nine, once activations need room);
# > on an 80 GB H100, two.

# %% step: Try the whole model on one GPU
# ? What happens at `model.to("cuda:0")`?
# - it works: `to()` moves only what is used
# = torch.cuda.OutOfMemoryError, after the GPU has filled up
# - the model is moved partly and the rest stays on the CPU without an error
model.to("cuda:0")
# expect-raises: OutOfMemoryError: CUDA out of memory. Tried to allocate ...
# expect: 0 < sum(p.numel() for p in model.parameters() if p.is_cuda) < n_params
# expect: torch.cuda.memory_allocated(0) > 0.9 * total0
# > `Module._apply` converts one tensor at a time, in order (children first, block 0 onwards). When the GPU
# > is full the next allocation fails - after the caching allocator has already freed its cache and retried -
# > and the exception leaves the model *partly moved*: the first blocks on cuda:0, the rest on the CPU. A model
# > in that state raises the mixed-device error on its next forward pass.

# %% step: Move it back and release the memory
model.to("cpu")
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(0), torch.cuda.memory_reserved(0), next(model.parameters()).device)
# expect-stdout: 0 0 cpu
# > Moving back converts the parameters that were on the GPU; `empty_cache()` returns the now-empty segments.

# %% step: Split it across devices
# | What `device_map="auto"` in Hugging Face Accelerate does, by hand: fill each GPU with whole blocks, leaving
# | 10% headroom for activations, and keep the rest on the CPU (offloaded: copied in when needed).
placement = {}
next_block = 0
for gpu in range(torch.cuda.device_count()):
    budget = 0.9 * torch.cuda.mem_get_info(gpu)[1]
    fit = min(int(budget // layer_bytes), LAYERS - next_block)
    for i in range(next_block, next_block + fit):
        model.layers[i].to(f"cuda:{gpu}")
    placement[f"cuda:{gpu}"] = fit
    next_block += fit
placement["cpu"] = LAYERS - next_block
print(placement)
# expect: sum(placement.values()) == LAYERS
# expect: all(str(next(model.layers[i].parameters()).device) != "cpu" for i in range(next_block))
# expect: all(torch.cuda.memory_allocated(g) <= torch.cuda.mem_get_info(g)[1] for g in range(torch.cuda.device_count()))
# > With two simulated 16 GiB GPUs: 9 blocks on each, 62 blocks (99 GiB) left on the CPU - every forward pass
# > would copy them over PCIe. Moving individual blocks is fine: `to()` works on any submodule.

# %% step: Bytes per parameter decide
# | The same 69 billion parameters in other number formats (int8 / int4 are quantized formats; their exact
# | size depends on the scheme, here only the raw weight bytes).
formats = {"float32": 4, "bfloat16": 2, "int8": 1, "int4": 0.5}
for name, size in formats.items():
    need = n_params * size
    print(f"{name:>9}: {need / GiB:6.1f} GiB, fits on one cuda:0: {need < 0.9 * total0}")
# expect: n_params * 0.5 / GiB > 30
# > 257 GiB, 128 GiB, 64 GiB and 32 GiB. Training is far bigger: Adam with mixed precision keeps about
# > 16 bytes per parameter (bf16 weights and gradients, fp32 master weights, two fp32 moments), ~1 TiB - which
# > is why 70B models are trained sharded over dozens of GPUs.

# %% step: A whole training step, estimated
# | Weights are only the start: training also keeps gradients, AdamW's two moments and the activations that
# | backward needs. `devicescope.fits.what_fits` runs a whole training step of a Llama-shaped model on virtual
# | tensors (no bytes, no values) through `devicescope estimate`, on this session's GPUs, and returns each
# | device's peak by category. **View > What fits where** draws the same estimate for any model, strategy
# | (one device, DDP, full sharding) and checkpointing. Here: Llama 1B (1.5 billion parameters), sequence 4096,
# | fully sharded (FSDP) over the GPUs, with and without activation checkpointing.
# ? What does activation checkpointing shrink?
# = the activations kept for backward: each layer's are recomputed in backward instead of stored
# - the optimizer state: AdamW keeps one moment instead of two
# - the parameters: each layer is gathered only while it runs
model.to("cpu")
torch.cuda.empty_cache()
from devicescope import fits

plain = fits.what_fits(model="1b", strategy="fsdp", checkpoint=False)
ckpt = fits.what_fits(model="1b", strategy="fsdp", checkpoint=True)
for label, r in (("without checkpointing", plain), ("with checkpointing", ckpt)):
    d = r["devices"][0]
    print(f"{label}: cuda:0 peak {d['peak_bytes'] / GiB:.1f} GiB in {d['peak_phase']}, "
          f"activations {d['by_category']['activation'] / GiB:.1f} GiB -> {'fits' if r['fits'] else 'out of memory'}")
# expect: plain["error"] is None and ckpt["error"] is None
# expect: ckpt["devices"][0]["by_category"]["activation"] < plain["devices"][0]["by_category"]["activation"] / 2
# expect: ckpt["devices"][0]["peak_bytes"] < plain["devices"][0]["peak_bytes"]
# expect: ckpt["fits"] == (ckpt["oom"] is None)
# > On two simulated 16 GiB GPUs the plain run peaks at about 15 GiB in the first step's backward, most of it
# > activations, and runs out of memory in the second step's forward, once AdamW's state is there too; with
# > checkpointing the peak is about 11 GiB and both steps fit. The parameters, gradients and
# > AdamW state are the same either way: sharding divides those, checkpointing divides the activations.

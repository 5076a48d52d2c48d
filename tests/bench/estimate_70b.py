# Benchmark script for `devicescope estimate` (issue 25; prints what the estimate prints, asserts nothing): a
# Llama-70B-shaped training step - batch 1, sequence 4096, bf16 autocast, AdamW - with full sharding (FSDP2's
# fully_shard per decoder layer and on the root) when torch.distributed's world is larger than one device.
#   build/app/devicescope estimate --devices 8 tests/bench/estimate_70b.py [--checkpoint]
#   build/app/devicescope estimate --devices 1 tests/bench/estimate_70b.py           (one device: out of memory)
# Options: --checkpoint (activation checkpointing per layer), --fused (AdamW(fused=True); foreach by default, whose
# temporaries are as large as all the shards together), --steps N (default 2: the second step has AdamW's
# state), --fp32-params (the weights in float32; default bfloat16 weights, gradients and AdamW state),
# --model 70b|8b|1b|tiny, --layers N, --seq N, --batch N.
# Built on the CPU inside estimate's virtual mode (no bytes); fully_shard puts each rank's shards on its GPU.
import argparse
import os
import sys
import time

import torch
import torch.distributed as dist

# The Llama shapes ship with the app for lesson 019 (assets/lessons/fits); the benchmarks use the same file.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons", "fits"))
from llama_shapes import SHAPES, Llama, train_steps  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="70b", choices=sorted(SHAPES))
    p.add_argument("--layers", type=int, default=None)
    p.add_argument("--seq", type=int, default=4096)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--checkpoint", action="store_true")
    p.add_argument("--fp32-params", action="store_true")
    p.add_argument("--fused", action="store_true", help="AdamW(fused=True): no foreach temporaries")
    a = p.parse_args()
    shape = list(SHAPES[a.model])
    if a.layers is not None:
        shape[2] = a.layers
    world = int(os.environ.get("WORLD_SIZE", "1"))
    t0 = time.perf_counter()
    model = Llama(tuple(shape), checkpointing=a.checkpoint)
    if not a.fp32_params:
        model = model.to(torch.bfloat16)
    if world > 1:
        from torch.distributed.fsdp import fully_shard
        dist.init_process_group("nccl")
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
    else:
        model = model.to("cuda")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True if a.fused else None)
    n = sum(p.numel() for p in model.parameters()) * world
    print(f"{a.model}: {n / 1e9:.2f} B parameters ({shape[2]} layers), world {world}, batch {a.batch}, seq {a.seq}, "
          f"{'fp32' if a.fp32_params else 'bf16'} weights, bf16 autocast, AdamW"
          f"{' (fused)' if a.fused else ' (foreach)'}{', activation checkpointing' if a.checkpoint else ''}")
    train_steps(model, opt, a.batch, a.seq, shape[5], a.steps, "cuda", torch.bfloat16)
    print(f"step(s) done in {time.perf_counter() - t0:.2f} s; max_memory_allocated {torch.cuda.max_memory_allocated()}")


main()

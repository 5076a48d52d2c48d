# Benchmark (prints figures, asserts nothing): a Llama-shaped training step run virtually (issue 25) - inside
# devicescope.virtual_mode() the model, its inputs, activations, gradients and AdamW's state are virtual
# tensors: every allocation and free of the real step, no bytes, no values computed.
#   build/app/devicescope --backend sim --sim-devices 1 --sim-memory 2TiB --link pcie5-x16 \
#       run tests/bench/virtual_step.py -- --model 70b [--checkpoint] [--steps 1] [--seq 4096] [--real]
#       [--layers N] [--vocab N] [--batch N] [--dtype bf16|fp16|fp32] [--json OUT]
# Target (issue 25): the 70B step (batch 1, seq 4096, bf16 autocast, AdamW) in <= 10 s and <= 500 MB RSS.
# --real runs the same step on real tensors (values computed; only for models that fit this machine): the
# agreement of the peaks is checked by tests/bench/virtual_step_agreement.py.
import argparse
import json
import os
import resource
import sys
import time

import devicescope
import torch

# The Llama shapes ship with the app for lesson 019 (assets/lessons/fits); the benchmarks use the same file.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons", "fits"))
from llama_shapes import SHAPES, Llama, train_steps  # noqa: E402


def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="70b", choices=sorted(SHAPES))
    p.add_argument("--layers", type=int, default=None, help="override the layer count")
    p.add_argument("--vocab", type=int, default=None, help="override the vocabulary size")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq", type=int, default=4096)
    p.add_argument("--steps", type=int, default=1)
    p.add_argument("--dtype", default="bf16", choices=["bf16", "fp16", "fp32"], help="autocast dtype (fp32: none)")
    p.add_argument("--checkpoint", action="store_true", help="activation checkpointing per layer")
    p.add_argument("--real", action="store_true", help="real tensors (values computed) instead of virtual")
    p.add_argument("--json", default=None, help="write the figures here")
    a = p.parse_args([x for x in sys.argv[1:] if x != "--"])
    shape = list(SHAPES[a.model])
    if a.layers is not None:
        shape[2] = a.layers
    if a.vocab is not None:
        shape[5] = a.vocab
    autocast = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": None}[a.dtype]
    mode = devicescope.virtual_mode() if not a.real else _NoMode()
    rss0, t0 = rss_mb(), time.perf_counter()
    peaks = []
    with mode:
        model = Llama(tuple(shape), checkpointing=a.checkpoint).to("cuda")
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        t1 = time.perf_counter()
        torch.cuda.reset_peak_memory_stats()

        def on_step(where, i):
            peaks.append((where, i, torch.cuda.max_memory_allocated(), torch.cuda.memory_allocated()))
        train_steps(model, opt, a.batch, a.seq, shape[5], a.steps, "cuda", autocast, on_step)
    t2 = time.perf_counter()
    n = sum(p.numel() for p in model.parameters())
    figures = {"model": a.model, "layers": shape[2], "parameters": n, "batch": a.batch, "seq": a.seq,
               "dtype": a.dtype, "checkpoint": a.checkpoint, "virtual": not a.real, "steps": a.steps,
               "peak": torch.cuda.max_memory_allocated(), "allocated": torch.cuda.memory_allocated(),
               "reserved": torch.cuda.memory_reserved(), "build_s": round(t1 - t0, 2),
               "step_s": round((t2 - t1) / a.steps, 2), "rss_mb": rss_mb(),
               "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, "rss_before_mb": rss0,
               "per_step": peaks}
    print(f"{a.model} ({n / 1e9:.2f} B parameters, {shape[2]} layers), batch {a.batch}, seq {a.seq}, {a.dtype} "
          f"autocast, AdamW{', checkpointing' if a.checkpoint else ''}, {'real' if a.real else 'virtual'}")
    print(f"  build + .to('cuda'): {t1 - t0:.2f} s   step: {(t2 - t1) / a.steps:.2f} s   (target <= 10 s)")
    print(f"  peak allocated {figures['peak']:,} B ({figures['peak'] / 2**30:.2f} GiB), allocated after "
          f"{figures['allocated']:,} B, reserved {figures['reserved']:,} B")
    for where, i, peak, now in peaks:
        print(f"  step {i + 1} after {where}: peak so far {peak:,} B, allocated {now:,} B")
    print(f"  RSS {rss0} MB before, {figures['rss_mb']} MB after, peak {figures['peak_rss_mb']} MB (target <= 500 MB)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(figures, f)


class _NoMode:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


if __name__ == "__main__":
    main()

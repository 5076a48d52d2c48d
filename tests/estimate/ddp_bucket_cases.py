"""DDP's gradient buckets for several parameter lists, printed as JSON; runs unchanged under real PyTorch (1.13+,
CPU, gloo, one rank) and under DeviceScope (`devicescope run`), and check_ddp_buckets.py compares the two.

- assignment: dist._compute_bucket_assignment_by_size for parameter lists of mixed sizes and dtypes, with the
  limits DDP uses ([1 MiB, 25 MiB], [sys.maxsize], other caps) and with tensor_indices (a rebuild's ready order);
- ddp: a DistributedDataParallel's buckets (parameter indices and bytes) when built and after the rebuild that
  follows the first iteration, for several models and bucket_cap_mb values.
"""
import json
import os
import sys

import torch
import torch.distributed as dist
import torch.nn as nn

MiB = 1 << 20
F32, F16, F64 = torch.float32, torch.float16, torch.float64

LISTS = [
    [((1000,), F32), ((300000,), F16), ((10,), F32), ((262144,), F32)],
    [((1024, 1024), F32), ((1024,), F32), ((4096, 1024), F32), ((4096,), F32), ((1024, 4096), F32), ((1024,), F32)],
    [((n * 997,), F32) for n in range(1, 40)],
    [((512, 512), F16), ((512, 512), F32), ((7,), F64), ((2048, 1024), F16), ((3, 3), F32), ((1,), F16)],
    [((262144,), F32)] * 3 + [((1,), F32)],            # exactly at the first bucket's limit
    [((6553600,), F32), ((6553599,), F32), ((2,), F32), ((5, 5, 5), F32)],  # 25 MiB boundaries
]
LIMITS = [[MiB, 25 * MiB], [sys.maxsize], [MiB, 4 * MiB], [100 * 1024], [1, 1]]


def assignments():
    out = []
    for shapes in LISTS:
        tensors = [torch.empty(s, dtype=d) for s, d in shapes]
        for limits in LIMITS:
            idx, lim = dist._compute_bucket_assignment_by_size(tensors, limits)
            out.append({"shapes": [list(s) for s, _ in shapes], "limits": limits, "indices": idx, "limits_out": lim})
        if len({d for _, d in shapes}) == 1:  # ready order given (reducer.cpp keeps its order; one dtype)
            order = list(reversed(range(len(tensors))))
            idx, lim = dist._compute_bucket_assignment_by_size([tensors[i] for i in order], [MiB, 25 * MiB],
                                                               [False] * len(tensors), order)
            out.append({"shapes": [list(s) for s, _ in shapes], "tensor_indices": order, "indices": idx,
                        "limits_out": lim})
    return out


def models():
    torch.manual_seed(0)
    yield "mlp", nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 4096), nn.ReLU(),
                               nn.Linear(4096, 1024)), (8, 1024), None
    yield "mlp_cap5", nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 4096), nn.ReLU(),
                                    nn.Linear(4096, 1024)), (8, 1024), 5
    yield "deep_small", nn.Sequential(*[nn.Linear(300, 300) for _ in range(12)]), (4, 300), None
    yield "no_bias", nn.Sequential(nn.Linear(2048, 2048, bias=False), nn.Linear(2048, 512, bias=False),
                                   nn.Linear(512, 10)), (2, 2048), 2


def layout(ddp, params):
    if hasattr(ddp, "bucket_layout"):  # DeviceScope
        return [[list(i), b] for i, b in ddp.bucket_layout()]
    where = {p.data_ptr(): i for i, p in enumerate(params)}
    out = []
    for b in ddp.reducer._get_zeros_like_grad_buckets():
        out.append([[where[p.data_ptr()] for p in b.parameters()], b.buffer().numel() * b.buffer().element_size()])
    return out


def ddp_layouts():
    out = []
    for name, model, shape, cap in models():
        kwargs = {} if cap is None else {"bucket_cap_mb": cap}  # 1.13 wants a number, 2.x takes None
        ddp = nn.parallel.DistributedDataParallel(model, **kwargs)
        params = list(model.parameters())
        before = layout(ddp, params)
        x = torch.randn(*shape)
        for _ in range(2):
            ddp(x).sum().backward()
        out.append({"model": name, "built": before, "rebuilt": layout(ddp, params)})
    return out


def main():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", sys.argv[1] if len(sys.argv) > 1 else "29613")
    dist.init_process_group("gloo", world_size=1, rank=0)
    print(json.dumps({"first_bucket_bytes": dist._DEFAULT_FIRST_BUCKET_BYTES, "assignments": assignments(),
                      "ddp": ddp_layouts()}))
    dist.destroy_process_group()


main()

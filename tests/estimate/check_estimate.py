#!/usr/bin/python3
"""End to end: `devicescope estimate` (issue 25).

Usage: check_estimate.py DEVICESCOPE_BINARY

- a small training script's estimate (virtual tensors) has the same peak, to the byte, as its real run on
  DeviceScope (`devicescope run`, real tensors, same simulated device) reports as torch.cuda.max_memory_allocated();
- each peak's module x category rows add up to that peak; parameters, gradients, optimizer state and activations
  are where a training step puts them;
- out of memory: exit 3, PyTorch's message, the phase and module where it happened;
- a script that raises: exit 1 and its traceback; a missing file, --devices 0, --backend cuda, --sim-devices: exit 2;
- the README's command lines for estimate run: the Llama-70B-shaped benchmark (tests/bench/estimate_70b.py) with
  full sharding over 8 and 16 devices, with and without activation checkpointing, and on one device; sharding
  divides parameters and AdamW state by the world size; out of memory is reported where it happens;
- DDP and fully_shard runs, and the benchmark's Llama model cut to its tiny shape (full sharding, activation
  checkpointing, bf16 autocast): the estimate (virtual) equals the real run's peak on DeviceScope, to the byte.
Ends with "N passed, M failed"; exits 1 on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile

TIMEOUT_S = 300

TRAIN = """import torch, torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
opt = torch.optim.AdamW(model.parameters())
x = torch.randn(64, 256, device="cuda")
y = torch.randint(0, 10, (64,), device="cuda")
for _ in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
print("MAX", torch.cuda.max_memory_allocated())
"""

BIG = """import torch, torch.nn as nn
model = nn.Sequential(*[nn.Linear(4096, 4096) for _ in range(8)]).cuda()
opt = torch.optim.Adam(model.parameters())
model(torch.randn(16, 4096, device="cuda")).sum().backward()
opt.step()
"""

RAISES = """import torch
x = torch.zeros(4, device="cuda")
raise ValueError("broken on purpose")
"""


def run(binary, args, cwd=None):
    p = subprocess.run([binary] + args, capture_output=True, text=True, timeout=TIMEOUT_S, cwd=cwd,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def case_agrees_with_real_run(binary, tmp):
    script = write(tmp, "train.py", TRAIN)
    code, out, err = run(binary, ["--backend", "sim", "--sim-devices", "1", "--sim-memory", "80GiB", "--link",
                                  "pcie5-x16", "run", script])
    if code != 0:
        return [f"real run: exit {code}: {err[-300:]}"]
    real = int([l for l in out.splitlines() if l.startswith("MAX ")][0].split()[1])
    code, out, err = run(binary, ["estimate", "--json", script])
    if code != 0:
        return [f"estimate: exit {code}: {err[-300:]}"]
    doc = _json(out)
    problems = []
    dev = doc["devices"][0]
    if dev["peak_bytes"] != real:
        problems.append(f"estimate peak {dev['peak_bytes']} != real run's max_memory_allocated {real}")
    if not doc["virtual"] or not doc["fits"] or doc["oom"] is not None:
        problems.append(f"virtual/fits/oom: {doc['virtual']} {doc['fits']} {doc['oom']}")
    if doc["iterations"] != 3:
        problems.append(f"iterations {doc['iterations']}, not 3")
    for key in ("peak", "forward_peak", "backward_peak"):
        rows = dev[key + "_table"]
        total = sum(r["total"] for r in rows)
        if total != dev[key + "_bytes"]:
            problems.append(f"{key}: rows add up to {total}, not {dev[key + '_bytes']}")
        for r in rows:
            if sum(r[c] for c in doc["categories"]) != r["total"]:
                problems.append(f"{key}: row {r['module']} categories do not add up to its total")
    if dev["forward_peak_at"]["phase"] != "forward" or dev["backward_peak_at"]["phase"] != "backward":
        problems.append(f"peak phases: {dev['forward_peak_at']} {dev['backward_peak_at']}")
    fw = {r["module"]: r for r in dev["forward_peak_table"]}
    bw = {r["module"]: r for r in dev["backward_peak_table"]}
    # nn.Linear(256, 512): weight 512x256 fp32 = 524288 bytes, bias 2048: its parameters, its AdamW state (2x).
    first = fw.get("Sequential.0")
    if not first or first["parameter"] != 524288 + 2048 or first["optimizer state"] != 2 * (524288 + 2048):
        problems.append(f"Sequential.0 at the forward peak: {first}")
    if not any(r["activation"] for r in fw.values()):
        problems.append("no activation at the forward peak")
    if not any(r["gradient"] for r in bw.values()):
        problems.append("no gradient at the backward peak")
    if sum(r["cuBLAS workspace"] for r in fw.values()) < 32 << 20:
        problems.append("the sm_90 cuBLAS workspace (32 MiB) is missing at the forward peak")
    return problems


def case_text_output(binary, tmp):
    script = write(tmp, "train.py", TRAIN)
    code, out, err = run(binary, ["estimate", script])
    problems = []
    if code != 0:
        return [f"exit {code}: {err[-300:]}"]
    for fragment in ("cuda:0 peak", "at the forward peak", "at the backward peak", "module", "param", "optim",
                     "fits:", "80.00 GiB"):
        if fragment not in out:
            problems.append(f"{fragment!r} not in the text output")
    return problems


def case_depth(binary, tmp):
    script = write(tmp, "train.py", TRAIN)
    code, out, err = run(binary, ["estimate", "--depth", "1", script])
    if code != 0:
        return [f"exit {code}: {err[-300:]}"]
    problems = []
    if "(modules to depth 1)" not in out:
        problems.append("no '(modules to depth 1)' title")
    rows = [l.split()[0] for l in out.splitlines() if l.startswith("  Sequential")]
    if not rows or any(r != "Sequential" for r in rows):
        problems.append(f"rows not grouped to depth 1: {rows}")
    return problems


def case_out_of_memory(binary, tmp):
    script = write(tmp, "big.py", BIG)
    code, out, err = run(binary, ["estimate", "--sim-memory", "1GiB", script])
    problems = []
    if code != 3:
        problems.append(f"exit {code}, not 3: {err[-300:]}")
    if "OUT OF MEMORY during" not in out or "CUDA out of memory. Tried to allocate" not in out:
        problems.append(f"no OOM report with PyTorch's message: {out[-600:]}")
    code, out, err = run(binary, ["estimate", "--json", "--sim-memory", "1GiB", script])
    doc = _json(out)
    if not doc["oom"] or doc["fits"] or doc["device_capacity_bytes"] != 1 << 30:
        problems.append(f"json oom: {doc['oom']} fits {doc['fits']}")
    elif doc["oom"]["phase"] not in ("setup", "forward", "backward", "optimizer step"):
        problems.append(f"oom phase {doc['oom']['phase']}")
    return problems


def case_errors(binary, tmp):
    problems = []
    script = write(tmp, "raises.py", RAISES)
    code, out, err = run(binary, ["estimate", script])
    if code != 1 or "ValueError: broken on purpose" not in err or "Traceback" not in err:
        problems.append(f"raising script: exit {code}, stderr {err[-300:]!r}")
    for args, fragment in ((["estimate", os.path.join(tmp, "missing.py")], "can't open file"),
                           (["estimate", "--devices", "0", script], "--devices"),
                           (["estimate", "--backend", "cuda", script], "simulated devices"),
                           (["estimate", "--sim-devices", "2", script], "--devices")):
        code, out, err = run(binary, args)
        first = err.splitlines()[0] if err else ""
        if code != 2 or not first.startswith("devicescope: ") or fragment not in first:
            problems.append(f"{args[1:]}: exit {code}, {first!r}")
    return problems


def case_devices(binary, tmp):
    script = write(tmp, "train.py", TRAIN)
    code, out, err = run(binary, ["estimate", "--devices", "2", "--json", script])
    if code != 0:
        return [f"exit {code}: {err[-300:]}"]
    doc = _json(out)
    problems = []
    if doc["world_size"] != 2 or len(doc["devices"]) != 2 or doc["simulated_ranks"] != [0]:
        problems.append(f"world {doc['world_size']}, devices {len(doc['devices'])}, ranks {doc['simulated_ranks']}")
    return problems


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "tests", "bench", "estimate_70b.py")


def _json(out):
    return json.loads(out)  # with --json, stdout is the document alone (the script's prints go to stderr)


def case_readme_70b(binary, tmp):
    problems = []
    # README: `devicescope estimate --devices 8 tests/bench/estimate_70b.py --checkpoint` (and the variants)
    for args, codes, fragment in (
            (["--devices", "8", BENCH, "--checkpoint"], (0, 3), "world size 8"),
            (["--devices", "8", BENCH, "--checkpoint", "--fused"], (0,), "fits:"),
            (["--devices", "8", BENCH], (3,), "OUT OF MEMORY during forward"),
            (["--devices", "16", BENCH, "--checkpoint"], (0, 3), "world size 16"),
            (["--devices", "1", BENCH], (3,), "OUT OF MEMORY during setup")):
        code, out, err = run(binary, ["estimate"] + args, cwd=ROOT)
        if code not in codes or fragment not in out or "cuda:0 peak" not in out:
            problems.append(f"{args}: exit {code}, {fragment!r} in output: {fragment in out}; {err[-300:]}")
    code, out, err = run(binary, ["estimate", "--json", "--devices", "8", BENCH, "--checkpoint"], cwd=ROOT)
    try:
        doc = _json(out)
    except ValueError:
        return problems + [f"--json: exit {code}, no JSON: {out[-300:]} {err[-300:]}"]
    n = float(err.split(" B parameters")[0].split()[-1]) * 1e9  # the script prints "70b: 70.55 B parameters ..."
    split = doc["devices"][0]["peak_by_category"]
    shard = 2 * n / 8  # bf16 weights, world 8
    if not (0.99 * shard <= split["parameter"] <= 1.3 * shard):
        problems.append(f"8 ranks: parameters at the peak {split['parameter']}, a shard is {shard:.0f}")
    if doc["devices"][0]["peak_at"]["phase"] == "optimizer step":
        if abs(split["optimizer state"] - 2 * split["parameter"]) > 0.01 * split["parameter"]:
            problems.append(f"AdamW state {split['optimizer state']} is not twice the shards {split['parameter']}")
    if doc["world_size"] != 8 or len(doc["devices"]) != 8:
        problems.append(f"world {doc['world_size']}, devices {len(doc['devices'])}")
    return problems


DDP_SCRIPT = """import torch, torch.nn as nn, torch.distributed as dist, sys
from torch.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("nccl")
model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 2048), nn.ReLU(), nn.Linear(2048, 16)).cuda()
ddp = DDP(model, gradient_as_bucket_view=sys.argv[1] == "view")
opt = torch.optim.AdamW(ddp.parameters())
x = torch.randn(32, 512, device="cuda")
for _ in range(3):
    ddp(x).sum().backward()
    opt.step()
    opt.zero_grad()
print("MAX", torch.cuda.max_memory_allocated())
"""

FSDP_SCRIPT = """import torch, torch.nn as nn, torch.distributed as dist
from torch.distributed.fsdp import fully_shard
dist.init_process_group("nccl")
class Block(nn.Module):
    def __init__(s, d):
        super().__init__(); s.a = nn.Linear(d, 4 * d); s.b = nn.Linear(4 * d, d)
    def forward(s, x): return x + s.b(torch.relu(s.a(x)))
class Net(nn.Module):
    def __init__(s, d=256, n=3):
        super().__init__(); s.inp = nn.Linear(d, d); s.layers = nn.ModuleList(Block(d) for _ in range(n))
        s.out = nn.Linear(d, 10)
    def forward(s, x):
        x = s.inp(x)
        for l in s.layers: x = l(x)
        return s.out(x)
m = Net()
for l in m.layers: fully_shard(l)
fully_shard(m)
opt = torch.optim.AdamW(m.parameters())
x = torch.randn(16, 256, device="cuda")
for _ in range(2):
    m(x).sum().backward(); opt.step(); opt.zero_grad()
print("MAX", torch.cuda.max_memory_allocated())
"""


MP_SCRIPT = """import torch, torch.nn as nn, torch.distributed as dist
from torch.distributed.fsdp import fully_shard, MixedPrecisionPolicy
dist.init_process_group("nccl")
mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
m = nn.Sequential(*[nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Linear(1024, 256)) for _ in range(3)])
for l in m: fully_shard(l, mp_policy=mp)
fully_shard(m, mp_policy=mp)
opt = torch.optim.AdamW(m.parameters())
x = torch.randn(16, 256, device="cuda")
for _ in range(2):
    m(x).float().sum().backward(); opt.step(); opt.zero_grad()
print("MAX", torch.cuda.max_memory_allocated())
"""


def _real_peak(binary, script, args, devices):
    env = dict(os.environ, WORLD_SIZE=str(devices), RANK="0", LOCAL_RANK="0")
    p = subprocess.run([binary, "--backend", "sim", "--sim-devices", str(devices), "--sim-memory", "80GiB",
                        "--link", "pcie5-x16", "run", script] + args, capture_output=True, text=True,
                       timeout=TIMEOUT_S, env=env, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        return None, p.stderr[-400:]
    return int([l for l in p.stdout.splitlines() if l.startswith("MAX ")][0].split()[1]), ""


def case_ddp_fsdp_agree_with_real_runs(binary, tmp):
    problems = []
    ddp = write(tmp, "ddp.py", DDP_SCRIPT)
    fsdp = write(tmp, "fsdp.py", FSDP_SCRIPT)
    mixed = write(tmp, "fsdp_mp.py", MP_SCRIPT)
    for script, args, devices in ((ddp, ["view"], 2), (ddp, ["copy"], 2), (fsdp, [], 4), (mixed, [], 4)):
        real, err = _real_peak(binary, script, args, devices)
        if real is None:
            problems.append(f"{os.path.basename(script)} {args}: real run failed: {err}")
            continue
        code, out, err = run(binary, ["estimate", "--json", "--devices", str(devices), script] + args)
        if code != 0:
            problems.append(f"{os.path.basename(script)} {args}: estimate exit {code}: {err[-300:]}")
            continue
        doc = _json(out)
        peak = doc["devices"][0]["peak_bytes"]
        if peak != real:
            problems.append(f"{os.path.basename(script)} {args}: estimate {peak} != real run {real}")
    # gradient_as_bucket_view keeps one copy of the gradients, without it two (.grad and the buckets)
    code_v, out_v, _ = run(binary, ["estimate", "--json", "--devices", "2", ddp, "view"])
    code_c, out_c, _ = run(binary, ["estimate", "--json", "--devices", "2", ddp, "copy"])
    if code_v == 0 and code_c == 0:
        # at the optimizer step (the peak of both): every gradient exists, once or twice
        dv, dc = _json(out_v)["devices"][0], _json(out_c)["devices"][0]
        if dv["peak_at"]["phase"] != "optimizer step" or dc["peak_at"]["phase"] != "optimizer step":
            problems.append(f"DDP peaks not at the optimizer step: {dv['peak_at']} {dc['peak_at']}")
        else:
            params = dv["peak_by_category"]["parameter"]
            grad_v, grad_c = dv["peak_by_category"]["gradient"], dc["peak_by_category"]["gradient"]
            if grad_v != params or grad_c != 2 * params:
                problems.append(f"bucket views: gradients {grad_v} (view), {grad_c} (copy), parameters {params}")
    else:
        problems.append(f"DDP estimates: exit {code_v} (view), {code_c} (copy)")
    return problems


def case_llama_agrees_with_real_runs(binary, tmp):
    """The benchmark's model cut to its tiny shape: full sharding over 4 ranks (with and without activation
    checkpointing) and one device, bf16 weights under bf16 autocast: estimate == the real run, to the byte."""
    problems = []
    for devices, extra in ((4, []), (4, ["--checkpoint"]), (1, ["--checkpoint"])):
        args = [BENCH, "--model", "tiny", "--seq", "128"] + extra
        env = dict(os.environ, WORLD_SIZE=str(devices), RANK="0", LOCAL_RANK="0")
        p = subprocess.run([binary, "--backend", "sim", "--sim-devices", str(devices), "--sim-memory", "80GiB",
                            "--link", "pcie5-x16", "run"] + args, capture_output=True, text=True, timeout=TIMEOUT_S,
                           env=env, stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            problems.append(f"{devices} {extra}: real run exit {p.returncode}: {p.stderr[-300:]}")
            continue
        real = int(p.stdout.split("max_memory_allocated ")[1].split()[0])
        code, out, err = run(binary, ["estimate", "--json", "--devices", str(devices)] + args)
        if code != 0:
            problems.append(f"{devices} {extra}: estimate exit {code}: {err[-300:]}")
            continue
        peak = _json(out)["devices"][0]["peak_bytes"]
        if peak != real:
            problems.append(f"{devices} {extra}: estimate {peak} != real run {real}")
    return problems


LAYOUT_SCRIPT = """import json, os, torch, torch.nn as nn, torch.distributed as dist
from torch.distributed.fsdp import fully_shard
dist.init_process_group("nccl")
out = []
for dim0, dim1 in ((10, 3), (8, 5), (1, 7), (13, 1), (4096, 2)):
    m = nn.Linear(dim1, dim0)
    fully_shard(m)
    out.append([dim0, dim1, list(m.weight.shape), list(m.bias.shape)])
print(json.dumps(out))
"""


def case_fsdp_shard_layout(binary, tmp):
    """fully_shard's shards: dim 0 chunked as torch.chunk does (real torch 1.13 computes the expected rows)."""
    script = write(tmp, "layout.py", LAYOUT_SCRIPT)
    problems = []
    for world in (2, 3, 4, 8):
        env = dict(os.environ, WORLD_SIZE=str(world), RANK="0")
        p = subprocess.run([binary, "--backend", "sim", "--sim-devices", "1", "run", script], capture_output=True,
                           text=True, timeout=TIMEOUT_S, env=env, stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            problems.append(f"world {world}: exit {p.returncode}: {p.stderr[-300:]}")
            continue
        got = json.loads(p.stdout)
        code = ("import json, sys, torch; w = int(sys.argv[1]); print(json.dumps([[d0, d1, "
                "list(torch.chunk(torch.empty(d0, d1), w)[0].shape), list(torch.chunk(torch.empty(d0), w)[0].shape)] "
                "for d0, d1, _, _ in json.loads(sys.argv[2])]))")
        real = subprocess.run(["/usr/bin/python3", "-c", code, str(world), json.dumps(got)], capture_output=True,
                              text=True, timeout=TIMEOUT_S)
        if real.returncode != 0:
            problems.append(f"real torch: {real.stderr[-300:]}")
            continue
        if json.loads(real.stdout) != got:
            problems.append(f"world {world}: shards {got}, torch.chunk's first chunks {real.stdout.strip()}")
    return problems


CASES = [case_agrees_with_real_run, case_fsdp_shard_layout, case_llama_agrees_with_real_runs, case_depth, case_readme_70b, case_ddp_fsdp_agree_with_real_runs, case_text_output, case_out_of_memory, case_errors, case_devices]


def main():
    binary = sys.argv[1]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            problems = case(binary, tmp)
            if problems:
                failed += 1
                print(f"FAIL {case.__name__}")
                for p in problems:
                    print("   ", p)
            else:
                passed += 1
                print(f"ok   {case.__name__}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

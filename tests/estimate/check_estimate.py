#!/usr/bin/python3
"""End to end: `devicescope estimate` (issue 25).

Usage: check_estimate.py DEVICESCOPE_BINARY

- a small training script's estimate (virtual tensors) has the same peak, to the byte, as its real run on
  DeviceScope (`devicescope run`, real tensors, same simulated device) reports as torch.cuda.max_memory_allocated();
- each peak's module x category rows add up to that peak; parameters, gradients, optimizer state and activations
  are where a training step puts them;
- out of memory: exit 3, PyTorch's message, the phase and module where it happened;
- a script that raises: exit 1 and its traceback; a missing file, --devices 0, --backend cuda, --sim-devices: exit 2;
- the README's command lines for estimate run.
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
    doc = json.loads(out[out.index("{"):])
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


def case_out_of_memory(binary, tmp):
    script = write(tmp, "big.py", BIG)
    code, out, err = run(binary, ["estimate", "--sim-memory", "1GiB", script])
    problems = []
    if code != 3:
        problems.append(f"exit {code}, not 3: {err[-300:]}")
    if "OUT OF MEMORY during" not in out or "CUDA out of memory. Tried to allocate" not in out:
        problems.append(f"no OOM report with PyTorch's message: {out[-600:]}")
    code, out, err = run(binary, ["estimate", "--json", "--sim-memory", "1GiB", script])
    doc = json.loads(out[out.index("{"):])
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
    doc = json.loads(out[out.index("{"):])
    problems = []
    if doc["world_size"] != 2 or len(doc["devices"]) != 2 or doc["simulated_ranks"] != [0]:
        problems.append(f"world {doc['world_size']}, devices {len(doc['devices'])}, ranks {doc['simulated_ranks']}")
    return problems


CASES = [case_agrees_with_real_run, case_text_output, case_out_of_memory, case_errors, case_devices]


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

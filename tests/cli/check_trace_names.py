#!/usr/bin/python3
"""End to end: `devicescope run --trace/--csv` names storages and copies as the window and _dump_snapshot do.

Usage: check_trace_names.py DEVICESCOPE_BINARY

Trains a small CNN with Adam the way tutorials write it (`model = Net().to(device)`, so the model has no
variable name while it moves), dumps a memory snapshot at the end and loads a checkpoint onto the GPU
(map_location="cuda:0"). Then, in the recording (Note [Names in exports], engine/trace/export_names.h):
- every name the snapshot's owner frames give a live block is in the trace, with the full module path
  (model.conv2.weight, model.conv2.weight.grad, Adam.state[N].exp_avg), and no bare "conv2.weight";
- each storage carries one name in all its events (its alloc too, which came before any tag), and the
  gradients zero_grad() freed at every step are named after their parameter;
- `inspect` lists the parameters and the optimizer state among the largest owners, by those names;
- the CSV and the trace name the model's host-to-device copies model.<path>, the same in both;
- torch.load(map_location="cuda:0") shows its host-to-device copies, one per storage.
Ends with "N passed, M failed"; exits 1 on any failure.
"""
import csv
import json
import os
import pickle
import subprocess
import sys
import tempfile

from checklist import TIMEOUT_S, report_checks, run_script


SCRIPT = """import io
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.conv2 = nn.Conv2d(4, 8, 3)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(x.flatten(1))


device = "cuda"
model = Net().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    x = torch.randn(16, 1, 8, 8).to(device)
    y = torch.randint(0, 10, (16,)).to(device)
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
torch.cuda.memory._dump_snapshot("snap.pickle")
buf = io.BytesIO()
torch.save({"w": torch.ones(256), "b": torch.zeros(64)}, buf)
buf.seek(0)
restored = torch.load(buf, map_location="cuda:0")
print("done")
"""


def snapshot_owner_names(path):
    """The owner names _dump_snapshot gave the live blocks (DeviceScope's owner frame, first in frames)."""
    with open(path, "rb") as f:
        snap = pickle.load(f)
    names = set()
    for seg in snap["segments"]:
        for b in seg["blocks"]:
            frames = b.get("frames") or []
            if b["state"] == "active_allocated" and frames and frames[0]["filename"].startswith("<devicescope "):
                names.add(frames[0]["name"])
    return names


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    checks = []
    with tempfile.TemporaryDirectory() as tmp:
        p = run_script(binary, tmp, SCRIPT, ["--trace", "t.json", "--csv", "t.csv"])
        if p.returncode != 0 or "done" not in p.stdout:
            print(f"FAIL the run: exit {p.returncode}\n{p.stderr[-2000:]}")
            print("0 passed, 1 failed")
            return 1
        with open(os.path.join(tmp, "t.json")) as f:
            trace = json.load(f)
        with open(os.path.join(tmp, "t.csv")) as f:
            rows = list(csv.DictReader(f))
        snap_names = snapshot_owner_names(os.path.join(tmp, "snap.pickle"))
        inspect = subprocess.run([binary, "inspect", "--json", "t.json"], cwd=tmp, capture_output=True, text=True,
                                 timeout=TIMEOUT_S)
        report = json.loads(inspect.stdout) if inspect.returncode == 0 else {"top_owners": []}

    events = trace["devicescopeEvents"]
    labels = {e[7] for e in events if e[1] in ("alloc", "free") and e[7]}

    wanted = {"model.conv2.weight", "model.conv2.weight.grad", "model.fc.bias", "Adam.state[0].exp_avg"}
    missing = sorted((snap_names | wanted) - labels)
    checks.append(("the snapshot's owner names are the trace's", missing == [] and wanted <= snap_names,
                   f"missing from the trace: {missing}; snapshot names {sorted(snap_names)[:12]}"))
    bare = sorted(l for l in labels if l.split(".")[0] in ("conv1", "conv2", "fc"))
    checks.append(("no module path without model.", not bare, f"bare names: {bare}"))

    by_storage = {}
    for e in events:
        if e[1] in ("alloc", "free"):
            by_storage.setdefault(e[4], set()).add(e[7])
    split = {sid: sorted(n) for sid, n in by_storage.items() if len(n) > 1}
    checks.append(("one name per storage in all its events", not split, f"storages with several names: {split}"))
    param_allocs = [e for e in events if e[1] == "alloc" and e[7] == "model.conv2.weight"]
    checks.append(("a parameter's alloc is named", len(param_allocs) >= 1, "no alloc event named model.conv2.weight"))

    # zero_grad() sets the gradients to None (PyTorch 2's default): each step's gradient is a new storage,
    # freed by the next step, and each one is named after its parameter.
    grad_allocs = [e for e in events if e[1] == "alloc" and e[7] == "model.fc.weight.grad"]
    checks.append(("each step's freed gradient is named", len(grad_allocs) == 3,
                   f"{len(grad_allocs)} allocs named model.fc.weight.grad, not 3 (one per step)"))

    top = {o["owner"] for o in report["top_owners"]}
    checks.append(("inspect names the largest owners", {"model.fc.weight"} <= top and any(
        o.startswith("Adam.state[") for o in top), f"inspect's top owners: {sorted(top)}"))

    csv_h2d = {r["owner"] for r in rows if r["src"] == "pageable" and r["dst"].startswith("cuda")}
    trace_h2d = {e["name"][4:] for e in trace["traceEvents"] if e.get("cat") == "transfer" and e["name"].startswith("H2D ")}
    model_copies = {f"model.{m}.{p}" for m in ("conv1", "conv2", "fc") for p in ("weight", "bias")}
    checks.append(("copies named model.<path> in the CSV and the trace", model_copies <= csv_h2d and model_copies <= trace_h2d,
                   f"CSV owners {sorted(csv_h2d)}; trace names {sorted(trace_h2d)}"))

    load_copies = [r for r in rows if r["src"] == "pageable" and r["dst"] == "cuda:0" and r["bytes"] in ("1024", "256")]
    checks.append(("torch.load onto cuda:0 copies each storage", sorted(r["bytes"] for r in load_copies) == ["1024", "256"],
                   f"copies of 1024 and 256 bytes: {[(r['bytes'], r['owner']) for r in load_copies]}"))

    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())

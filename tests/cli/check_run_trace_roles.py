#!/usr/bin/python3
"""End to end: a `devicescope run --trace` file carries its storages' roles, and the app colours it by them.

Usage: check_run_trace_roles.py DEVICESCOPE_BINARY

Trains a small MLP with a BatchNorm and Adam for three steps, then:
- the trace's "devicescopeRecorder" object has "storage_roles", as `devicescope record` writes it, and each
  storage's role follows from its name: model.* parameters "parameter", running stats "buffer", every step's
  .grad "gradient" (also the ones zero_grad freed before the export), Adam.state "optimizer-state" and the
  cuBLAS workspaces "workspace";
- opened back in the app (`--open-trace t.json --screenshot`, under xvfb-run), the cuda:0 pane counts blocks
  by those roles, not all as "tensor" (skipped, with a note, where xvfb-run is missing).
Ends with "N passed, M failed"; exits 1 on any failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from checklist import TIMEOUT_S, report_checks, run_script


SCRIPT = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.bn = nn.BatchNorm1d(64)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc(F.relu(self.bn(self.fc1(x))))


model = Net().to("cuda")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    x = torch.randn(16, 32).to("cuda")
    y = torch.randint(0, 10, (16,)).to("cuda")
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
print("done")
"""


def expected_role(name):
    """The role a storage named `name` has, or None where its name does not say."""
    if name.endswith(".grad"):
        return "gradient"
    if name.startswith("Adam.state["):
        return "optimizer-state"
    if name in ("model.bn.running_mean", "model.bn.running_var", "model.bn.num_batches_tracked"):
        return "buffer"
    if name.startswith("model."):
        return "parameter"
    if name.endswith("workspace"):
        return "workspace"
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    checks = []
    with tempfile.TemporaryDirectory() as tmp:
        p = run_script(binary, tmp, SCRIPT, ["--trace", "t.json"])
        if p.returncode != 0 or "done" not in p.stdout:
            print(f"FAIL the run: exit {p.returncode}\n{p.stderr[-2000:]}")
            print("0 passed, 1 failed")
            return 1
        with open(os.path.join(tmp, "t.json")) as f:
            trace = json.load(f)

        roles = trace.get("devicescopeRecorder", {}).get("storage_roles", {})
        names = {}
        for e in trace["devicescopeEvents"]:
            if e[1] in ("alloc", "free") and e[7]:
                names[str(e[4])] = e[7]
        checks.append(("the trace has storage_roles", bool(roles), "no devicescopeRecorder.storage_roles"))
        wrong = sorted((name, roles.get(sid, "tensor"), expected_role(name)) for sid, name in names.items()
                       if expected_role(name) and roles.get(sid, "tensor") != expected_role(name))
        checks.append(("each named storage has the role its name says", not wrong, f"(name, role, expected): {wrong[:10]}"))
        freed = {e[4] for e in trace["devicescopeEvents"] if e[1] == "free"}
        freed_grads = [sid for sid, name in names.items() if name == "model.fc.weight.grad" and int(sid) in freed]
        checks.append(("gradients freed before the export keep their role",
                       len(freed_grads) == 2 and all(roles.get(s) == "gradient" for s in freed_grads),
                       f"freed model.fc.weight.grad storages {freed_grads}, roles {[roles.get(s) for s in freed_grads]}"))
        for role in ("parameter", "buffer", "gradient", "optimizer-state", "workspace"):
            checks.append((f"some storage is a {role}", role in roles.values(), f"roles present: {sorted(set(roles.values()))}"))

        # Opened back: the app's Memory view counts the cuda:0 blocks by role (legend labels).
        if shutil.which("xvfb-run"):
            png = os.path.join(tmp, "opened.png")
            view = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1920x1200x24", binary, "--open-trace", "t.json",
                                   "--screenshot", png, "--size", "1600x1000"], cwd=tmp, capture_output=True,
                                  text=True, timeout=TIMEOUT_S)
            try:
                with open(png + ".json") as f:
                    vm = json.load(f)
            except OSError:
                vm = {"panes": []}
            pane = next((p for p in vm["panes"] if p["place"] == "cuda:0"), {})
            got = pane.get("roles", {})
            want = {"parameter", "buffer", "gradient", "optimizer state", "library workspace (cuBLAS)"}
            checks.append(("the opened trace is coloured by role", view.returncode == 0 and want <= set(got),
                           f"exit {view.returncode}; cuda:0 roles {got}\n{view.stderr[-1000:]}"))
        else:
            print("skip the opened trace in the app: no xvfb-run")

    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Checkpoints move between DeviceScope and real PyTorch both ways: a state dict (Linear + BatchNorm, fp16,
bf16, int, bool, a transposed view, a Parameter) saved by one is loaded by the other (weights_only=True) and
must print exactly what real PyTorch prints loading its own file.

Usage: check_checkpoint_interop.py DEVICESCOPE_BINARY      (exit 77 when real torch is missing, unless CI is set)
"""
import os
import subprocess
import sys
import tempfile

REF = os.environ.get("DEVICESCOPE_REF_PYTHON", "/usr/bin/python3")
SAVE = '''
import sys, torch
from torch import nn
m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
with torch.no_grad():
    m[0].weight.copy_(torch.arange(6.0).reshape(2, 3) / 4)
    m[0].bias.fill_(-1.5)
    m[1].running_mean.fill_(0.25)
obj = {"model": m.state_dict(), "epoch": 7, "t": torch.arange(12.0).reshape(3, 4).t(),
       "h": torch.tensor([1.5, -2.25], dtype=torch.float16), "b": torch.tensor([3.0, -0.5], dtype=torch.bfloat16),
       "i": torch.tensor([[1, -2]], dtype=torch.int32), "mask": torch.tensor([True, False]),
       "p": nn.Parameter(torch.tensor([1.0, 2.0]))}
torch.save(obj, sys.argv[1])
'''
LOAD = '''
import sys, torch
o = torch.load(sys.argv[1], weights_only=True)
for k, v in o["model"].items():
    print(k, v.dtype, tuple(v.shape), v.tolist())
for k in ("epoch", "t", "h", "b", "i", "mask", "p"):
    print(k, repr(o[k]))
'''


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd="/",
                       env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    if p.returncode != 0:
        print(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stderr[-2000:]}")
        sys.exit(1)
    return p.stdout


def main():
    ds = os.path.abspath(sys.argv[1])
    if subprocess.run([REF, "-c", "import torch"], capture_output=True, cwd="/").returncode != 0:
        print("real torch missing")
        return 1 if os.environ.get("CI") else 77
    with tempfile.TemporaryDirectory() as d:
        save, load = os.path.join(d, "save.py"), os.path.join(d, "load.py")
        open(save, "w").write(SAVE)
        open(load, "w").write(LOAD)
        real_ckpt, ds_ckpt = os.path.join(d, "real.pt"), os.path.join(d, "ds.pt")
        run([REF, save, real_ckpt])
        run([ds, "run", save, "--", ds_ckpt])
        expected = run([REF, load, real_ckpt])
        ok = True
        for label, out in (("real torch loads DeviceScope's file", run([REF, load, ds_ckpt])),
                           ("DeviceScope loads real torch's file", run([ds, "run", load, "--", real_ckpt]))):
            same = out == expected
            ok &= same
            print(("ok   " if same else "FAIL ") + label)
            if not same:
                print("  expected:\n" + expected + "  got:\n" + out)
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

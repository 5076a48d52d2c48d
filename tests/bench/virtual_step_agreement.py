#!/usr/bin/python3
"""Issue 25's 1B check: a Llama-shaped training step (tests/bench/virtual_step.py) run on real tensors and run
virtually must give the same peak to the byte - and the same allocated / reserved, after every backward and
every optimizer step. Prints both runs' figures; exits 1 if they differ.

  tests/bench/virtual_step_agreement.py build/app/devicescope --model 1b --layers 2 --vocab 32000 --seq 256

Every argument after the binary goes to virtual_step.py (both runs). The real side computes every value on
this machine's CPU, so it is run at the size that fits (see the README's benchmark table); the virtual side
alone runs at any size."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ("peak", "allocated", "reserved", "per_step")


def run(binary, args, real):
    with tempfile.TemporaryDirectory(prefix="ds_vstep_") as tmp:
        out = os.path.join(tmp, "figures.json")
        cmd = [binary, "--backend", "sim", "--sim-devices", "1", "--sim-memory", "4TiB", "--link", "pcie5-x16",
               "run", os.path.join(HERE, "virtual_step.py"), "--"] + args + ["--json", out]
        cmd += ["--real"] if real else []
        p = subprocess.run(cmd, capture_output=True, text=True)
        sys.stdout.write(p.stdout)
        if p.returncode != 0 or not os.path.exists(out):
            sys.stdout.write(p.stderr[-3000:])
            raise SystemExit(f"{'real' if real else 'virtual'} run failed ({p.returncode})")
        with open(out) as f:
            return json.load(f)


def main():
    binary, args = sys.argv[1], sys.argv[2:]
    real, virt = run(binary, args, True), run(binary, args, False)
    differ = [k for k in KEYS if real[k] != virt[k]]
    print(f"real step {real['step_s']} s, virtual step {virt['step_s']} s; peak real {real['peak']:,} B, "
          f"virtual {virt['peak']:,} B")
    if differ:
        for k in differ:
            print(f"DIFFERS: {k}: real {real[k]}, virtual {virt[k]}")
        return 1
    print("same peak, allocated and reserved after every backward and optimizer step")
    return 0


if __name__ == "__main__":
    sys.exit(main())

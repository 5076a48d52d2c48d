#!/usr/bin/env python3
"""Benchmark (prints figures, asserts nothing): `devicescope record`'s recorder against the same training loop
run without it, both as child processes of this one under the same interpreter (Debian's CPU-only PyTorch in CI).
Each configuration runs alternately recorded / unrecorded REPEAT times; the ratios are of the medians of the
loop's own time (record/training_loop.py), wall clock and the process's CPU time (the steadier figure on a
loaded machine). Target (issues 16, 22): <= 1.5x on the 4 x 128 MLP; the tiny 4 x 32 case shows the per-op cost.

  tests/bench/record_overhead.py [--python /usr/bin/python3] [--repeat 3]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDER = os.path.join(HERE, "..", "..", "engine", "recorder")
LOOP = os.path.join(HERE, "record", "training_loop.py")
# (label, width, batch, steps, layers): a small MLP training loop, and tiny tensors where Python's per-op cost shows.
CONFIGS = [("MLP 4 x 512, batch 64 (training loop)", 512, 64, 10, 4),
           ("MLP 4 x 128, batch 32", 128, 32, 50, 4),
           ("tiny: MLP 4 x 32, batch 8 (per-op overhead)", 32, 8, 200, 4)]


def loop_seconds(python, recorded, config, out):
    _, width, batch, steps, layers = config
    args = [LOOP, str(width), str(batch), str(steps), str(layers)]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if recorded:
        env["PYTHONPATH"] = RECORDER
        cmd = [python, "-m", "devicescope_recorder", "--out", out, "--"] + args
    else:
        cmd = [python] + args
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    words = run.stdout.split()
    return float(words[words.index("loop_seconds") + 1]), float(words[words.index("loop_cpu_seconds") + 1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "loop.json")
        for config in CONFIGS:
            plain, recorded = [], []
            for _ in range(args.repeat):
                plain.append(loop_seconds(args.python, False, config, out))
                recorded.append(loop_seconds(args.python, True, config, out))
            p, r = (statistics.median(t[0] for t in plain), statistics.median(t[0] for t in recorded))
            pc, rc = (statistics.median(t[1] for t in plain), statistics.median(t[1] for t in recorded))
            size = os.path.getsize(out)
            print("%-45s unrecorded %7.1f ms  recorded %7.1f ms  ratio %.2fx  | CPU time %7.1f / %7.1f ms  "
                  "ratio %.2fx  (recording %d KiB)" % (config[0], p * 1e3, r * 1e3, r / p, pc * 1e3, rc * 1e3,
                                                       rc / pc, size // 1024))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

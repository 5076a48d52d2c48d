#!/usr/bin/python3
"""End to end: a recording cut short or corrupted is refused by the app with a clear message, never shown half.

Usage: open_trace_refused.py DEVICESCOPE_BINARY   (a build with the GUI; runs it under xvfb-run)

Records a real run (`devicescope run --trace --csv`), then opens the complete files and damaged copies with
`devicescope --open-trace FILE --screenshot OUT.png`: complete files open (exit 0); truncated, empty, foreign
and binary files exit 2 with "devicescope: FILE: not a DeviceScope trace: ..." (a folder without RUN.rankN recordings: "no per-rank recordings").
Ends with "N passed, M failed".
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from xvfb import run_under_xvfb  # noqa: E402

SCRIPT = """import torch
from torch import nn
m = nn.Sequential(nn.Linear(8, 4), nn.BatchNorm1d(4)).to('cuda')
x = torch.randn(16, 8).pin_memory().to('cuda', non_blocking=True)
y = m(x).cpu()
"""


def open_trace(binary, path, out):
    cmd = [binary, "--backend", "sim", "--open-trace", path, "--screenshot", os.path.join(out, "shot.png"),
           "--size", "800x600"]
    p = run_under_xvfb(cmd, timeout=300)
    return p.returncode, p.stderr


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="ds_open_trace_") as out:
        script = os.path.join(out, "record.py")
        with open(script, "w") as f:
            f.write(SCRIPT)
        trace, csv = os.path.join(out, "full.json"), os.path.join(out, "full.csv")
        p = subprocess.run([binary, "--backend", "sim", "run", "--trace", trace, "--csv", csv, script],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            print(f"FAIL recording: exit {p.returncode}\n{p.stderr}\n0 passed, 1 failed")
            return 1
        cases = [("complete trace", trace, None), ("complete csv", csv, None)]
        for name, full in (("trace", trace), ("csv", csv)):
            data = open(full, "rb").read()
            for frac in (0.1, 0.5, 0.99):
                cut = os.path.join(out, f"cut_{int(frac * 100)}_{os.path.basename(full)}")
                with open(cut, "wb") as f:
                    f.write(data[:max(1, int(len(data) * frac))] if name == "trace" else
                            data[:max(1, int(len(data) * frac))].rstrip(b"\n") + b",")
                cases.append((f"{name} cut at {int(frac * 100)}%", cut, "not a DeviceScope trace"))
        extra = {"empty.json": b"", "foreign.json": b'{"traceEvents": [], "metadata": {"producer": "other"}}',
                 "binary.json": bytes(range(256)) * 8, "spaces.csv": b"   \n\n"}
        for fname, content in extra.items():
            path = os.path.join(out, fname)
            with open(path, "wb") as f:
                f.write(content)
            cases.append((fname, path, "not a DeviceScope trace"))
        # A folder opens as the per-rank recordings of one torchrun job; one without them is refused.
        cases.append(("a folder", out, "no per-rank recordings"))
        for name, path, want in cases:
            rc, err = open_trace(binary, path, out)
            ok = rc == 0 if want is None else rc == 2 and err.startswith("devicescope: ") and path in err and want in err
            print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {rc}" + ("" if ok else f"\n  stderr: {err.strip()[-400:]}"),
                  flush=True)
            passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

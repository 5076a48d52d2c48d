#!/usr/bin/python3
"""Issue 25's agreement check: a program's virtual run (devicescope.virtual_mode(): no bytes, no values)
makes exactly the allocations of its real run on DeviceScope. Each program runs twice on a simulated sm_90
device (run_recorded.py, once with --virtual) and the two records must be equal:
  - the allocator's event log, event for event: action (alloc, free, segment alloc/free) and size;
  - memory_allocated / max_memory_allocated / memory_reserved after every optimizer step and at the end;
  - each segment's size, and the block sizes and states of the final snapshot.
Addresses are not compared: the simulated device's real segments are host memory and virtual ones are
placeholders, and the allocator's best fit breaks ties between equal free blocks by address, so a block may
land in another segment of the same pool (as on a real GPU, where cudaMalloc's addresses vary run to run).

Usage: compare_virtual.py DEVICESCOPE_BINARY PROGRAM [PROGRAM ...]
Prints one line per program and the first difference of a failing one; exits 1 if any differs."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def record(binary, program, virtual):
    with tempfile.TemporaryDirectory(prefix="ds_virtual_") as tmp:
        out = os.path.join(tmp, "rec.json")
        cmd = [binary, "run", "--backend", "sim", "--sim-devices", "1", "--link", "pcie5-x16",
               os.path.join(HERE, "run_recorded.py"), program, out] + (["--virtual"] if virtual else [])
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if p.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"devicescope run failed ({p.returncode}): {p.stderr[-1500:]}")
        with open(out) as f:
            return json.load(f)


def normalized(trace):
    """The trace without addresses (see above)."""
    return [(action, size) for action, size, _ in trace]


def first_difference(real, virt):
    """None when the two records agree, else a sentence naming the first difference."""
    for name, rec in (("real", real), ("virtual", virt)):
        if rec["error"]:
            return f"the {name} run raised:\n" + "\n".join(rec["error"].splitlines()[-8:])
    rt, vt = normalized(real["trace"]), normalized(virt["trace"])
    for i, (a, b) in enumerate(zip(rt, vt)):
        if a != b:
            return f"event {i}: real {a}, virtual {b}"
    if len(rt) != len(vt):
        return f"event counts differ: real {len(rt)}, virtual {len(vt)}"
    if real["steps"] != virt["steps"]:
        for a, b in zip(real["steps"], virt["steps"]):
            if a != b:
                return f"figures differ: real {a}, virtual {b}"
        return f"step counts differ: real {len(real['steps'])}, virtual {len(virt['steps'])}"
    # (segments in address order: virtual placeholders are ordered otherwise, so compare them as a multiset)
    strip = [sorted((s["total_size"], sorted(s["blocks"])) for s in rec["segments"]) for rec in (real, virt)]
    if strip[0] != strip[1]:
        return "final segments differ"
    return None


def main():
    binary, programs = sys.argv[1], sys.argv[2:]
    failed = 0
    for program in programs:
        real, virt = record(binary, program, False), record(binary, program, True)
        diff = first_difference(real, virt)
        end = real["steps"][-1]
        name = os.path.basename(program)
        if diff is None:
            print(f"{name}: same {len(real['trace'])} allocator events, {len(real['steps']) - 1} steps; "
                  f"allocated {end['allocated']}, peak {end['peak']}, reserved {end['reserved']}")
        else:
            failed += 1
            print(f"{name}: DIFFERS - {diff}")
    print(f"{len(programs) - failed} agreed, {failed} differed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

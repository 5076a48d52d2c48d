#!/usr/bin/python3
"""ctest snapshot_hostile: `devicescope inspect` on hostile pickles. Each must be refused with exit 2,
one clear line on stderr naming what is wrong, nothing on stdout, no crash and no code run:
  - code-running __reduce__ (os.system) through GLOBAL (protocols 0 and 2) and STACK_GLOBAL (4), each
    with a control showing Python's own pickle.load does run it;
  - every prefix of a small snapshot (truncated at every offset);
  - a list nested 100,000 deep (no stack overflow), a BINUNICODE8 claiming 2**60 bytes, a BINGET of a
    memo index never stored, an empty file, a torch.save zip.

    check_hostile_pickles.py DEVICESCOPE WORK_DIR
"""
import io
import os
import pickle
import shutil
import struct
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def inspect(ds, path):
    p = subprocess.run([ds, "inspect", path], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def refused(ds, path, says, label):
    rc, out, err = inspect(ds, path)
    lines = err.strip().splitlines()
    check(rc == 2 and out == "" and len(lines) == 1 and says in err,
          f"{label}: rc {rc}, stdout {out[:80]!r}, stderr {err.strip()[:300]!r} (wanted {says!r})")


class RunsCode:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, ("touch " + self.marker,))


def main():
    ds, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "make_fixtures.py"), work], check=True)
    fx = lambda name: os.path.join(work, name)

    def write(name, data):
        with open(fx(name), "wb") as f:
            f.write(data)
        return fx(name)

    # Code-running pickles: GLOBAL (protocol 0 text, protocol 2 binary) and STACK_GLOBAL (protocol 4),
    # inside a snapshot-shaped dict and alone.
    for proto, opcode in ((0, "GLOBAL"), (2, "GLOBAL"), (4, "STACK_GLOBAL")):
        for shape in ("alone", "in_trace"):
            marker = fx(f"MARKER_p{proto}_{shape}")
            obj = RunsCode(marker) if shape == "alone" else {"segments": [], "device_traces": [[RunsCode(marker)]]}
            path = write(f"reduce_p{proto}_{shape}.pickle", pickle.dumps(obj, protocol=proto))
            refused(ds, path, f"opcode {opcode}", f"__reduce__ protocol {proto} {shape}")
            check(not os.path.exists(marker), f"__reduce__ protocol {proto} {shape}: code ran")
            # Control: Python's unpickler runs it, so the file really is hostile.
            with open(path, "rb") as f:
                pickle.load(f)
            check(os.path.exists(marker), f"control: pickle.load of protocol {proto} {shape} did not run the code")

    # Truncated at every offset: every prefix of v2_small.pickle (protocol 4) and v1_list.pickle (protocol 2).
    for name in ("v2_small.pickle", "v1_list.pickle"):
        whole = open(fx(name), "rb").read()
        paths = [write(f"cut_{name}_{n}", whole[:n]) for n in range(1, len(whole))]
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(lambda p: inspect(ds, p), paths))
        bad = [(n + 1, r) for n, r in enumerate(results)
               if not (r[0] == 2 and r[1] == "" and len(r[2].strip().splitlines()) == 1 and "devicescope inspect: refused" in r[2])]
        check(not bad, f"{name}: {len(bad)} of {len(paths)} prefixes not refused cleanly, first {bad[:1]}")
        truncated = sum("truncated" in r[2] for r in results)
        check(truncated >= len(paths) * 9 // 10, f"{name}: only {truncated} of {len(paths)} prefixes say 'truncated'")
        for p in paths:
            os.remove(p)

    refused(ds, fx("hostile_deep.pickle"), "nested more than", "100,000 nested lists")
    refused(ds, write("deep_marks.pickle", b"\x80\x02" + b"(" * 100000 + b"."), "nested MARKs", "100,000 MARKs")
    refused(ds, write("deep_dicts.pickle", b"\x80\x04}" + b"\x8c\x01k}" * 100000 + b"s" * 100000 + b"."),
            "nested more than", "100,000 nested dicts")
    refused(ds, fx("hostile_huge_len.pickle"), "runs past the end of the file", "BINUNICODE8 of 2**60 bytes")
    refused(ds, write("huge_binbytes8.pickle", b"\x80\x04\x8e" + struct.pack("<Q", (1 << 64) - 1) + b"."),
            "runs past the end of the file", "BINBYTES8 of 2**64-1 bytes")
    refused(ds, write("huge_list_memo.pickle", b"\x80\x04]r" + struct.pack("<I", 0xFFFFFFF0) + b"."),
            "memo index", "LONG_BINPUT 2**32-16")
    refused(ds, write("binget_missing.pickle", b"\x80\x04}h\x07."), "memo index 7 was never stored", "BINGET of a missing index")
    refused(ds, write("long_binget_missing.pickle", b"\x80\x04]\x94j" + struct.pack("<I", 123456) + b"."),
            "memo index 123456 was never stored", "LONG_BINGET of a missing index")
    refused(ds, write("empty.pickle", b""), "empty", "an empty file")

    # torch.save writes a zip (with data.pkl inside): refused as a zip, not read as opcodes.
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/data.pkl", pickle.dumps({"segments": []}, protocol=2))
        z.writestr("archive/version", "3\n")
    refused(ds, write("torch_save.pt", buf.getvalue()), "a zip archive (torch.save writes these)", "a torch.save zip")
    try:  # the real thing where Debian's torch is installed
        import torch
        torch.save({"w": torch.ones(4)}, fx("real_torch_save.pt"))
        refused(ds, fx("real_torch_save.pt"), "a zip archive (torch.save writes these)", "a real torch.save file")
    except ImportError:
        print("torch not importable: the real torch.save file is skipped")

    print("check_hostile_pickles:", "FAILED" if failures else "ok", f"({len(failures)} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Runs hostile scripts (tests/hostile/*.py) through `devicescope run` and checks that DeviceScope survives them.

Usage: run_hostile.py DEVICESCOPE_BINARY PATH [PATH ...]   (PATH: a hostile .py file or a folder)

Each script states what must happen in column-0 comment lines:
    # hostile: what the script does (shown in the report)
    # args: --timeout 2              extra options for `devicescope run` (before the script)
    # expect-exit: 1                 the exit code (required)
    # expect-stderr: RecursionError: maximum recursion depth exceeded     substring of stderr (any number)
    # expect-stdout: done            a line stdout must contain, in this order (any number)
    # expect-stdout-lines: 200000    stdout has exactly this many lines
    # expect-transfers: 2            --csv/--trace are written, parse, and hold exactly this many transfers
    # exports-optional: yes          the exports may be missing (os._exit), but never partial
    # stdin: silent-pipe             standard input: a pipe nobody writes to (held open), devnull, or closed
                                     (default: inherited)
    # max-seconds: 300               hang guard: the run is killed and fails after this long (default 300).
                                     Never a performance bound: a loaded machine must pass too.
    # needs: timeout                 skipped (exit 77) when `devicescope run --help` lacks --timeout
Every run must end by itself (no hang), never die from a signal, and never print a crash report
(segfault, std::terminate, Fatal Python error, sanitizer report). The exports are checked to be complete
(atomic write: no temporary files left beside them). Ends with "N passed, M failed"; exits 1 on failure.
"""
import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

SKIP_EXIT = 77
CSV_HEADER = ("id,src,dst,bytes,route,non_blocking,async,stream_device,stream,enqueue_ns,start_ns,end_ns,"
              "duration_ns,gbps,measured_ns,simulated,complete,src_storage,dst_storage,owner")
CRASH_MARKS = ("Segmentation fault", "terminate called", "Fatal Python error", "AddressSanitizer",
               "runtime error:", "LeakSanitizer", "Aborted", "core dumped")


def directives(path):
    d = {"expect-stderr": [], "expect-stdout": []}
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            m = re.match(r"# (hostile|args|expect-exit|expect-stderr|expect-stdout|expect-stdout-lines|"
                         r"expect-transfers|exports-optional|max-seconds|needs|stdin): ?(.*)$", line)
            if not m:
                continue
            key, value = m.group(1), m.group(2)
            if key in ("expect-stderr", "expect-stdout"):
                d[key].append(value)
            else:
                d[key] = value
    return d


def supports_timeout(binary):
    p = subprocess.run([binary, "run", "--help"], capture_output=True, text=True, timeout=60)
    return "--timeout" in p.stdout


def check_exports(csv_path, trace_path, want, optional):
    """Problems with the exported files (empty list when they are complete and agree)."""
    problems = []
    folder = os.path.dirname(csv_path)
    leftovers = [f for f in os.listdir(folder) if ".tmp." in f]
    if leftovers:
        problems.append(f"temporary files left beside the exports: {leftovers}")
    exists = [os.path.exists(p) for p in (csv_path, trace_path)]
    if optional and not any(exists):
        return problems
    if not all(exists):
        return problems + [f"export missing: {[p for p, e in zip((csv_path, trace_path), exists) if not e]}"]
    with open(csv_path, newline="") as f:
        text = f.read()
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or ",".join(rows[0]) != CSV_HEADER:
        problems.append("the CSV does not start with DeviceScope's header")
    elif any(len(r) != 20 for r in rows[1:]) or (text and not text.endswith("\n")):
        problems.append("the CSV has a cut or malformed row")
    n_csv = max(len(rows) - 1, 0)
    try:
        with open(trace_path) as f:
            trace = json.load(f)
        meta = trace["metadata"]
        n_trace = meta["transfer_count"]
        slices = sum(1 for e in trace["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "transfer")
        if meta.get("producer") != "DeviceScope" or slices != n_trace:
            problems.append(f"the trace is inconsistent: {slices} transfer slices, metadata says {n_trace}")
        if len(trace["devicescopeEvents"]) != meta["event_count"]:
            problems.append(f"the trace is inconsistent: {len(trace['devicescopeEvents'])} events, "
                            f"metadata says {meta['event_count']}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        return problems + [f"the trace does not load: {type(e).__name__}: {e}"]
    if n_csv != n_trace:
        problems.append(f"CSV has {n_csv} transfers, trace {n_trace}")
    ids = [r[0] for r in rows[1:]]
    if len(set(ids)) != len(ids):
        problems.append("the CSV lists a transfer id twice")
    if want is not None and n_csv != int(want):
        problems.append(f"expected {want} transfers in the exports, found {n_csv}")
    return problems


def stdin_for(kind):
    """(stdin for subprocess, fds to close after the run, preexec_fn) for a `# stdin:` directive."""
    if kind == "silent-pipe":  # a reader that never gets an answer: we hold the write end until the end
        read_end, write_end = os.pipe()
        return read_end, [read_end, write_end], None
    if kind == "devnull":
        return subprocess.DEVNULL, [], None
    if kind == "closed":
        return subprocess.DEVNULL, [], lambda: os.close(0)
    if kind:
        raise ValueError(f"unknown `# stdin:` value {kind!r} (silent-pipe, devnull, closed)")
    return None, [], None


def run_one(binary, script, timeout_ok):
    d = directives(script)
    name = os.path.splitext(os.path.basename(script))[0]
    if "expect-exit" not in d:
        return False, f"FAIL {name}: no `# expect-exit:` line"
    if d.get("needs") == "timeout" and not timeout_ok:
        return None, f"SKIP {name}: devicescope run has no --timeout (requested in notes/python_requests.md)"
    limit = float(d.get("max-seconds", "300"))
    with tempfile.TemporaryDirectory(prefix="ds_hostile_") as out:
        csv_path, trace_path = os.path.join(out, "transfers.csv"), os.path.join(out, "trace.json")
        cmd = [binary, "--backend", "sim", "--sim-devices", "2", "run", "--csv", csv_path, "--trace", trace_path]
        cmd += d.get("args", "").split() + [script]
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTHONPATH", None)
        start = time.monotonic()
        stdin, keep_open, preexec = stdin_for(d.get("stdin", ""))
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=limit, cwd=os.path.dirname(script), env=env,
                               stdin=stdin, preexec_fn=preexec)
            rc, stdout, stderr = p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            return False, f"FAIL {name}: hung (killed after {limit:.0f} s)\n  command: {' '.join(cmd)}"
        finally:
            for fd in keep_open:
                os.close(fd)
        took = time.monotonic() - start
        problems = []
        if rc < 0:
            problems.append(f"killed by signal {signal.Signals(-rc).name}")
        elif rc != int(d["expect-exit"]):
            problems.append(f"exit code {rc}, expected {d['expect-exit']}")
        for mark in CRASH_MARKS:
            if mark in stderr:
                problems.append(f"crash report on stderr ({mark!r})")
        for want in d["expect-stderr"]:
            if want not in stderr:
                problems.append(f"stderr lacks {want!r}")
        lines, pos = stdout.splitlines(), 0
        for want in d["expect-stdout"]:
            while pos < len(lines) and lines[pos] != want:
                pos += 1
            if pos == len(lines):
                problems.append(f"stdout lacks the line {want!r} (in order)")
                break
            pos += 1
        if "expect-stdout-lines" in d and len(lines) != int(d["expect-stdout-lines"]):
            problems.append(f"stdout has {len(lines)} lines, expected {d['expect-stdout-lines']}")
        problems += check_exports(csv_path, trace_path, d.get("expect-transfers"), d.get("exports-optional") == "yes")
    if problems:
        tail = "\n".join("    " + l for l in stderr.rstrip().split("\n")[-15:])
        return False, (f"FAIL {name} ({d.get('hostile', '')})\n  command: {' '.join(cmd)}\n  " + "\n  ".join(problems) +
                       f"\n  stdout tail:\n" + "\n".join("    " + l for l in lines[-5:]) + "\n  stderr tail:\n" + tail)
    return True, f"ok   {name} ({took:.1f} s): {d.get('hostile', '')}"


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    if not os.access(binary, os.X_OK):
        print(f"devicescope binary not found or not executable: {binary}\n0 passed, 1 failed")
        return 1
    scripts = []
    for path in argv[2:]:
        if os.path.isdir(path):
            scripts += sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".py") and f != "run_hostile.py")
        else:
            scripts.append(path)
    timeout_ok = supports_timeout(binary)
    passed = failed = skipped = 0
    for script in scripts:
        ok, report = run_one(binary, os.path.abspath(script), timeout_ok)
        print(report, flush=True)
        if ok is None:
            skipped += 1
        elif ok:
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    if failed:
        return 1
    return SKIP_EXIT if skipped and not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Screenshot test: runs devicescope headless under xvfb-run, then checks the PNG (size, not blank)
and the view model the app wrote beside it (out.png.json) against an expectation file.

Expectation JSON (every key optional; values compare exactly unless noted):
  {"exit_code": 0,
   "panes": {"cuda:0": {"blocks": 7, "roles": {"parameter": 4}, "segments": 1}},   # subset of each pane
   "script": {"current_line": 18, "error_line": 0, "editor_wrapped_rows": {"min": 1}},  # wrapped: presenter
   "names_include": ["model", "w"], "names_exclude": ["x"],
   "names_graph": {"storages": 3, "fits": true, "zoom": {"min": 0.5}},           # the names graph's layout
   "modules": {"rows": 10, "stragglers": 1},
   "transfers": {"count": 8}, "lanes_include": ["cuda:0  H2D"], "lanes_exclude": ["cuda:0  D2D"],
   "migrations": {"count": 5, "source_live": 0},
   "error_contains": "Expected all tensors to be on the same device",
   "front_window": "Keyboard shortcuts",
   "loading": {"file": "x.csv", "bytes_read": 0},                                 # a recording still opening
   "open_error_contains": "not a DeviceScope trace",                              # the open-error modal's text
   "readable_panes": {"min_block_px": 40, "min_rows": 1},   # every pane: header not cut; every pane
                                       # that holds memory: blocks drawn, at least min_block_px wide, labelled
   "transfer_strip": {"rows_min": 3, "routes_include": ["pinned \u2192 cuda:0"], "tags_include": ["staged"]},
   "held_labels": {"left_out": 0},                                                # "still held by" labels
   "lesson_min": {"code_wrapped_lines": 1},                                       # lesson keys, at least
   "windows_include": ["Editor"],                                                 # window name prefixes
   "memory_timelines": [{"device": 0, "peak": 46661632, "categories_include": ["other"],   # a PyTorch snapshot
                         "roles_include": ["parameter"]}],
   "memory_stacked_by": "category",                                               # or "source line"
   "fits": {"model": "1b", "fits": false, "oom_contains": "CUDA out of memory",     # What fits where
            "devices": [{"device": "cuda:0", "simulated": true, "categories_min": {"parameter": 1}}]}}
Every test also requires that no replacement character (U+FFFD, "???") was drawn or reported (check_text).
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from xvfb import run_under_xvfb  # noqa: E402
from check_timeline import check_timeline  # noqa: E402


def read_png(path):
    """Decodes an 8-bit RGB/RGBA PNG into (width, height, channels, rows of bytes)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color not in (2, 6):
                raise ValueError("unexpected PNG format: depth %d colour type %d" % (depth, color))
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def write_same_instant_csv(path, n):
    """N pinned-to-cuda:0 copies of 4 KiB, every one from 1000 ns to 9078 ns (issue 14: drawn one by one,
    19 s per frame, before the timeline folded copies that start in the same pixels)."""
    with open(path, "w") as f:
        f.write("id,src,dst,bytes,route,non_blocking,async,stream_device,stream,enqueue_ns,start_ns,end_ns,"
                "duration_ns,gbps,measured_ns,simulated,complete,src_storage,dst_storage,owner\n")
        for i in range(1, n + 1):
            f.write("%d,pinned,cuda:0,4096,direct,false,false,0,0,1000,1000,9078,8078,0.507,8078,false,true,%d,%d,x%d\n"
                    % (i, i, n + i, i))
    return path


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_bench(got, want):
    """The Bench window's view model: scalars exactly, dicts as subsets, error_contains as a substring."""
    if got is None:
        fail("no bench view model (was the Bench window open?)")
    for key, value in want.items():
        if key == "error_contains":
            if value not in got.get("error", ""):
                fail("bench error %r does not contain %r" % (got.get("error"), value))
        elif isinstance(value, dict):
            for k, v in value.items():
                if (got.get(key) or {}).get(k) != v:
                    fail("bench %s[%s] = %s, expected %s (all: %s)" % (key, k, (got.get(key) or {}).get(k), v, got.get(key)))
        elif got.get(key) != value:
            fail("bench %s = %s, expected %s" % (key, got.get(key), value))


def check_readability(vm, expect):
    """Projector-size checks (issue 17): panes readable, the transfers strip, labels that fit."""
    want = expect.get("readable_panes")
    if want is not None:
        if not vm["panes"]:
            fail("no memory panes drawn")
        for p in vm["panes"]:
            name = p["place"]
            if p.get("header_clipped"):
                fail("pane %s: header cut (badge %r, %s figure lines)" % (name, p.get("header_badge"), p.get("header_lines")))
            holds = p["allocated"] > 0 or p["reserved"] > 0 or p["blocks"] > 0
            if not holds:
                continue
            if p["blocks"] + p["free_blocks"] == 0:
                fail("pane %s holds %d bytes but draws no blocks" % (name, p["reserved"] or p["allocated"]))
            if p.get("block_rows", 0) < want.get("min_rows", 1):
                fail("pane %s: %s block rows, expected at least %d" % (name, p.get("block_rows"), want.get("min_rows", 1)))
            if p["blocks"] > 0:
                if p.get("min_block_px", 0) < want.get("min_block_px", 0):
                    fail("pane %s: narrowest block %.1f px, expected at least %s" % (name, p.get("min_block_px", 0), want["min_block_px"]))
                if p.get("labelled_blocks", 0) == 0:
                    fail("pane %s: %d blocks, none labelled" % (name, p["blocks"]))
            if p["free_blocks"] > 0 and p.get("labelled_free", 0) == 0:
                fail("pane %s: cached free blocks without their size" % name)
    strip = expect.get("transfer_strip")
    if strip is not None:
        got = vm.get("transfer_strip")
        if not got or not got.get("drawn"):
            fail("no transfers strip drawn")
        rows = got["rows"]
        if len(rows) < strip.get("rows_min", 0):
            fail("transfers strip shows %d rows, expected at least %d" % (len(rows), strip["rows_min"]))
        if got.get("clipped") and not strip.get("clipped_ok"):
            fail("transfers strip columns do not fit")
        for route in strip.get("routes_include", []):
            if not any(r["route"] == route for r in rows):
                fail("no %r row in the transfers strip %s" % (route, [r["route"] for r in rows]))
        for tag in strip.get("tags_include", []):
            if not any(tag in r["tags"] for r in rows):
                fail("no row tagged %r in the transfers strip %s" % (tag, [r["tags"] for r in rows]))
    for key, value in expect.get("held_labels", {}).items():
        if (vm.get("held_labels") or {}).get(key) != value:
            fail("held_labels %s = %s, expected %s" % (key, (vm.get("held_labels") or {}).get(key), value))
    for key, value in expect.get("lesson_min", {}).items():
        got = (vm.get("lesson") or {}).get(key)
        if got is None or got < value:
            fail("lesson %s = %r, expected at least %r" % (key, got, value))
    windows = vm.get("windows_front_to_back", [])
    for prefix in expect.get("windows_include", []):
        if not any(w.startswith(prefix) for w in windows):
            fail("no window %r shown (windows: %s)" % (prefix, windows))
    for prefix in expect.get("windows_exclude", []):
        if any(w.startswith(prefix) for w in windows):
            fail("window %r should not be shown (windows: %s)" % (prefix, windows))


def check_text(vm):
    """No replacement characters anywhere (issue 24 item 1): none drawn (the app counts U+FFFD glyph quads in
    the frame it drew; ImGui draws U+FFFD for bytes that are not UTF-8 and for glyphs the fonts lack), and no
    U+FFFD or "???" in any text the view model reports."""
    drawn = vm.get("replacement_glyphs_drawn")
    if drawn is None:
        fail("the view model does not report replacement_glyphs_drawn")
    if drawn:
        fail("%d replacement characters (U+FFFD) drawn: text cut inside a UTF-8 character, or a glyph the fonts lack" % drawn)

    def walk(value, where):
        if isinstance(value, str):
            if "\ufffd" in value or "???" in value:
                fail("replacement characters in %s: %r" % (where, value))
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, where + "." + str(k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, "%s[%d]" % (where, i))
    walk(vm, "view model")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devicescope", required=True)
    ap.add_argument("--out", required=True, help="PNG path to write")
    ap.add_argument("--expect", required=True)
    ap.add_argument("--size", default="1600x1000")
    ap.add_argument("--script")
    ap.add_argument("--steps", type=int)
    ap.add_argument("--no-xvfb", action="store_true", help="run devicescope directly (it finds xvfb-run itself)")
    ap.add_argument("--lesson", help="devicescope --lesson NAME (a workshop lesson)")
    ap.add_argument("--lesson-step", type=int)
    ap.add_argument("--lesson-answer", type=int)
    ap.add_argument("--presenter", action="store_true")
    ap.add_argument("--bench-sizes", help="open the Bench window and run a sweep of these sizes first")
    ap.add_argument("--bench-open", action="append", default=[], help="bench JSON to overlay in the Bench window")
    ap.add_argument("--extra", action="append", default=[], help="more devicescope arguments, e.g. --extra=--show=table")
    ap.add_argument("--pytorch-snapshot", metavar="FIXTURE",
                    help="open this fixture of tests/snapshot/make_fixtures.py (generated into OUT's folder)")
    ap.add_argument("--history-snapshot", action="store_true",
                    help="open a DeviceScope snapshot of tests/snapshot/history_model.py (made with devicescope run "
                         "into OUT's folder): its blocks name their roles")
    ap.add_argument("--same-instant-recording", type=int, metavar="N",
                    help="write a transfers CSV of N copies that all start at one instant (OUT.csv) and open it")
    args = ap.parse_args()
    expect = json.load(open(args.expect))

    cmd = [args.devicescope, "--backend", "sim", "--sim-devices", "2",
           "--screenshot", args.out, "--size", args.size]
    if args.script:
        cmd += ["--script", args.script]
    if args.steps is not None:
        cmd += ["--steps", str(args.steps)]
    if args.lesson:
        cmd += ["--lesson", args.lesson]
    if args.lesson_step is not None:
        cmd += ["--lesson-step", str(args.lesson_step)]
    if args.lesson_answer is not None:
        cmd += ["--lesson-answer", str(args.lesson_answer)]
    if args.presenter:
        cmd += ["--presenter"]
    if args.bench_sizes:
        cmd += ["--bench-view", "--bench-sizes", args.bench_sizes]
    for path in args.bench_open:
        cmd += ["--bench-open", path]
    if args.pytorch_snapshot:
        folder = os.path.join(os.path.dirname(os.path.abspath(args.out)), "pytorch_snapshots")
        os.makedirs(folder, exist_ok=True)
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run(["/usr/bin/python3", os.path.join(here, "..", "snapshot", "make_fixtures.py"), folder],
                       check=True, stdout=subprocess.DEVNULL)
        cmd += ["--open-trace", os.path.join(folder, args.pytorch_snapshot)]
    if args.history_snapshot:
        here = os.path.dirname(os.path.abspath(__file__))
        pkl = args.out + ".history.pickle"
        subprocess.run([args.devicescope, "run", os.path.join(here, "..", "snapshot", "history_model.py"), "--",
                        pkl, args.out + ".history.json"], check=True, stdout=subprocess.DEVNULL, timeout=240)
        cmd += ["--open-trace", pkl]
    if args.same_instant_recording:
        cmd += ["--open-trace", write_same_instant_csv(args.out + ".csv", args.same_instant_recording)]
    for extra in args.extra:
        cmd += extra.split("=", 1) if extra.startswith("--") and "=" in extra else [extra]
    for stale in (args.out, args.out + ".json"):
        if os.path.exists(stale):
            os.remove(stale)
    if args.no_xvfb:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    else:
        run = run_under_xvfb(cmd, server_args="-screen 0 1920x1200x24", timeout=240)
    print(("" if args.no_xvfb else "xvfb-run -a ") + " ".join(cmd))
    print(run.stdout + run.stderr)
    if run.returncode != expect.get("exit_code", 0):
        fail("exit code %d, expected %d" % (run.returncode, expect.get("exit_code", 0)))

    # The picture: the requested size, and not blank (many colours, not one flat fill).
    w, h, ch, rows = read_png(args.out)
    want_w, want_h = (int(v) for v in args.size.split("x"))
    if (w, h) != (want_w, want_h):
        fail("PNG is %dx%d, expected %dx%d" % (w, h, want_w, want_h))
    colours = set()
    for y in range(0, h, 7):
        row = rows[y]
        for x in range(0, w, 5):
            colours.add(row[x * ch:x * ch + 3])
    if len(colours) < 40:
        fail("PNG looks blank: only %d distinct colours sampled" % len(colours))

    # The view model: what the panes showed.
    vm = json.load(open(args.out + ".json"))
    if vm["size"] != [want_w, want_h]:
        fail("view model size %s" % vm["size"])
    panes = {p["place"]: p for p in vm["panes"]}
    for place, want in expect.get("panes", {}).items():
        if place not in panes:
            fail("no pane for %s (panes: %s)" % (place, sorted(panes)))
        for key, value in want.items():
            got = panes[place].get(key)
            if isinstance(value, dict):
                for k, v in value.items():
                    if (got or {}).get(k, 0) != v:
                        fail("pane %s %s[%s] = %s, expected %s" % (place, key, k, (got or {}).get(k, 0), v))
            elif got != value:
                fail("pane %s %s = %s, expected %s" % (place, key, got, value))
    for key, value in expect.get("script", {}).items():  # a value, or {"min": a}
        got = vm["script"].get(key)
        if (got is None or got < value["min"]) if isinstance(value, dict) else got != value:
            fail("script %s = %s, expected %s" % (key, got, value))
    for name in expect.get("names_include", []):
        if name not in vm["names"]["names"]:
            fail("name %s missing from the names graph %s" % (name, vm["names"]["names"]))
    for name in expect.get("names_exclude", []):
        if name in vm["names"]["names"]:
            fail("name %s should not be in the names graph" % name)
    # The names graph's layout: a value, or {"min": a, "max": b} (either may be left out).
    for key, value in expect.get("names_graph", {}).items():
        got = vm["names"].get(key)
        if isinstance(value, dict):
            if got is None or ("min" in value and got < value["min"]) or ("max" in value and got > value["max"]):
                fail("names graph %s = %s, expected %s" % (key, got, value))
        elif got != value:
            fail("names graph %s = %s, expected %s" % (key, got, value))
    for key, value in expect.get("modules", {}).items():
        if vm["modules"].get(key) != value:
            fail("modules %s = %s, expected %s" % (key, vm["modules"].get(key), value))
    for key, value in expect.get("transfers", {}).items():
        if vm["transfers"].get(key) != value:
            fail("transfers %s = %s, expected %s" % (key, vm["transfers"].get(key), value))
    lanes = [l["name"] for l in vm["transfers"]["lanes"]]
    for lane in expect.get("lanes_include", []):
        if lane not in lanes:
            fail("lane %s missing (lanes: %s)" % (lane, lanes))
    for lane in expect.get("lanes_exclude", []):
        if lane in lanes:
            fail("lane %s should not be there (lanes: %s)" % (lane, lanes))
    if "migrations" in expect:
        m = expect["migrations"]
        if "count" in m and len(vm["migrations"]) != m["count"]:
            fail("%d migrations, expected %d" % (len(vm["migrations"]), m["count"]))
        live = sum(1 for x in vm["migrations"] if x["source_live"])
        if "source_live" in m and live != m["source_live"]:
            fail("%d migrations with a live source, expected %d" % (live, m["source_live"]))
        for holder in m.get("holders_include", []):
            if not any(holder in x["holders"] for x in vm["migrations"]):
                fail("no migration whose source is held by %s" % holder)
    if "memory_timelines" in expect:
        got = vm.get("memory_timelines") or []
        if len(got) != len(expect["memory_timelines"]):
            fail("%d memory timelines, expected %d" % (len(got), len(expect["memory_timelines"])))
        for want, have in zip(expect["memory_timelines"], got):
            for key, value in want.items():
                if key in ("categories_include", "roles_include"):
                    field = key.split("_")[0]
                    for c in value:
                        if c not in have[field]:
                            fail("memory timeline of cuda:%s lacks %s %s (%s)" % (have["device"], field, c, have[field]))
                elif have.get(key) != value:
                    fail("memory timeline %s = %s, expected %s" % (key, have.get(key), value))
    if "fits" in expect:  # What fits where (lesson 019): the estimate the window shows
        want, got = expect["fits"], vm.get("fits")
        if not got:
            fail("no What fits where result in the view model")
        for key in ("model", "strategy", "fits"):
            if key in want and got.get(key) != want[key]:
                fail("fits %s = %r, expected %r" % (key, got.get(key), want[key]))
        if want.get("oom_contains", "") not in got.get("oom", ""):
            fail("fits oom %r does not contain %r" % (got.get("oom"), want["oom_contains"]))
        if len(got["devices"]) != len(want.get("devices", got["devices"])):
            fail("fits shows %d devices, expected %d" % (len(got["devices"]), len(want["devices"])))
        for wd, gd in zip(want.get("devices", []), got["devices"]):
            if gd["device"] != wd["device"] or gd["simulated"] != wd["simulated"]:
                fail("fits device %s (simulated %s), expected %s" % (gd["device"], gd["simulated"], wd))
            for cat, least in wd.get("categories_min", {}).items():
                if gd["by_category"].get(cat, 0) < least:
                    fail("fits %s holds %s bytes of %s at its peak, expected >= %s" % (gd["device"], gd["by_category"].get(cat), cat, least))
    if "memory_stacked_by" in expect and vm.get("memory_stacked_by") != expect["memory_stacked_by"]:
        fail("Memory over time stacked by %r, expected %r" % (vm.get("memory_stacked_by"), expect["memory_stacked_by"]))
    for key, value in expect.get("recording", {}).items():
        if (vm.get("recording") or {}).get(key) != value:
            fail("recording %s = %s, expected %s" % (key, (vm.get("recording") or {}).get(key), value))
    if "open_error_contains" in expect and expect["open_error_contains"] not in vm.get("open_error", ""):
        fail("open error %r does not contain %r" % (vm.get("open_error"), expect["open_error_contains"]))
    for key, value in expect.get("loading", {}).items():
        if (vm.get("loading") or {}).get(key) != value:
            fail("loading %s = %s, expected %s" % (key, (vm.get("loading") or {}).get(key), value))
    if "bench" in expect:
        check_bench(vm.get("bench"), expect["bench"])
    # "lesson": {"lesson": "000_...", "page": 2, "phase": "ran", "verdict_count": 2, ...} (lesson_view.cpp)
    for key, value in expect.get("lesson", {}).items():
        if (vm.get("lesson") or {}).get(key) != value:
            fail("lesson %s = %r, expected %r" % (key, (vm.get("lesson") or {}).get(key), value))
    # "front_window": "Keyboard shortcuts" - that window is visible and in front of every other window.
    if "front_window" in expect:
        order = vm.get("windows_front_to_back", [])
        if not order or order[0] != expect["front_window"]:
            fail("front window is %r, expected %r (front to back: %s)" % (order[:1], expect["front_window"], order))
    if "error_contains" in expect and expect["error_contains"] not in vm["script"]["error"]:
        fail("error %r does not contain %r" % (vm["script"]["error"], expect["error_contains"]))
    check_readability(vm, expect)
    check_text(vm)
    check_timeline(vm, expect, fail)
    if "colors" in expect:
        for role, hexc in expect["colors"].items():
            if vm["colors"].get(role) != hexc:
                fail("colour of %s is %s, expected %s" % (role, vm["colors"].get(role), hexc))
    print("OK: %dx%d, %d colours sampled, panes %s" % (w, h, len(colours),
          {p: panes[p]["blocks"] for p in panes}))


if __name__ == "__main__":
    main()

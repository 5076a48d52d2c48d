#!/usr/bin/python3
"""The layer cache (app/render/layer_cache.h) shows unchanged windows from an image of them: the picture must
be the same as drawing everything. Renders an opened snapshot (a --large-real fixture: hundreds of memory
blocks, the names graph, the owners table) with the cache and with DEVICESCOPE_NO_LAYER_CACHE=1 at the given
sizes and wants byte-identical PNGs (a headless screenshot draws several frames: the later ones copy the images).
A screenshot draws into an image; with --bench, the frame benchmark checks the window's own buffer too (its
rows lie the other way round, and the cache copies to and from it differently): bench_gui_frames
--check-same-pixels compares a frame with copied windows with the same frame all drawn.

    check_layer_cache.py --devicescope build/app/devicescope [--bench build/tests/bench_gui_frames] --out-dir DIR
                         [--size 1600x1000 ...]
"""
import argparse
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devicescope", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--bench", help="bench_gui_frames: also check the window's buffer")
    ap.add_argument("--size", action="append", default=[])
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    snap = os.path.join(args.out_dir, "layer_cache_snapshot.pickle")
    subprocess.run(["/usr/bin/python3", os.path.join(here, "..", "snapshot", "make_fixtures.py"), "--large-real", "20000", snap],
                   check=True)
    failed = 0
    for size in args.size or ["1600x1000", "1280x720"]:
        pngs = []
        for cached in (True, False):
            out = os.path.join(args.out_dir, "layer_cache_%s_%s.png" % (size, "on" if cached else "off"))
            env = dict(os.environ)
            env.pop("DEVICESCOPE_NO_LAYER_CACHE", None)
            if not cached:
                env["DEVICESCOPE_NO_LAYER_CACHE"] = "1"
            subprocess.run([args.devicescope, "--open-trace", snap, "--screenshot", out, "--size", size], check=True, env=env)
            with open(out, "rb") as f:
                pngs.append(f.read())
            with open(out + ".json") as f:
                copied = json.load(f)["layer_cache"]["copied"]
            # With the cache the dense windows (memory panes, names graph, owners) are copies; without, none.
            engaged = copied >= 2 if cached else copied == 0
            print("%s %s, cache %s: %d windows copied from images" % ("ok" if engaged else "FAIL", size, "on" if cached else "off", copied))
            failed += not engaged
        same = pngs[0] == pngs[1]
        print("%s %s: cached and drawn pictures %s" % ("ok" if same else "FAIL", size, "identical" if same else "differ"))
        failed += not same
        if args.bench:
            run = subprocess.run([args.bench, "--open-trace", snap, "--frames", "3", "--size", size, "--check-same-pixels"],
                                 stdout=subprocess.PIPE, universal_newlines=True)
            line = [l.strip() for l in run.stdout.splitlines() if "same pixels" in l]
            print("%s %s, the window's buffer: %s" % ("ok" if run.returncode == 0 else "FAIL", size, line[0] if line else run.stdout))
            failed += run.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

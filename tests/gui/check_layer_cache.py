#!/usr/bin/python3
"""The layer cache (app/render/layer_cache.h) shows unchanged windows from an image of them: the picture must
be the same as drawing everything. Renders an opened snapshot (a --large-real fixture: hundreds of memory
blocks, the names graph, the owners table) with the cache and with DEVICESCOPE_NO_LAYER_CACHE=1 at the given
sizes and wants byte-identical PNGs (a headless screenshot draws several frames: the later ones copy the images).

    check_layer_cache.py --devicescope build/app/devicescope --out-dir DIR [--size 1600x1000 ...]
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""The .deb works once installed: `cpack -G DEB` in the build folder, `dpkg -x` into a scratch root, and the
unpacked devicescope, run from an unrelated folder, answers `--version`, `devices` and `lessons --check`,
runs a script with the torch package installed beside it (not the source tree's), and records one under
Debian's python3 (torch 1.13) with the recorder installed beside it.

Usage: deb_install.py BUILD_DIR VERSION
Exits 77 (skipped, said on stdout) without dpkg-deb or cpack. Ends with "N passed, M failed".
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
HANG_GUARD_S = 600  # never a speed bound


def main(argv):
    build, version = os.path.abspath(argv[1]), argv[2]
    for tool in ("dpkg-deb", "cpack"):
        if not shutil.which(tool):
            print(f"SKIPPED: {tool} is not installed (apt install dpkg-dev cmake)")
            return SKIP
    with tempfile.TemporaryDirectory(prefix="ds_deb_") as tmp:
        out = os.path.join(tmp, "out")
        p = subprocess.run(["cpack", "-G", "DEB", "-B", out], cwd=build, capture_output=True, text=True,
                           timeout=HANG_GUARD_S)
        debs = glob.glob(os.path.join(out, f"devicescope_{version}_*.deb"))
        if p.returncode != 0 or len(debs) != 1:
            print(f"FAIL cpack: exit {p.returncode}, packages {debs}\n{p.stdout[-1500:]}\n{p.stderr[-1500:]}")
            return 1
        deb = debs[0]
        info = subprocess.run(["dpkg-deb", "--field", deb, "Package", "Depends"], capture_output=True, text=True)
        root = os.path.join(tmp, "root")
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
        exe = os.path.join(root, "usr", "bin", "devicescope")
        elsewhere = os.path.join(tmp, "elsewhere")
        os.makedirs(elsewhere)
        script = os.path.join(elsewhere, "where.py")
        with open(script, "w") as f:
            f.write("import torch\nprint(torch.__file__)\nprint(torch.ones(2).to('cuda').device)\n")
        # No source tree or build folder in the environment, and a HOME of its own.
        env = {k: v for k, v in os.environ.items() if not k.startswith("DEVICESCOPE_")}
        env["HOME"] = elsewhere
        checks = [
            ("package fields", info.returncode == 0 and "devicescope" in info.stdout and "python3" in info.stdout,
             info.stdout + info.stderr),
            ("installed files", all(os.path.exists(os.path.join(root, "usr", rel)) for rel in (
                "bin/devicescope", "share/devicescope/engine/python/_ds_session.py",
                "share/devicescope/engine/python/torch/__init__.py", "share/devicescope/assets/lessons")),
             "missing under usr/"),
        ]
        passed = failed = 0
        plain = os.path.join(elsewhere, "plain.py")
        with open(plain, "w") as f:
            f.write("import torch\nx = torch.ones(2)\ny = x.double()\n")
        recording = os.path.join(elsewhere, "plain.json")
        for args, want in ((["--version"], version), (["devices"], "cuda:0"), (["lessons", "--check"], None),
                           (["--backend", "sim", "run", script], os.path.join(root, "usr", "share")),
                           (["record", "--python", "/usr/bin/python3", "--out", recording, "--", plain], None)):
            r = subprocess.run([exe] + args, cwd=elsewhere, env=env, capture_output=True, text=True,
                               timeout=HANG_GUARD_S, stdin=subprocess.DEVNULL)
            ok = r.returncode == 0 and (want is None or want in r.stdout)
            if args[0] == "record":
                ok = ok and os.path.exists(recording)
            checks.append((" ".join(args), ok, f"exit {r.returncode}\n{r.stdout[-800:]}\n{r.stderr[-800:]}"))
        for name, ok, detail in checks:
            if ok:
                passed += 1
                print(f"ok   {name}")
            else:
                failed += 1
                print(f"FAIL {name}\n  {detail}")
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/python3
"""End to end: the embedded Python ignores whichever `python3` comes first on PATH.

Usage: python_on_path.py DEVICESCOPE_BINARY

A virtualenv's (or pyenv's) python3 first on PATH used to become the embedded interpreter's idea of
itself: sys.prefix moved to the virtualenv, the Debian packages left sys.path, and `import torch` failed
with "No module named 'numpy'". Puts such a python3 (a virtualenv without system packages, made by hand:
pyvenv.cfg + a link to the real interpreter) and a plain wrapper script first on PATH, PYTHONHOME unset,
and runs a script that imports torch and makes a copy. Ends with "N passed, M failed".
"""
import os
import subprocess
import sys
import tempfile

SCRIPT = """import sys
import torch
torch.ones(2).to("cuda")
print("prefix", sys.prefix)
print("torch ok")
"""


def fake_virtualenv(root):
    os.makedirs(os.path.join(root, "bin"))
    real = os.path.realpath(sys.executable)
    os.symlink(real, os.path.join(root, "bin", "python3"))
    with open(os.path.join(root, "pyvenv.cfg"), "w") as f:
        f.write(f"home = {os.path.dirname(real)}\ninclude-system-site-packages = false\n"
                f"version = {sys.version_info[0]}.{sys.version_info[1]}.{sys.version_info[2]}\n")
    return os.path.join(root, "bin")


def wrapper_dir(root):
    os.makedirs(root)
    path = os.path.join(root, "python3")
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\nexec {os.path.realpath(sys.executable)} \"$@\"\n")
    os.chmod(path, 0o755)
    return root


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="ds_python_on_path_") as out:
        script = os.path.join(out, "uses_torch.py")
        with open(script, "w") as f:
            f.write(SCRIPT)
        for name, bin_dir in (("virtualenv", fake_virtualenv(os.path.join(out, "venv"))),
                              ("wrapper", wrapper_dir(os.path.join(out, "wrapper")))):
            env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
            for var in ("PYTHONHOME", "PYTHONPATH", "VIRTUAL_ENV"):
                env.pop(var, None)
            p = subprocess.run([binary, "--backend", "sim", "run", script], capture_output=True, text=True,
                               env=env, stdin=subprocess.DEVNULL, timeout=300)
            if p.returncode == 0 and "torch ok" in p.stdout and f"prefix {out}" not in p.stdout:
                print(f"ok   {name} python3 first on PATH")
                passed += 1
            else:
                print(f"FAIL {name} python3 first on PATH: exit {p.returncode}\n  stdout: {p.stdout.strip()}\n"
                      f"  stderr tail: {p.stderr.strip()[-600:]}")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

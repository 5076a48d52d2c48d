#!/usr/bin/python3
"""A build's `devicescope run` starts from compiled bytecode (cmake/compile_bytecode.py): with
PYTHONDONTWRITEBYTECODE=1 (nothing may be written) `import torch` and the modules a training script imports
later (torch.optim, torch.utils.data) still compile no module of the torch package, numpy or the standard
library from source, and no __pycache__ folder appears in the source tree.

Usage: check_bytecode_cache.py DEVICESCOPE_BINARY PACKAGE_DIR
Reads Python's own verbose import log (PYTHONVERBOSE=1: "# code object from '<file>.pyc'" for a cached module,
"# code object from <file>.py" for one compiled from source). Exits 1 on a module compiled from source.
"""
import os
import re
import subprocess
import sys
import tempfile

SCRIPT = """
import sys, torch, torch.nn.functional, torch.optim, torch.utils.data, numpy
print("prefix", sys.pycache_prefix)
"""
# Imported by site's .pth files and certifi: Debian packages outside the build's cache (nothing of ours).
OUTSIDE = ("/certifi/", "/_distutils_hack/")


def main(binary, package_dir):
    with tempfile.TemporaryDirectory(prefix="ds-bytecode-") as cwd:
        path = os.path.join(cwd, "imports.py")
        with open(path, "w") as f:
            f.write(SCRIPT)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONVERBOSE="1")
        env.pop("PYTHONPYCACHEPREFIX", None)
        env.pop("DEVICESCOPE_PYTHON_DIR", None)
        p = subprocess.run([binary, "--backend", "sim", "run", path], cwd=cwd, env=env, capture_output=True,
                           text=True, timeout=120)
    if p.returncode != 0:
        print(p.stdout[-2000:], p.stderr[-4000:])
        print(f"FAIL: the import script exited with {p.returncode}")
        return 1
    prefix = [line.split(" ", 1)[1] for line in p.stdout.splitlines() if line.startswith("prefix ")]
    from_source = re.findall(r"^# code object from (/\S+\.py)$", p.stderr, re.M)
    from_cache = re.findall(r"^# code object from '(/\S+\.pyc)'$", p.stderr, re.M)
    compiled = [f for f in from_source if not any(o in f for o in OUTSIDE)]
    print(f"pycache_prefix: {prefix}; modules from bytecode: {len(from_cache)}, compiled from source: "
          f"{len(from_source)} ({len(compiled)} of ours, numpy's or the standard library's)")
    failures = []
    if not prefix or prefix[0] == "None":
        failures.append("no pycache_prefix in the embedded interpreter")
    if len(from_cache) < 100:
        failures.append(f"only {len(from_cache)} modules came from bytecode")
    for f in compiled:
        failures.append(f"compiled from source: {f}")
    litter = [root for root, dirs, _ in os.walk(package_dir) if "__pycache__" in dirs]
    for root in litter:
        failures.append(f"__pycache__ written into the source tree: {root}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))

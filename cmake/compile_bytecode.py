"""Compiles the Python that every DeviceScope run imports into the build's bytecode cache, as a Debian
package's postinst does for /usr/lib/python3 (py3compile): the torch package, and the standard library and
numpy that it imports.

DeviceScope's interpreter keeps bytecode under one pycache_prefix folder (python_session.cpp), and with a
prefix set Python looks for every module's bytecode there, the standard library's too, never in the
__pycache__ folders Debian ships. Without this step a run under PYTHONDONTWRITEBYTECODE=1 (or with an
unwritable cache) compiles some 160 modules from source on every start, and the modules a script imports
later (torch.optim, torch.utils.data, ...) in the middle of its work: 0.1-0.2 s of CPU each time.

Usage: compile_bytecode.py PREFIX STAMP SOURCE_DIR...   (run by the interpreter the build embeds)
Stale or missing files are recompiled, current ones kept; the stamp is written even when some file does not
compile (a file Python cannot compile is compiled, and reported, by Python at import time instead).
"""
import compileall
import os
import re
import sys

# Test suites and data that are never imported in a run (and some do not compile on purpose).
SKIP = re.compile(r"/(test|tests|idlelib|lib2to3|tkinter|turtledemo|ensurepip|site-packages)/")


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    prefix, stamp, sources = argv[1], argv[2], argv[3:]
    sys.pycache_prefix = os.path.abspath(prefix)  # compileall writes where importlib will look
    ok = True
    for source in sources:
        if os.path.isdir(source):
            ok &= bool(compileall.compile_dir(source, quiet=2, rx=SKIP, workers=0))
    if not ok:
        print("compile_bytecode: some files did not compile; Python compiles them at import", file=sys.stderr)
    with open(stamp, "w") as f:
        f.write("\n".join(sources) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

# realcode_speed.py's wrapper: imports torch (start-up, not measured), then runs SCRIPT as __main__ and writes the
# CPU seconds the script itself took (user + system of this process and of the children it waited for) to the
# file named by DS_SPEED_OUT, however the script ends. Run as `python3 _timed_main.py SCRIPT [ARG ...]` or
# `devicescope run _timed_main.py -- SCRIPT [ARG ...]`; the script sees sys.argv = [SCRIPT, ARG ...].
import os
import resource
import runpy
import sys

import torch  # noqa: F401  (start-up: outside the measured part)


def cpu_seconds():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


script, out_path = sys.argv[1], os.environ["DS_SPEED_OUT"]
sys.argv = sys.argv[1:]
sys.path[0] = os.path.dirname(os.path.abspath(script))
start = cpu_seconds()
try:
    runpy.run_path(script, run_name="__main__")
finally:
    with open(out_path, "w") as f:
        f.write(repr(cpu_seconds() - start))

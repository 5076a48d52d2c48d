#!/usr/bin/python3
"""Runs a script under `devicescope run` with the optimizers' foreach ops in C++ (engine/python/bindings_foreach.cpp,
called by torch/optim/_foreach.py) and without them (DEVICESCOPE_PY_FOREACH=1: the per-tensor Python loops, the
reference), and wants the same stdout: the same values to the last bit, version counters, state and allocator trace.

Usage: run_foreach_agreement.py DEVICESCOPE_BINARY SCRIPT [SCRIPT ...]
Each script prints "foreach kernels: on" or "foreach kernels: off" first, so a run that did not take the path it was
meant to fails instead of comparing the Python loops with themselves. Shared runner: switch_agreement.py.
"""
import sys

from switch_agreement import main

if __name__ == "__main__":
    sys.exit(main(sys.argv, __doc__, "DEVICESCOPE_PY_FOREACH",
                  reference=("Python loops", "foreach kernels: off"), candidate=("C++ kernels", "foreach kernels: on")))

#!/usr/bin/python3
"""Runs a script under `devicescope run` with the C++ fast path of the ops (engine/python/bindings_ops.cpp,
torch/_fast_ops.py) and without it (DEVICESCOPE_NO_FAST_OPS=1: the Python path, the reference), and wants the
same stdout: the fast path must give the same values, grad_fn classes, saved tensors, next_functions and
allocator trace as the Python path it stands in front of.

Usage: run_fast_path_agreement.py DEVICESCOPE_BINARY SCRIPT [SCRIPT ...]
Each script prints "fast path: on" or "fast path: off" first (whether Tensor.__add__ is the fast entry), so a
run where the fast path was not installed (or not left out) fails instead of comparing the Python path with
itself. Shared runner: switch_agreement.py.
"""
import sys

from switch_agreement import main

if __name__ == "__main__":
    sys.exit(main(sys.argv, __doc__, "DEVICESCOPE_NO_FAST_OPS",
                  reference=("python path", "fast path: off"), candidate=("fast path", "fast path: on")))

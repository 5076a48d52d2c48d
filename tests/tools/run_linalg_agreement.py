#!/usr/bin/python3
"""Runs a script under `devicescope run` with torch.addmm's C++ entry (engine/python/bindings_linalg_fast.cpp) and
without it (DEVICESCOPE_PY_LINALG=1: torch/_ops/linalg.py's Python path, the reference), and wants the same stdout:
the same values, nodes, saved tensors, gradients, cuBLAS workspaces and allocator trace.

Usage: run_linalg_agreement.py DEVICESCOPE_BINARY SCRIPT [SCRIPT ...]
Each script prints "linalg fast path: on" or "linalg fast path: off" first. Shared runner: switch_agreement.py.
"""
import sys

from switch_agreement import main

if __name__ == "__main__":
    sys.exit(main(sys.argv, __doc__, "DEVICESCOPE_PY_LINALG",
                  reference=("python path", "linalg fast path: off"), candidate=("C++ entry", "linalg fast path: on")))

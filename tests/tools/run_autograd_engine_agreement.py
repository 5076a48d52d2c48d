#!/usr/bin/python3
"""Runs a script under `devicescope run` with the backward engine"s C++ loop (engine/python/bindings_autograd.cpp)
and with the Python engine it follows (DEVICESCOPE_PY_AUTOGRAD=1: torch/autograd/graph.py"s _execute_py, the
reference), and wants the same stdout: the same gradients, hook calls, errors and allocator trace (when each
gradient buffer is allocated, accumulated in place and freed).

Usage: run_autograd_engine_agreement.py DEVICESCOPE_BINARY SCRIPT [SCRIPT ...]
Each script prints "engine: C++" or "engine: python" first, so a run that did not take the engine it was meant to
fails instead of comparing an engine with itself. Shared runner: switch_agreement.py.
"""
import sys

from switch_agreement import main

if __name__ == "__main__":
    sys.exit(main(sys.argv, __doc__, "DEVICESCOPE_PY_AUTOGRAD",
                  reference=("python engine", "engine: python"), candidate=("C++ engine", "engine: C++")))

#!/usr/bin/python3
"""Runs a script under `devicescope run` with the recurrent cells' C++ step kernels (engine/python/bindings_rnn.cpp,
called by torch/nn/_rnn_cells.py) and without them (DEVICESCOPE_PY_RNN=1: the numpy path, the reference), and
wants the same stdout: the kernels must give the same values, grad_fn classes, saved tensors, next_functions and
allocator trace as the numpy path they stand in front of.

Usage: run_rnn_kernel_agreement.py DEVICESCOPE_BINARY SCRIPT [SCRIPT ...]
Each script prints "rnn kernels: on" or "rnn kernels: off" first, so a run that did not take the path it was
meant to fails instead of comparing the numpy path with itself. Shared runner: switch_agreement.py.
"""
import sys

from switch_agreement import main

if __name__ == "__main__":
    sys.exit(main(sys.argv, __doc__, "DEVICESCOPE_PY_RNN",
                  reference=("numpy path", "rnn kernels: off"), candidate=("C++ kernels", "rnn kernels: on")))

#!/usr/bin/python3
"""Runs a script under `devicescope run` with the composite ops' direct backward nodes (F.embedding's
EmbeddingBackward0 running embedding_dense_backward, ...) and with the recomputing composite they replaced
(DEVICESCOPE_PY_COMPOSITE=1: nn/_composite.py's `named`, the reference), and wants the same stdout: the same
gradients, node names, saved values, errors and allocator trace.

Usage: run_composite_backward_agreement.py DEVICESCOPE_BINARY SCRIPT [SCRIPT ...]
Each script prints "composite: direct" or "composite: reference" first, so a run that did not take the path it
was meant to fails instead of comparing a path with itself. Shared runner: switch_agreement.py.
"""
import sys

from switch_agreement import main

if __name__ == "__main__":
    sys.exit(main(sys.argv, __doc__, "DEVICESCOPE_PY_COMPOSITE",
                  reference=("composite reference", "composite: reference"),
                  candidate=("direct backward", "composite: direct")))

"""Shared pieces of the script-suite runners (run_scenarios.py, run_conformance.py)."""
import os


def collect(paths):
    """Every .py file named, or inside a named folder (sorted), as absolute paths."""
    scripts = []
    for path in paths:
        if os.path.isdir(path):
            scripts += sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".py"))
        else:
            scripts.append(path)
    return [os.path.abspath(s) for s in scripts]


def stderr_tail(text, lines=15):
    """The last lines of a process's stderr, indented for a failure report."""
    if not text.strip():
        return "    (empty)"
    return "\n".join("    " + l for l in text.rstrip().split("\n")[-lines:])

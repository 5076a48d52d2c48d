#!/usr/bin/python3
"""Fails on import cycles inside DeviceScope's torch package (engine/python/torch).

Usage: check_import_cycles.py [PACKAGE_DIR]     (default: engine/python/torch next to this checkout)

Reads every module with `ast` (nothing is imported) and builds the graph of its imports at module level AND
inside functions: an import inside a function that only hides a circle is still a circle. One kind of edge
is left out: a module importing a package it lives in (`import torch` in torch/nn/linear.py), because the
package's __init__ has already run by then, as in PyTorch. Every strongly connected component with more than
one module is a cycle; it fails unless it is exactly one of ALLOWED below, and an ALLOWED entry that is no
longer a cycle fails too (so the list only shrinks). Exits 0 when clean, 1 otherwise, printing each cycle.
"""
import ast
import os
import sys

# Cycles not broken yet, each with why. Keep this list short; delete entries as the cycles go.
ALLOWED = {
    frozenset({
        "torch._factories", "torch._ops._core", "torch._ops.elementwise", "torch._ops.indexing",
        "torch._ops.join", "torch._ops.out", "torch._ops.overlap", "torch._ops.reduction", "torch._ops.shape",
        "torch._ops.unary", "torch._random", "torch._tensor", "torch._tensor_protocols", "torch._tensor_str",
        "torch.autograd", "torch.autograd.function", "torch.autograd.gradcheck", "torch.autograd.graph",
    }): "issue 15's 15-file circle: autograd and the op modules build tensors through imports inside "
        "functions (_factories, _tensor); needs the low-level pieces moved below them",
}


def module_names(package_dir):
    """{dotted name: path} for every .py file under package_dir (a package is named by its __init__)."""
    root = os.path.dirname(os.path.abspath(package_dir))
    names = {}
    for folder, _, files in os.walk(package_dir):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
                if name.endswith(".__init__"):
                    name = name[: -len(".__init__")]
                names[name] = path
    return names


def imported_names(name, path, tree):
    """Dotted names each import statement of the module can load (`from a import b` may load a.b)."""
    is_package = os.path.basename(path) == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = name.split(".")
                if not is_package:
                    parts = parts[:-1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module
            yield base
            yield from (base + "." + a.name for a in node.names)


def import_graph(names):
    graph = {}
    for name, path in names.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        targets = set()
        for target in imported_names(name, path, tree):
            while target and target not in names:  # `from x import function` -> module x
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    package_dir = argv[1] if len(argv) > 1 else os.path.join(here, "..", "..", "engine", "python", "torch")
    graph = import_graph(module_names(package_dir))
    found = cycles(graph)
    failures = 0
    for component in sorted(found, key=lambda c: (-len(c), sorted(c))):
        if component in ALLOWED:
            print(f"allowed cycle ({len(component)} modules): {ALLOWED[component]}")
            continue
        failures += 1
        print(f"import cycle ({len(component)} modules):")
        for member in sorted(component):
            inside = sorted(t for t in graph[member] if t in component)
            print(f"  {member} -> {', '.join(inside)}")
    for component, reason in ALLOWED.items():
        if component not in found:
            failures += 1
            print(f"stale ALLOWED entry (no longer exactly this cycle; update the list): {reason}")
    print(f"{len(graph)} modules, {len(found)} cycles, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

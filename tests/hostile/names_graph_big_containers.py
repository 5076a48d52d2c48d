# hostile: containers that would flood the names graph (issue 17): a transfer record (a dict of 16 plain
# values) is one box with its values in the label; a list of 1000 tensors shows its first 4 and one
# "+N more" box, and the folded tensors still count as held by their paths (the memory panes name them).
# expect-exit: 0
# expect-stdout: record: 1 box, dict[16] {'a': 0, 'b': 1, 'c': 2...
# expect-stdout: history: 6 boxes, +996 more: Tensor x60, +936 not looked at
# expect-stdout: held paths: 64 of history[0..63]
import torch
from devicescope import names

record = {k: i for i, k in enumerate("abcdefghijklmnop")}
history = [torch.zeros(1) for _ in range(1000)]
graph = names.build_object_graph({"record": record, "history": history})
nodes = {n["id"]: n for n in graph["nodes"]}
children = {}
for e in graph["edges"]:
    children.setdefault(e["from"], []).append(e["to"])


def reach(root):
    seen, stack = [], [root]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.append(n)
        stack.extend(children.get(n, []))
    return [nodes[n] for n in seen if nodes[n]["kind"] != "name"]


for name in ("record", "history"):
    root = next(n["id"] for n in graph["nodes"] if n["kind"] == "name" and n["label"] == name)
    boxes = reach(root)
    detail = boxes[0]["label"] if name == "record" else next(b["label"] for b in boxes if b["label"].startswith("+"))
    print("{}: {} box{}, {}".format(name, len(boxes), "" if len(boxes) == 1 else "es", detail))
paths = sorted(p for h in graph["holders"] for p in h["names"])
print("held paths: {} of history[0..{}]".format(len(paths), max(int(p[8:-1]) for p in paths)))

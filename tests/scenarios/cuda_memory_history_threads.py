# torch.cuda.memory history while Python threads allocate, while an exception unwinds a frame holding a CUDA
# tensor, and while the collector frees cycles of them: every alloc and free recorded once, frames from each
# thread, totals equal to memory_allocated(), and no deadlock (the recorder never runs Python under its lock).
import threading, torch, gc
torch.cuda.memory._record_memory_history()
def f():
    t = torch.ones(10, device="cuda")
    raise ValueError("x")
try:
    f()
except ValueError:
    pass
class Cyc:
    def __init__(self):
        self.me = self
        self.t = torch.ones(20, device="cuda")
for _ in range(1000):
    Cyc()
def work():
    for _ in range(200):
        x = torch.ones(30, device="cuda") * 2
ths = [threading.Thread(target=work) for _ in range(4)]
[t.start() for t in ths]; [t.join() for t in ths]
gc.collect()
s = torch.cuda.memory._snapshot()
acts = {}
for e in s["device_traces"][0]:
    acts[e["action"]] = acts.get(e["action"], 0) + 1
print(acts)
print(torch.cuda.memory_allocated() == sum(g["allocated_size"] for g in s["segments"] if g["device"] == 0))
names = {f["name"] for e in s["device_traces"][0] for f in e.get("frames", [])}
print("work" in names, "f" in names, "__init__" in names)

# %% lesson: "cuda" without an index, the current device, and the default device
# | `torch.device("cuda")` is not `torch.device("cuda:0")`. An index-less "cuda" means "the *current* CUDA
# | device", looked up at the moment a tensor is allocated or moved. Two different knobs exist:
# | `torch.cuda.set_device` / `with torch.cuda.device(i)` change the *current CUDA device*;
# | `torch.set_default_device` / `with torch.device(...)` change the *default device* of factory functions.
# requires: torch.cuda.device_count() >= 2
# verdict: FALSE | `torch.device("cuda")` and `torch.device("cuda:0")` are the same device | They compare unequal; "cuda" is resolved to the current device only when used | Two ways to say cuda
# verdict: FALSE | `t.to("cuda")` leaves a tensor on cuda:1 where it is | "cuda" means the current device (cuda:0 by default), so the tensor is copied to cuda:0 | `.to("cuda")` from cuda:1
# verdict: FALSE | `with torch.cuda.device(1):` makes new tensors default to GPU 1 | It changes the current CUDA device only; `torch.zeros(2)` still lands on the CPU | Two knobs: current device and default device

# %% step: Two ways to say cuda
# ? What is `torch.device("cuda") == torch.device("cuda:0")`?
# - True
# = False
import torch

a = torch.device("cuda")
b = torch.device("cuda:0")
print(a == b, a.index, b.index, torch.cuda.current_device())
t = torch.zeros(2, device=a)
print(t.device, t.device == b)
# expect-stdout: False None 0 0
# expect-stdout: cuda:0 True
# > A device is a type plus an optional index, and the index is part of equality. An allocation with
# > `device="cuda"` resolves it to the current device, so the *tensor's* device always has an index.

# %% step: `.to("cuda")` from cuda:1
# ? Where does `t1.to("cuda")` put a tensor that lives on cuda:1 (current device 0)?
# - it returns `t1` itself: it is already on a CUDA device
# = a copy on cuda:0
# - a copy on cuda:1
t1 = torch.randn(3, device="cuda:1")
u = t1.to("cuda")
print(u.device, u is t1)
# expect-stdout: cuda:0 False
# > `Tensor.to` first turns "cuda" into "cuda:<current device>" and then compares. cuda:0 != cuda:1, so it
# > copies. (`t1.cuda()` does the same.)

# %% step: Changing the current device
torch.cuda.set_device(1)
v = t1.to("cuda")
w = torch.zeros(2).cuda()
print(torch.cuda.current_device(), v is t1, w.device)
torch.cuda.set_device(0)
# expect-stdout: 1 True cuda:1
# > With cuda:1 current, "cuda" means cuda:1: `t1` is already there, so `to` returns it unchanged, and
# > `.cuda()` copies to cuda:1. (We set it back to 0 afterwards.)

# %% step: Two knobs: current device and default device
# ? Inside `with torch.cuda.device(1):`, where does `torch.zeros(2)` (no `device=`) go?
# = cpu
# - cuda:1
# - cuda:0
with torch.cuda.device(1):
    p = torch.zeros(2)
    q = torch.zeros(2, device="cuda")
with torch.device("cuda:1"):
    r = torch.zeros(2)
    s = torch.zeros(2).cuda()
    current = torch.cuda.current_device()
print(p.device, q.device, r.device, s.device, current)
# expect-stdout: cpu cuda:1 cuda:1 cuda:0 0
# > `torch.cuda.device(1)` changes what "cuda" means; factory functions without `device=` still use the
# > default device (the CPU). `torch.device("cuda:1")` as a context manager (PyTorch 2.0+) changes the default
# > device of factory functions - but not the current CUDA device, so `.cuda()` inside it still goes to cuda:0.

# %% step: The default device for a whole script
torch.set_default_device("cuda:1")
x = torch.randn(2)
y = torch.zeros_like(torch.empty(2, device="cpu"))
torch.set_default_device(None)
z = torch.randn(2)
print(x.device, y.device, z.device)
# expect-stdout: cuda:1 cpu cpu
# > `torch.set_default_device` is the global version of the context manager. The `*_like` factories follow
# > their input tensor, not the default device. Setting it back to `None` restores the CPU default.

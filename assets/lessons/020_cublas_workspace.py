# %% lesson: Why the first matmul takes 32 MiB: cuBLAS's workspace
# | Multiply two small matrices on an H100 and `torch.cuda.memory_allocated()` jumps by 32 MiB - far more than
# | the result. The extra block is cuBLAS's *workspace*: scratch memory PyTorch hands to cuBLAS, taken from the
# | caching allocator the first time a thread calls cuBLAS on a stream (`aten/src/ATen/cuda/CublasHandlePool.cpp`,
# | `getCurrentCUDABlasHandle`). Its size depends on the GPU: 32 MiB on Hopper (compute capability 9.0),
# | 8,519,680 bytes (`:4096:2:16:8`, about 8.1 MiB) on other GPUs, or what `CUBLAS_WORKSPACE_CONFIG` says.
# |
# | Run it on a simulated H100 (`--link pcie5-x16`, sm_90) to see the 32 MiB; on another profile the numbers are
# | that architecture's. The numbers below assume a fresh session (nothing allocated yet on cuda:0).
# requires: torch.cuda.is_available()
# verdict: FALSE | `memory_allocated()` counts only my tensors | cuBLAS's workspace is a caching-allocator block too, counted like a tensor | The first matmul
# verdict: FALSE | `torch.cuda.empty_cache()` frees cuBLAS's workspace | The workspace is a live block, held per thread and stream until `torch._C._cuda_clearCublasWorkspaces()` | `empty_cache()` does not free it
# verdict: TRUE | Backward can take another workspace | The autograd engine runs CUDA backward on its own thread, which has its own cuBLAS handle | Backward has its own

# %% step: The first matmul
# ? `c = a @ b` makes a 64 x 16 float32 result (4 KiB). On an H100, by how much does `memory_allocated()` grow?
# - 4 KiB (4096): the result, nothing else
# - 8 KiB: the result and a transposed copy of `b`
# = 32 MiB + 4 KiB: the result and cuBLAS's 32 MiB workspace
import torch

MiB = 1024 * 1024
capability = torch.cuda.get_device_capability()
workspace = 32 * MiB if capability == (9, 0) else 8519680  # PyTorch 2.6's defaults
a = torch.randn(64, 32, device="cuda")
b = torch.randn(32, 16, device="cuda")
before = torch.cuda.memory_allocated()
c = a @ b
grown = torch.cuda.memory_allocated() - before
print("sm_%d%d" % capability, grown, grown - c.nbytes)
# expect: grown == c.nbytes + workspace
# > The result needs 4 KiB; the rest is one block of `workspace` bytes (32 MiB on sm_90), made on cuBLAS's
# > first call from this thread on this stream. A snapshot (`torch.cuda.memory._snapshot()`) shows it as its own
# > segment; DeviceScope names its owner "cuBLAS workspace" and gives it the *workspace* role.

# %% step: Only once per thread and stream
d = a @ b
e = torch.mm(b.t(), b)
print(torch.cuda.memory_allocated() - before - c.nbytes - d.nbytes - e.nbytes)
side = torch.cuda.Stream()
with torch.cuda.stream(side):
    f = a @ b
print(torch.cuda.memory_allocated() - before - c.nbytes - d.nbytes - e.nbytes - f.nbytes)
# expect: torch.cuda.memory_allocated() - before - c.nbytes - d.nbytes - e.nbytes - f.nbytes == 2 * workspace
# > Later matmuls reuse the workspace: it belongs to the (cuBLAS handle, stream) pair, and a handle belongs to
# > a thread. A matmul on another stream gets a second one. It stays allocated for the life of the process.

# %% step: `empty_cache()` does not free it
# ? After `torch.cuda.empty_cache()`, how much of the workspaces is still allocated?
# - none: empty_cache() releases everything PyTorch does not use
# = all of it: the workspaces are live blocks; only torch._C._cuda_clearCublasWorkspaces() lets them go
# - half: the side stream's workspace goes, the default stream's stays
held = torch.cuda.memory_allocated()
torch.cuda.empty_cache()
print(held - torch.cuda.memory_allocated())
torch._C._cuda_clearCublasWorkspaces()
print(held - torch.cuda.memory_allocated())
torch.cuda.empty_cache()
# expect: held - torch.cuda.memory_allocated() == 2 * workspace
# > `empty_cache()` only returns segments with no live block, and each workspace is live until
# > `torch._C._cuda_clearCublasWorkspaces()` drops PyTorch's references to them. The next matmul makes a new one.

# %% step: Backward has its own
lin = torch.nn.Linear(32, 16, bias=False).cuda()
x = torch.randn(8, 32, device="cuda", requires_grad=True)
y = lin(x).sum()
before = torch.cuda.memory_allocated()
y.backward()
extra = torch.cuda.memory_allocated() - before - x.grad.nbytes - lin.weight.grad.nbytes
print(extra)
# expect: extra == workspace
# > The forward's matmul made this thread's workspace again (it was cleared above). Backward's matmuls run on the
# > autograd engine's device thread, which has its own cuBLAS handle and so its own workspace: a snapshot shows
# > it with C++ frames only, since no Python runs on that thread. Training on an H100 therefore holds two
# > 32 MiB blocks (three with a side stream) before any activation.

# %% step: Making it smaller
# | `CUBLAS_WORKSPACE_CONFIG` sets the size as `:SIZE_KiB:COUNT` pairs. `:16:8` (128 KiB) is what
# | `torch.use_deterministic_algorithms(True)` asks for; `:4096:8` is the 32 MiB default of Hopper. Set it before
# | the first matmul (in the shell, or at the top of the script): PyTorch reads it when it makes a workspace.
import os

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":16:8"
with torch.cuda.stream(torch.cuda.Stream()):
    before = torch.cuda.memory_allocated()
    g = a @ b
    print(torch.cuda.memory_allocated() - before - g.nbytes)
del os.environ["CUBLAS_WORKSPACE_CONFIG"]
# expect-stdout: 131072
# > 16 KiB x 8 = 128 KiB. Smaller workspaces can make some matmuls slower; on memory-tight GPUs the saving is
# > real, once per thread and stream.

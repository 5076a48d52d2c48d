# cuBLAS workspaces on a simulated H100 (pcie5-x16, sm_90), as PyTorch 2.6 makes them (Note [cuBLAS
# workspaces], engine/alloc/blas_workspace.h; aten/src/ATen/cuda/CublasHandlePool.cpp): 32 MiB from the caching
# allocator at the first BLAS call of each (thread's handle, stream), owned by "cuBLAS workspace", held until
# torch._C._cuda_clearCublasWorkspaces() (empty_cache cannot free them); the autograd engine's device thread
# has its own; cuBLASLt's workspace (addmm with a bias) is allocated and freed inside each call.
# devicescope-args: --link pcie5-x16
import threading

import torch

MiB = 1 << 20


def ws_blocks(device=0):
    """(size, owner, python frames?) of the live workspace blocks, from _snapshot()'s segments."""
    out = []
    for seg in torch.cuda.memory._snapshot()["segments"]:
        if seg["device"] != device:
            continue
        for b in seg["blocks"]:
            frames = b.get("frames", [])
            if b["state"] == "active_allocated" and frames and frames[0]["filename"] == "<devicescope workspace>":
                out.append((b["size"], frames[0]["name"], any(f["filename"].endswith(".py") for f in frames)))
    return out


print("capability:", torch.cuda.get_device_capability(0), torch.cuda.get_device_properties(0).major)
torch.cuda.memory._record_memory_history(max_entries=100000)
a = torch.randn(64, 32, device="cuda")
b = torch.randn(32, 16, device="cuda")
before = torch.cuda.memory_allocated()
c = a @ b
print("first matmul adds:", torch.cuda.memory_allocated() - before - c.nbytes)
print("blocks:", ws_blocks())
before = torch.cuda.memory_allocated()
d = torch.mm(a, b)
e = torch.bmm(a.view(2, 32, 32), a.view(2, 32, 32))
print("more matmuls on this thread and stream add:", torch.cuda.memory_allocated() - before - d.nbytes - e.nbytes)

# another stream: another workspace for the same handle
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    before = torch.cuda.memory_allocated()
    f = a @ b
    print("first matmul on a side stream adds:", torch.cuda.memory_allocated() - before - f.nbytes)
torch.cuda.synchronize()

# another device: its own handle and workspace
with torch.cuda.device(1):
    g = torch.randn(8, 8, device="cuda:1")
    before = torch.cuda.memory_allocated(1)
    h = g @ g
    print("cuda:1 first matmul adds:", torch.cuda.memory_allocated(1) - before - 512)  # h: one 512-byte block

# backward runs on the autograd engine's device thread: its own handle, so its own workspace, whose
# allocation has no Python frames (only C++ ones)
lin = torch.nn.Linear(32, 16, bias=False).cuda()
x = torch.randn(4, 32, device="cuda", requires_grad=True)
y = lin(x).sum()
before = torch.cuda.memory_allocated()
y.backward()
print("backward adds beyond the gradients:", torch.cuda.memory_allocated() - before - x.grad.nbytes
      - lin.weight.grad.nbytes)
print("blocks:", ws_blocks())
# a thread reserves its own handle; when it ends the handle goes back to the pool, and the next thread that
# needs one gets it back, with its workspace
def matmul():
    a @ b


before = torch.cuda.memory_allocated()
t = threading.Thread(target=matmul)
t.start()
t.join()
del t
print("a new thread's first matmul adds:", torch.cuda.memory_allocated() - before)
t2 = threading.Thread(target=matmul)
t2.start()
t2.join()
print("the next thread reuses the returned handle, adds:", torch.cuda.memory_allocated() - before - 32 * MiB)
print("workspaces held:", sorted((d, h, st, n) for d, h, st, _, n in torch._blas_workspace.held()))

torch.cuda.memory._record_memory_history(None)
torch.cuda.memory._record_memory_history(max_entries=100000, stacks="all")
torch._C._cuda_clearCublasWorkspaces()
lin(x).sum().backward()
cpp_only = [b for b in ws_blocks() if not b[2]]
print("device thread block, stacks='all':", cpp_only)
seg_frames = [blk["frames"] for seg in torch.cuda.memory._snapshot()["segments"] for blk in seg["blocks"]
              if blk["state"] == "active_allocated" and blk.get("frames")
              and blk["frames"][0]["filename"] == "<devicescope workspace>"]
print("its frames:", [[f["name"] for f in fr] for fr in seg_frames if not any(f["filename"].endswith(".py")
                                                                               for f in fr)])

# cuBLASLt (addmm with a 1-D bias, so nn.Linear with a bias): 1 MiB for the call, freed when it returns
lin_b = torch.nn.Linear(32, 16).cuda()
torch.cuda.memory._record_memory_history(None)
torch.cuda.memory._record_memory_history(max_entries=100000)
before = torch.cuda.memory_allocated()
out = lin_b(a)
trace = torch.cuda.memory._snapshot()["device_traces"][0]
print("addmm trace:", [(e["action"], e["size"]) for e in trace if e["action"] in ("alloc", "free_completed")])
print("addmm keeps:", torch.cuda.memory_allocated() - before - out.nbytes)
torch.cuda.memory._record_memory_history(None)

# empty_cache keeps the workspaces; clearing them frees the blocks, and then empty_cache can release them
held = sum(n for d, *_, n in torch._blas_workspace.held() if d == 0)
alloc, reserved = torch.cuda.memory_allocated(), torch.cuda.memory_reserved()
torch.cuda.empty_cache()
print("empty_cache: allocated", torch.cuda.memory_allocated() - alloc, "reserved >= held",
      torch.cuda.memory_reserved() >= held)
torch._C._cuda_clearCublasWorkspaces()
print("cleared: allocated drops by", alloc - torch.cuda.memory_allocated(), "| held on cuda:0:", held)
torch.cuda.empty_cache()
print("held after clear:", torch._blas_workspace.held())
before = torch.cuda.memory_allocated()
a @ b
print("first matmul after clearing adds:", torch.cuda.memory_allocated() - before)

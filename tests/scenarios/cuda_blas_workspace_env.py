# cuBLAS workspace sizes on a simulated A100 (pcie4-x16, sm_80) and the environment variables PyTorch 2.6 reads
# (Note [cuBLAS workspaces], engine/alloc/blas_workspace.h): the sm_80 default ":4096:2:16:8" (8,519,680
# bytes), CUBLAS_WORKSPACE_CONFIG read at each new workspace (":SIZE:COUNT" pairs in KiB; unparsable warns
# and keeps the default), CUBLASLT_WORKSPACE_SIZE (KiB) read once, at the first cuBLASLt call.
# devicescope-args: --link pcie4-x16
import os
import warnings

import torch

a = torch.randn(16, 16, device="cuda")
print("capability:", torch.cuda.get_device_capability())


def new_workspace():
    """The bytes the first matmul on a fresh stream adds (a new (handle, stream) pair)."""
    with torch.cuda.stream(torch.cuda.Stream()):
        before = torch.cuda.memory_allocated()
        r = a @ a
        return torch.cuda.memory_allocated() - before - r.nbytes


print("default:", new_workspace())
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
print(":4096:8 ->", new_workspace())
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":16:8"   # the deterministic-algorithms setting
print(":16:8 ->", new_workspace())
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:2:16:8"
print(":4096:2:16:8 ->", new_workspace())
os.environ["CUBLAS_WORKSPACE_CONFIG"] = "4096"
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("'4096' ->", new_workspace())
print("warning:", [str(w.message) for w in caught])
del os.environ["CUBLAS_WORKSPACE_CONFIG"]

os.environ["CUBLASLT_WORKSPACE_SIZE"] = "2048"
lin = torch.nn.Linear(16, 8).cuda()
torch.cuda.memory._record_memory_history(max_entries=1000)
lin(a)
trace = torch.cuda.memory._snapshot()["device_traces"][0]
print("cuBLASLt workspace of the call:", [e["size"] for e in trace if e["action"] == "alloc"][1:])
os.environ["CUBLASLT_WORKSPACE_SIZE"] = "64"  # read once per process, as _getWorkspaceSize's static
lin(a)
trace = torch.cuda.memory._snapshot()["device_traces"][0]
print("after changing it:", [e["size"] for e in trace if e["action"] == "alloc"][-1])

# addmm off the Lt path: beta != 1, a 2-D input, or mat2 with one column: cuBLAS only, nothing per call
torch.cuda.memory._record_memory_history(None)
torch.cuda.memory._record_memory_history(max_entries=1000)
bias = torch.randn(16, device="cuda")
torch.addmm(bias, a, a, beta=0.5)
torch.addmm(a, a, a)
torch.addmm(bias[:1], a, a[:, :1])
trace = torch.cuda.memory._snapshot()["device_traces"][0]
print("non-Lt addmm allocations:", [e["size"] for e in trace if e["action"] == "alloc"])

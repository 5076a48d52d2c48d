# The (log_)softmax kernels' own buffers, as the allocator sees them in PyTorch 2.x (SoftMax.cu, SoftMax.cpp): a
# strided input is copied contiguous after the output is allocated and freed on return; CUDA's softmax backward
# computes `tmp = grad * output` (a grad-sized temporary) after grad_input; a strided grad is copied contiguous.
# (Luong attention's softmax(energies.t(), dim=1) takes the copy on every decoder step.)
import torch, torch.nn.functional as F
torch.cuda.memory._record_memory_history(max_entries=100000)
def trace(label, f):
    n0 = len(torch.cuda.memory._snapshot()["device_traces"][0])
    f()
    ev = torch.cuda.memory._snapshot()["device_traces"][0][n0:]
    print(label, [f"{e['action']}:{e['size']}" for e in ev if e["action"] in ("alloc", "free_completed")])
x = torch.randn(16, 10, device="cuda", requires_grad=True)
e = x * 1
trace("softmax contiguous", lambda: F.softmax(e, dim=1))
trace("softmax transposed", lambda: F.softmax(e.t(), dim=1))
trace("log_softmax transposed", lambda: F.log_softmax(e.t(), dim=1))
y = F.softmax(e, dim=1)
trace("softmax backward", lambda: y.backward(torch.ones_like(y), retain_graph=True))
z = F.log_softmax(e, dim=1)
g = torch.ones(10, 16, device="cuda").t()
trace("log_softmax backward strided grad", lambda: z.backward(g))

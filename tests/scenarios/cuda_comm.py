# torch.cuda.comm (nn.parallel.comm): broadcast keeps the source tensor for its own device, scatter splits
# evenly, gather concatenates on the destination, reduce_add sums on it.
import torch
import torch.cuda.comm as comm
x = torch.arange(6.).cuda(0)
b = comm.broadcast(x, [0, 1])
print([t.device for t in b], b[0] is x)
s = comm.scatter(torch.arange(10.), [0, 1])
print([(t.device, tuple(t.shape)) for t in s])
g = comm.gather(s, destination=1)
print(g.device, g.tolist())
r = comm.reduce_add([torch.ones(3, device="cuda:0"), torch.ones(3, device="cuda:1")], destination=0)
print(r, r.device)

# nn.DataParallel on 2 simulated GPUs: every forward scatters the batch (rows 0-2 to cuda:0, rows 3-5 to
# cuda:1), broadcasts every parameter and buffer to cuda:1 (the cuda:0 replica uses the originals' memory),
# runs both replicas and gathers the outputs on cuda:0; backward sends the output gradient's half back to
# cuda:1 and sums cuda:1's parameter gradients into the originals' .grad on cuda:0. Each copy is a recorded
# transfer named after what it carries ("module.fc.weight -> cuda:1"). BatchNorm in a replica normalises
# with its own half of the batch only, and only the cuda:0 replica's running statistics reach the original.
import torch
from torch import nn
import devicescope.engine as dse


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.bn = nn.BatchNorm1d(3)

    def forward(self, x):
        print("  replica:", x.device, tuple(x.shape), "fc.weight on", self.fc.weight.device,
              "is a Parameter:", isinstance(self.fc.weight, nn.Parameter))
        return self.bn(self.fc(x))


torch.manual_seed(0)
net = Net()
model = nn.DataParallel(net).to("cuda:0")
print(model)
print(list(model.state_dict().keys()))
print(model.module is net, model.device_ids, model.output_device)

seen = len(dse.transfers())
x = torch.arange(24, dtype=torch.float32).reshape(6, 4) / 10
out = model(x)
print("output", tuple(out.shape), out.device, type(out.grad_fn).__name__)
print("forward copies:")
for t in dse.transfers()[seen:]:
    print(f"  {t['src']:>8} -> {t['dst']:<7} {t['bytes']:4d} B  {t['owner']}")

seen = len(dse.transfers())
out.pow(2).sum().backward()
print("backward copies:")
for t in dse.transfers()[seen:]:
    print(f"  {t['src']:>8} -> {t['dst']:<7} {t['bytes']:4d} B  {t['owner']}")
print("grad on", net.fc.weight.grad.device, "running_mean on", net.bn.running_mean.device)

# the same arithmetic by hand: each half through the module alone (BatchNorm sees only its half)
with torch.no_grad():
    check = Net().to("cuda:0")
    check.load_state_dict({k: v for k, v in net.state_dict().items()})
    halves = [check.fc(x[:3].cuda()), check.fc(x[3:].cuda())]
    expect = torch.cat([(h - h.mean(0)) / torch.sqrt(h.var(0, unbiased=False) + 1e-5) for h in halves])
print("matches per-half BatchNorm:", torch.allclose(out.detach(), expect * net.bn.weight + net.bn.bias, atol=1e-5))
print("num_batches_tracked", int(net.bn.num_batches_tracked))

# gradients equal the sum over replicas: a model without BatchNorm agrees with the plain module
lin = nn.Linear(4, 2).cuda()
ref = nn.Linear(4, 2).cuda()
ref.load_state_dict(lin.state_dict())
nn.DataParallel(lin)(x).pow(2).sum().backward()
ref(x.cuda()).pow(2).sum().backward()
print("grads match the single-device module:", torch.allclose(lin.weight.grad, ref.weight.grad, atol=1e-5),
      torch.allclose(lin.bias.grad, ref.bias.grad, atol=1e-5))

# under no_grad the replicas are plain copies: no autograd node, still recorded
with torch.no_grad():
    y = model(x)
print("no_grad output", y.requires_grad, y.grad_fn)

# the functional pieces
replicas = nn.parallel.replicate(net, [0, 1])
print([r.fc.weight.device for r in replicas], replicas[0].fc.weight.data_ptr() == net.fc.weight.data_ptr())
chunks = nn.parallel.scatter(x, [0, 1])
print([(tuple(c.shape), str(c.device)) for c in chunks])
outs = nn.parallel.parallel_apply([r.fc for r in replicas], [(c.cuda(i),) for i, c in enumerate(chunks)])
print(nn.parallel.gather(outs, "cpu").device, nn.parallel.gather(outs, 0).shape)

try:
    nn.DataParallel(nn.Linear(4, 2))(x)
except RuntimeError as e:
    print(type(e).__name__, e)


# an exception inside a replica comes back as PyTorch's ExceptionWrapper re-raises it
class Broken(nn.Module):
    def forward(self, x):
        if x.device.index == 1:
            raise ValueError("bad batch")
        return x


try:
    nn.DataParallel(Broken())(x)
except ValueError as e:
    lines = str(e).splitlines()
    print(type(e).__name__, lines[0], "|", lines[-1])

# Mixed precision on a simulated GPU: torch.autocast's per-op policy (matmul/linear/conv in float16; softmax,
# losses, exp, sum in float32; ops outside the lists keep their input dtype; CPU tensors untouched by a CUDA
# region; binary_cross_entropy refused), the weights' half copies made once per region (real tensors: they
# show in memory_allocated while the region's graph holds them) and GradScaler's scale/unscale/skip/update.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
x = torch.randn(32, 256, device="cuda")
target = torch.randint(0, 10, (32,), device="cuda")
base = torch.cuda.memory_allocated()

with torch.autocast(device_type="cuda", dtype=torch.float16):
    out = model(x)
    print("linear:", out.dtype, "| matmul:", (x @ x.t()).dtype, "| relu keeps:", out.relu().dtype)
    print("softmax:", torch.softmax(out, 1).dtype, "| exp:", out.exp().dtype, "| sum:", out.sum().dtype)
    loss = nn.functional.cross_entropy(out, target)
    print("cross_entropy:", loss.dtype, "| autocast on:", torch.is_autocast_enabled(), torch.get_autocast_gpu_dtype())
    again = model(x)  # the cached half weights are reused, not copied again
    half_copies = torch.cuda.memory_allocated() - base
    print("cpu matmul in a cuda region:", (torch.ones(2, 2) @ torch.ones(2, 2)).dtype)
    with torch.autocast(device_type="cuda", enabled=False):
        print("nested disabled:", model(x).dtype)
    try:
        nn.functional.binary_cross_entropy(torch.sigmoid(out), torch.ones_like(out))
    except RuntimeError as e:
        print("RuntimeError:", str(e).splitlines()[0])
print("outside:", model(x).dtype, torch.is_autocast_enabled())
weights_half = sum(p.numel() * 2 for p in model.parameters() if p.dim() == 2)
print("half weight copies held by the graph >= their size:", half_copies >= weights_half)
loss.backward()
print("grads stay float32:", {p.grad.dtype for p in model.parameters()})

scaler = torch.amp.GradScaler("cuda", init_scale=1024.0, growth_interval=2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    opt.zero_grad()
    with torch.autocast("cuda", dtype=torch.float16):
        loss = nn.functional.cross_entropy(model(x), target)
    scaled = scaler.scale(loss)
    scaled.backward()
    if step == 2:
        model[0].weight.grad[0, 0] = float("nan")  # an overflow: this step must be skipped
    before = model[2].weight.detach().clone()
    scaler.step(opt)
    scaler.update()
    print(f"step {step}: scaled/loss={round(scaled.item() / loss.item())} stepped={not torch.equal(before, model[2].weight)} "
          f"scale->{scaler.get_scale()}")
print(scaler.state_dict())
try:
    scaler.unscale_(opt)
    scaler.unscale_(opt)
except RuntimeError as e:
    print("RuntimeError:", e)
s2 = torch.amp.GradScaler("cuda")
s2.load_state_dict(scaler.state_dict())
print("loaded scale:", s2.get_scale(), s2._get_growth_tracker())
print("disabled scaler:", torch.amp.GradScaler("cuda", enabled=False).scale(loss) is loss)

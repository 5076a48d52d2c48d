# Mixed precision as the PyTorch AMP recipe writes it: autocast (bfloat16 on the CPU, float16 on a GPU) and a
# GradScaler that is only enabled on CUDA (on the CPU it passes the loss and the step through).
# expect-exit: 0
# expect-stdout: amp step 3
# expect-owners: net.fc1.weight, net.fc1.weight.grad, opt.state[net.fc1.weight].momentum_buffer
# expect-transfer-owner: net.fc1.weight
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
amp_dtype = torch.float16 if device == "cuda" else torch.bfloat16


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(64, 128), nn.Linear(128, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


torch.manual_seed(0)
net = Net().to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
scaler = (torch.amp.GradScaler(device, enabled=device == "cuda") if hasattr(torch.amp, "GradScaler")
          else torch.cuda.amp.GradScaler(enabled=device == "cuda"))
x, y = torch.randn(16, 64, device=device), torch.randint(0, 4, (16,), device=device)
for step in range(4):
    opt.zero_grad()
    with torch.autocast(device_type=device, dtype=amp_dtype):
        out = net(x)
        assert out.dtype == amp_dtype
        loss = nn.functional.cross_entropy(out, y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    print("amp step %d loss %.4f" % (step, loss.item()))

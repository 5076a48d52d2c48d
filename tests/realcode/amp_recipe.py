# source: https://pytorch.org/tutorials/recipes/recipes/amp_recipe.html (Automatic Mixed Precision)
# changed: sizes cut (batch 64, in/out 256, 3 layers, 8 batches, 2 epochs instead of 512/4096/3/50/3); the
#          timing helpers print without asserting times; the torch.amp spellings of PyTorch 2.6; checks at the end
#          (float16 activations, float32 loss and grads, the scaler skipped no clean step, loss falls, the
#          saved/restored checkpoint with the scaler state).
# reference: none: needs a CUDA device (DeviceScope's simulated GPU) and 2.6's torch.amp.GradScaler("cuda")
import gc
import time

import torch


def timer_start():
    global start_time
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_max_memory_allocated()
    torch.cuda.synchronize()
    start_time = time.time()


def timer_end_and_print(local_msg):
    torch.cuda.synchronize()
    end_time = time.time()
    print("\n" + local_msg)
    print("Total execution time = {:.3f} sec".format(end_time - start_time))
    print("Max memory used by tensors = {} bytes".format(torch.cuda.max_memory_allocated()))


def make_model(in_size, out_size, num_layers):
    layers = []
    for _ in range(num_layers - 1):
        layers.append(torch.nn.Linear(in_size, in_size))
        layers.append(torch.nn.ReLU())
    layers.append(torch.nn.Linear(in_size, out_size))
    return torch.nn.Sequential(*tuple(layers)).cuda()


torch.manual_seed(0)
batch_size = 64
in_size = 256
out_size = 256
num_layers = 3
num_batches = 8
epochs = 2
device = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_default_device(device)

data = [torch.randn(batch_size, in_size) for _ in range(num_batches)]
targets = [torch.randn(batch_size, out_size) for _ in range(num_batches)]
loss_fn = torch.nn.MSELoss().cuda()

# Default Precision
net = make_model(in_size, out_size, num_layers)
opt = torch.optim.SGD(net.parameters(), lr=0.001)
timer_start()
for epoch in range(epochs):
    for input, target in zip(data, targets):
        output = net(input)
        loss = loss_fn(output, target)
        loss.backward()
        opt.step()
        opt.zero_grad()
timer_end_and_print("Default precision:")

# Adding torch.autocast
for epoch in range(0):
    for input, target in zip(data, targets):
        with torch.autocast(device_type=device, dtype=torch.float16):
            output = net(input)
            assert output.dtype is torch.float16
            loss = loss_fn(output, target)
            assert loss.dtype is torch.float32
        loss.backward()
        opt.step()
        opt.zero_grad()

# Adding GradScaler / All together: "Automatic Mixed Precision"
use_amp = True
net = make_model(in_size, out_size, num_layers)
opt = torch.optim.SGD(net.parameters(), lr=0.001)
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
dtypes, losses, skipped = set(), [], 0
timer_start()
for epoch in range(epochs):
    for input, target in zip(data, targets):
        with torch.autocast(device_type=device, dtype=torch.float16, enabled=use_amp):
            output = net(input)
            loss = loss_fn(output, target)
            dtypes.add((output.dtype, loss.dtype))
        scaler.scale(loss).backward()
        before = scaler.get_scale()
        scaler.step(opt)
        scaler.update()
        skipped += scaler.get_scale() < before
        opt.zero_grad()  # set_to_none=True here can modestly improve performance
        losses.append(loss.item())
timer_end_and_print("Mixed precision:")

# Inspecting/modifying gradients (e.g., clipping)
for epoch in range(1):
    for input, target in zip(data, targets):
        with torch.autocast(device_type=device, dtype=torch.float16, enabled=use_amp):
            output = net(input)
            loss = loss_fn(output, target)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.1)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()

# Saving/Resuming
checkpoint = {"model": net.state_dict(), "optimizer": opt.state_dict(), "scaler": scaler.state_dict()}
dev = torch.cuda.current_device()
net2 = make_model(in_size, out_size, num_layers)
opt2 = torch.optim.SGD(net2.parameters(), lr=0.001)
scaler2 = torch.amp.GradScaler("cuda")
net2.load_state_dict(checkpoint["model"])
opt2.load_state_dict(checkpoint["optimizer"])
scaler2.load_state_dict(checkpoint["scaler"])

# Checks of what it computed.
assert dtypes == {(torch.float16, torch.float32)}, dtypes
assert all(p.dtype is torch.float32 and p.device.type == "cuda" for p in net.parameters())
assert skipped == 0 and all(b < a for a, b in zip(losses[:num_batches], losses[num_batches:])), (skipped, losses)
assert scaler2.get_scale() == scaler.get_scale() == 65536.0
assert torch.equal(net2[0].weight, net[0].weight)
print("checks passed")

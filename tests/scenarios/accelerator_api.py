# torch.accelerator (PyTorch 2.6's device-generic API) on two simulated GPUs, torch.Stream / torch.Event,
# and torch.__version__ comparing as a version (2.6 is the API level DeviceScope implements).
import torch

print(torch.__version__, torch.__version__ >= "2.6", torch.__version__ >= (2, 0), torch.__version__ < "2.7")
acc = torch.accelerator.current_accelerator()
print(acc, type(acc).__name__, torch.accelerator.device_count(), torch.accelerator.is_available())
device = acc.type if torch.accelerator.is_available() else "cpu"
torch.accelerator.set_device_index(1)
print(torch.accelerator.current_device_index(), torch.empty(1, device=device).device)
with torch.accelerator.device_index(0):
    print("inside:", torch.accelerator.current_device_idx(), torch.ones(1, device=device).device)
print("after:", torch.accelerator.current_device_index())
s = torch.Stream(device="cuda:1")
print(isinstance(torch.cuda.Stream(), torch.Stream), s.device)
torch.accelerator.set_stream(s)
print(torch.accelerator.current_stream() == s)
start, end = torch.Event(enable_timing=True), torch.Event(enable_timing=True)
start.record()
y = torch.ones(1 << 20).to("cuda:1")
end.record()
torch.accelerator.synchronize()
print(end.query(), start.elapsed_time(end) > 0)
print(torch.accelerator.memory_allocated(1), torch.accelerator.max_memory_allocated(1) >= 4 << 20)

# devicescope-args: --sim-devices 0
# torch.accelerator without any device: no current accelerator, scripts fall back to the CPU.
import torch

print(torch.accelerator.current_accelerator(), torch.accelerator.is_available(), torch.accelerator.device_count())
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(torch.ones(2, device=device).device)
try:
    torch.accelerator.current_device_index()
except RuntimeError as e:
    print("RuntimeError:", e)

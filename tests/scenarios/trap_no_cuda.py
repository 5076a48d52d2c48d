# devicescope-args: --sim-devices 0
# SEMANTICS 1: with CUDA turned off DeviceScope behaves like a CUDA build of PyTorch on a machine without a GPU:
# is_available() is False and anything that needs a CUDA device raises "No CUDA GPUs are available".
# (memory_allocated() does not initialise CUDA and simply reports 0.)
import torch
import torch.nn as nn

print(torch.cuda.is_available(), torch.cuda.device_count())
print(torch.cuda.memory_allocated())
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, torch.device('cuda:0'))
for label, fn in [('Tensor.cuda', lambda: torch.zeros(1).cuda()),
                  ("Tensor.to('cuda')", lambda: torch.zeros(1).to('cuda')),
                  ("factory device='cuda'", lambda: torch.zeros(1, device='cuda')),
                  ('current_device', torch.cuda.current_device),
                  ('set_device', lambda: torch.cuda.set_device(0)),
                  ('synchronize', torch.cuda.synchronize),
                  ('Module.cuda', lambda: nn.Linear(1, 1).cuda())]:
    try:
        fn()
        print(label, 'ok')
    except RuntimeError as e:
        print(label, type(e).__name__ + ':', e)
print(nn.Linear(1, 1).to(device).weight.device)
torch.zeros(1).cuda()

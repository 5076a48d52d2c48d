# SEMANTICS 3 and 4: a tensor assigned as a plain attribute is not a buffer, so Module.to leaves it on the CPU
# and the forward fails (elementwise mixed-device error). register_buffer makes it move.
import torch
import torch.nn as nn

class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(10, 5)
        self.some_tensor = torch.ones(5, 5)

    def forward(self, x):
        return self.linear(x) + self.some_tensor

class Registered(Plain):
    def __init__(self):
        super().__init__()
        del self.some_tensor
        self.register_buffer('some_tensor', torch.ones(5, 5))

plain = Plain().to('cuda')
print(plain.linear.weight.device, plain.some_tensor.device)
print([n for n, _ in plain.named_buffers()], 'some_tensor' in plain.state_dict())
try:
    plain(torch.ones(1, 10, device='cuda'))
except RuntimeError as e:
    print(type(e).__name__ + ':', e)
fixed = Registered().to('cuda')
print(fixed.some_tensor.device, [n for n, _ in fixed.named_buffers()])
print(fixed(torch.ones(1, 10, device='cuda')).shape)
plain(torch.ones(1, 10, device='cuda'))

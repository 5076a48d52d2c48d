# __getattr__ errors, __delattr__ of parameters/buffers/children, dir-free attribute checks.
import torch
import torch.nn as nn

m = nn.Linear(2, 2)
try:
    m.foo
except AttributeError as e:
    print(type(e).__name__, e)

class Custom(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = nn.ReLU()
        self.register_buffer('buf', torch.zeros(1))

c = Custom()
try:
    c.missing
except AttributeError as e:
    print(type(e).__name__, e)
print(hasattr(c, 'inner'), hasattr(c, 'buf'), hasattr(c, 'nothing'))
del c.inner
del c.buf
print(list(c._modules), list(c._buffers), hasattr(c, 'inner'))
del m.bias
print(list(m._parameters), hasattr(m, 'bias'))
try:
    m.bias
except AttributeError as e:
    print(type(e).__name__, e)
try:
    del m.nothing
except AttributeError as e:
    print(type(e).__name__, e)
m.bias = None
print(list(m._parameters), m.bias)
print(m)
try:
    nn.Module()(torch.zeros(1))
except NotImplementedError as e:
    print(type(e).__name__, e)

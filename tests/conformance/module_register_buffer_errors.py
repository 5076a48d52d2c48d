# register_buffer argument checks and their exact errors, plus persistence.
import torch
import torch.nn as nn

def attempt(label, fn):
    try:
        fn()
        print(label, 'ok')
    except Exception as e:
        print(label, type(e).__name__, e)

m = nn.Linear(2, 2)
attempt('int name', lambda: m.register_buffer(1, torch.zeros(1)))
attempt('dotted', lambda: m.register_buffer('a.b', torch.zeros(1)))
attempt('empty', lambda: m.register_buffer('', torch.zeros(1)))
attempt('exists', lambda: m.register_buffer('weight', torch.zeros(1)))
attempt('method', lambda: m.register_buffer('forward', torch.zeros(1)))
attempt('list', lambda: m.register_buffer('x', [1, 2]))
attempt('int', lambda: m.register_buffer('x', 3))
attempt('none', lambda: m.register_buffer('y', None))
attempt('tensor', lambda: m.register_buffer('z', torch.arange(3)))
attempt('again', lambda: m.register_buffer('z', torch.arange(4)))
attempt('param', lambda: m.register_buffer('w', nn.Parameter(torch.ones(1))))
print(list(m._buffers.keys()))
print(m.y, m.z)
print(type(m.w).__name__)
m.register_buffer('np', torch.ones(1), persistent=False)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()])
m.register_buffer('np', torch.ones(2))
print(list(m.state_dict().keys()))
m.double()
print(m.np.dtype, m.z.dtype)

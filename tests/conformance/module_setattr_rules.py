# Module.__setattr__ registration order: Parameter, existing parameter, Module, existing child, existing buffer, plain.
import torch
import torch.nn as nn

def attempt(label, fn):
    try:
        fn()
        print(label, 'ok')
    except Exception as e:
        print(label, type(e).__name__, e)

m = nn.Module()
m.register_buffer('b', torch.zeros(2))
m.p = nn.Parameter(torch.ones(2))
m.sub = nn.Linear(1, 1)
print(list(m._parameters), list(m._buffers), list(m._modules))

# a Parameter assigned to a buffer name becomes a parameter
m.b = nn.Parameter(torch.zeros(3))
print(list(m._parameters), list(m._buffers), type(m.b).__name__)

attempt('tensor->param', lambda: setattr(m, 'p', torch.zeros(2)))
attempt('double->param', lambda: setattr(m, 'p', torch.zeros(2, dtype=torch.float64)))
attempt('long->param', lambda: setattr(m, 'p', torch.zeros(2, dtype=torch.long)))
attempt('int->param', lambda: setattr(m, 'p', 3))
attempt('tensor->child', lambda: setattr(m, 'sub', torch.zeros(1)))
attempt('str->child', lambda: setattr(m, 'sub', 'x'))
m.register_buffer('buf', torch.zeros(1))
# (assigning a non-tensor to a buffer name is left out: 2.5+ words that error differently from 1.13, see README)
attempt('tensor->buffer', lambda: setattr(m, 'buf', torch.ones(4)))
print(m.buf, 'buf' in m._buffers)
attempt('None->param', lambda: setattr(m, 'p', None))
print('p' in m._parameters, m._parameters['p'])
attempt('None->child', lambda: setattr(m, 'sub', None))
print('sub' in m._modules, m.sub)
attempt('None->buffer', lambda: setattr(m, 'buf', None))
print('buf' in m._buffers, m.buf)
# a parameter name only takes a Parameter or None: even a Module is refused (checked before the Module rule)
class Sub(nn.Module):
    pass

m.q = nn.Parameter(torch.ones(1))
attempt('module->param', lambda: setattr(m, 'q', Sub()))
print('q' in m._parameters, 'q' in m._modules)
# a Module assigned to a buffer's name or a plain attribute's name replaces it
m.register_buffer('bb', torch.zeros(1))
m.bb = Sub()
m.plain = 1
m.plain = Sub()
print('bb' in m._buffers, 'bb' in m._modules, 'plain' in m.__dict__, 'plain' in m._modules)
# a plain tensor attribute is not registered anywhere
m.t = torch.zeros(2)
print('t' in m.__dict__, 't' in m._buffers, 't' in m._parameters)
m.t = nn.Parameter(torch.zeros(2))
print('t' in m.__dict__, 't' in m._parameters)
print(m)

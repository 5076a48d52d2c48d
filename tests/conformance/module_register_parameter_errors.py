# register_parameter / add_module argument checks and their exact errors.
import torch
import torch.nn as nn

def attempt(label, fn):
    try:
        fn()
        print(label, 'ok')
    except Exception as e:
        print(label, type(e).__name__, e)

m = nn.Module()
m.register_buffer('buf', torch.zeros(1))
attempt('int name', lambda: m.register_parameter(1, nn.Parameter(torch.zeros(1))))
attempt('dotted', lambda: m.register_parameter('a.b', nn.Parameter(torch.zeros(1))))
attempt('empty', lambda: m.register_parameter('', nn.Parameter(torch.zeros(1))))
attempt('exists', lambda: m.register_parameter('buf', nn.Parameter(torch.zeros(1))))
attempt('tensor', lambda: m.register_parameter('t', torch.zeros(1)))
attempt('list', lambda: m.register_parameter('t', [1.0]))
attempt('none', lambda: m.register_parameter('n', None))
attempt('param', lambda: m.register_parameter('p', nn.Parameter(torch.zeros(1))))
leaf = nn.Parameter(torch.ones(2))
attempt('nonleaf', lambda: m.register_parameter('q', leaf * 2))
print(list(m._parameters.keys()), m.n)
attempt('add int name', lambda: m.add_module(1, nn.ReLU()))
attempt('add dotted', lambda: m.add_module('a.b', nn.ReLU()))
attempt('add empty', lambda: m.add_module('', nn.ReLU()))
attempt('add exists', lambda: m.add_module('buf', nn.ReLU()))
attempt('add tensor', lambda: m.add_module('r', torch.zeros(1)))
attempt('add int', lambda: m.add_module('r', 5))
attempt('add none', lambda: m.add_module('r', None))
attempt('add relu', lambda: m.add_module('s', nn.ReLU()))
attempt('register_module', lambda: m.register_module('u', nn.Tanh()))
print(list(m._modules.keys()))
print(m)

# Assigning parameters, modules or buffers before Module.__init__() raises AttributeError.
import torch
import torch.nn as nn

class NoInitModule(nn.Module):
    def __init__(self):
        self.linear = nn.Linear(10, 5)

class NoInitParam(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.zeros(1))

class NoInitBuffer(nn.Module):
    def __init__(self):
        self.register_buffer('b', torch.zeros(1))

class NoInitRegisterParam(nn.Module):
    def __init__(self):
        self.register_parameter('w', None)

class LateInit(nn.Module):
    def __init__(self):
        self.plain = 3
        super().__init__()
        self.linear = nn.Linear(1, 1)

for cls in (NoInitModule, NoInitParam, NoInitBuffer, NoInitRegisterParam, LateInit):
    try:
        obj = cls()
        print(cls.__name__, 'ok', obj.plain, [n for n, _ in obj.named_parameters()])
    except Exception as e:
        print(cls.__name__, type(e).__name__, e)

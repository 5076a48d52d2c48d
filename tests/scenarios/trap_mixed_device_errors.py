# SEMANTICS 5: ops never compute across devices. Elementwise ops (TensorIterator) name the first non-CPU device
# first; ops with argument checks (mm/addmm behind Linear, index_select behind Embedding) name the argument.
# A 0-dim CPU tensor may be combined with CUDA tensors.
import torch
import torch.nn as nn

def attempt(label, fn):
    try:
        out = fn()
        print(label, 'ok', out.device)
    except RuntimeError as e:
        print(label, '->', e)

a = torch.ones(2, device='cuda')
b = torch.ones(2)
a1 = torch.ones(2, device='cuda:1')
attempt('cuda + cpu', lambda: a + b)
attempt('cpu + cuda', lambda: b + a)
attempt('cpu * cuda', lambda: b * a)
attempt('cuda + 0-dim cpu', lambda: a + torch.tensor(2.))
attempt('0-dim cpu * cuda', lambda: torch.tensor(2.) * a)
attempt('cuda:0 + cuda:1', lambda: a + a1)
attempt('cuda:1 + cuda:0', lambda: a1 + a)
attempt('cpu + cuda:1', lambda: b + a1)
attempt('in-place cpu += cuda', lambda: b.add_(a))
lin = nn.Linear(2, 2).cuda()
attempt('Linear(cpu input)', lambda: lin(torch.ones(1, 2)))
attempt('Linear on cuda:1 input', lambda: lin(torch.ones(1, 2, device='cuda:1')))
attempt('mm(cpu, cuda)', lambda: torch.mm(b.view(1, 2), a.view(2, 1)))
attempt('mm(cuda, cpu)', lambda: torch.mm(a.view(1, 2), b.view(2, 1)))
attempt('matmul(cuda, cpu)', lambda: a.view(1, 2) @ b.view(2, 1))
emb = nn.Embedding(4, 2).cuda()
attempt('Embedding(cpu indices)', lambda: emb(torch.tensor([1, 2])))
attempt('Embedding(cuda indices)', lambda: emb(torch.tensor([1, 2], device='cuda')))
attempt('copy_ across devices', lambda: b.copy_(a))
print(torch.tensor(3., device='cuda') + 1, (a * torch.tensor(5.)).device)

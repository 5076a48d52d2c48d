# torch.device values: parsing, printing, equality (the index is part of equality), errors.
import torch

for spec in ['cpu', 'cuda', 'cuda:0', 'cuda:1', 'cuda:10', 'cpu:0']:
    d = torch.device(spec)
    print(repr(d), str(d), d.type, d.index)
print(repr(torch.device('cuda', 1)), repr(torch.device('cpu', 0)), repr(torch.device('cuda', index=3)))
print(torch.device('cuda') == torch.device('cuda:0'), torch.device('cuda:0') == torch.device('cuda', 0))
print(torch.device('cpu') == torch.device('cpu:0'), torch.device('cpu') == 'cpu')
print(torch.device(torch.device('cuda:1')))
print(len({torch.device('cuda:0'), torch.device('cuda', 0), torch.device('cuda')}))
print(f"{torch.device('cuda:1')}", '%s' % torch.device('cpu'))
for bad in ['cuda:x', 'cuda:-1', 'cuda:01', 'cuda: 0', 'cuda:', ':0', 'cuda:0:1', 'cuda 0']:
    try:
        torch.device(bad)
        print(bad, 'ok')
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    torch.device('cuda', -2)
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.zeros(1).device, torch.zeros(1).device == torch.device('cpu'), torch.zeros(1).is_cuda)
print(torch.zeros(2, device='cpu').device, torch.zeros(2, device=torch.device('cpu')).device)
print(type(torch.zeros(1).device).__name__, isinstance(torch.zeros(1).device, torch.device))

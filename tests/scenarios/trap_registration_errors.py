# SEMANTICS 4: Module.__setattr__ registration rules with CUDA tensors, and register_buffer errors.
# Note: the buffer-assignment TypeError uses the wording of PyTorch 2.5+ ("torch.nn.Buffer, torch.Tensor or
# None expected"); releases up to 2.4 said "(torch.Tensor or None expected)".
import torch
import torch.nn as nn

def attempt(label, fn):
    try:
        fn()
        print(label, 'ok')
    except Exception as e:
        print(label, type(e).__name__ + ':', e)

lin = nn.Linear(2, 2)
attempt('cuda tensor -> weight', lambda: setattr(lin, 'weight', torch.zeros(2, 2, device='cuda')))
attempt('cuda half -> weight', lambda: setattr(lin, 'weight', torch.zeros(2, 2, device='cuda:1').half()))
attempt('cuda long -> bias', lambda: setattr(lin, 'bias', torch.zeros(2, device='cuda', dtype=torch.long)))
lin.weight = nn.Parameter(torch.zeros(2, 2, device='cuda'))
print(lin.weight.device, lin.bias.device)
seq = nn.Sequential(nn.ReLU())
attempt('tensor -> child', lambda: setattr(seq, '0', torch.ones(1, device='cuda')))
bn = nn.BatchNorm1d(2)
attempt('int -> buffer', lambda: setattr(bn, 'running_mean', 5))
attempt('cuda tensor -> buffer', lambda: setattr(bn, 'running_mean', torch.zeros(2, device='cuda')))
print(bn.running_mean.device, 'running_mean' in bn._buffers)
attempt('register_buffer list', lambda: bn.register_buffer('x', [1.0]))
attempt('register_buffer dotted', lambda: bn.register_buffer('a.b', torch.zeros(1)))
attempt('register_buffer existing', lambda: bn.register_buffer('weight', torch.zeros(1)))
attempt('register_parameter tensor', lambda: bn.register_parameter('p', torch.zeros(1, device='cuda')))
m = nn.Module()
m.t = torch.zeros(2)
m.to('cuda')
print(m.t.device, 't' in m._buffers)

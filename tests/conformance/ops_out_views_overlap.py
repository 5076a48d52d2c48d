# Issue 12's cases: out= computes op(inputs) and follows ATen's rules (dtype, resize + warning, returns out),
# factories with out=, views with PyTorch's strides (diagonal, None indexing, unfold, view(dtype), narrow),
# copies of non-dense views keep their dim order, overlap errors on writes, PyTorch's exception types.
import warnings

import torch


def show(label, fn):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try:
            r = fn()
            if isinstance(r, torch.Tensor):
                print(label, r.dtype, tuple(r.shape), r.stride(), r.tolist())
            else:
                print(label, r)
        except Exception as e:
            print(label, type(e).__name__, str(e).split('\n')[0])
    for w in ws[:1]:  # (1.13 repeats some resize warnings)
        print(label, 'warning', str(w.message).split(' (Triggered')[0][:120])


x, y = torch.ones(3), torch.arange(3.)
for name in ('add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'pow', 'fmod', 'remainder', 'atan2', 'eq', 'lt'):
    r = torch.full((3,), 5.)
    show(name, lambda: (getattr(torch, name)(x + 1, y, out=r) is r, [round(v, 4) for v in r.tolist()]))
ib = torch.tensor([6, 3, 5])
show('bitwise_and', lambda: torch.bitwise_and(ib, torch.tensor([3, 1, 4]), out=ib.clone()))
show('exp int into long', lambda: torch.exp(torch.tensor([1, 2]), out=torch.zeros(2, dtype=torch.long)))
show('add resize', lambda: torch.add(torch.ones(3), 1, out=torch.zeros(2)))
show('add resize empty', lambda: torch.add(torch.ones(3), 1, out=torch.zeros(0)))
show('add out requires grad', lambda: torch.add(torch.ones(3, requires_grad=True), 1, out=torch.zeros(3)))
show('sum out', lambda: torch.sum(torch.tensor([1.5, 2.5]), 0, out=torch.zeros((), dtype=torch.long)))
show('where out', lambda: torch.where(torch.tensor([True, False]), torch.ones(2), torch.zeros(2), out=torch.zeros(5)))
show('index_select out', lambda: torch.index_select(x, 0, torch.tensor([0]), out=torch.zeros(2)))
show('index_select out dtype', lambda: torch.index_select(x, 0, torch.tensor([0]), out=torch.zeros(1, dtype=torch.long)))
show('cat out', lambda: torch.cat([x, x], out=torch.zeros(0)))
show('matmul out', lambda: torch.matmul(torch.ones(2, 2), torch.ones(2, 2), out=torch.zeros(2, 2, dtype=torch.float64)))
show('matmul keywords', lambda: torch.matmul(input=torch.ones(2, 3), other=torch.ones(3)))
show('amax out', lambda: torch.amax(torch.ones(2, 2), 0, out=torch.zeros(2, dtype=torch.long)))
show('clamp out', lambda: torch.clamp(torch.tensor([1, 5]), 0, 3, out=torch.zeros(2)))
show('neg out', lambda: torch.neg(torch.tensor([1, 5]), out=torch.zeros(2, dtype=torch.long)))

r = torch.zeros(3)
show('rand out', lambda: torch.rand(3, out=r) is r)
for f in ('zeros', 'ones'):
    o = torch.full((5,), 9, dtype=torch.long)
    show(f + ' out', lambda: (getattr(torch, f)(2, 2, out=o) is o, o.tolist()))
show('full out', lambda: torch.full((2,), 1.5, out=torch.zeros(3, dtype=torch.long)))
show('arange out', lambda: torch.arange(5, out=torch.zeros(2)))
show('linspace out', lambda: torch.linspace(0, 1, 3, out=torch.zeros(1, dtype=torch.float64)))
show('randn long out', lambda: torch.randn(2, out=torch.zeros(2, dtype=torch.long)))
show('ones dtype out', lambda: torch.ones(2, out=torch.zeros(3, dtype=torch.long), dtype=torch.float32))

a = torch.zeros(3, 3)
d = a.diagonal()
d.fill_(1)
print('diagonal', d._base is a, d.stride(), a.tolist())
print('diagonal offsets', a.diagonal(1).storage_offset(), a.diagonal(-1).storage_offset(), a.diagonal(5).shape)
z = torch.zeros(2, 3)
print('None index', z[1:, None].stride(), z[None].stride(), z[:, None, 1:].stride())
u = torch.arange(6.).reshape(2, 3).unfold(1, 2, 1)
print('unfold', u.shape, u.stride(), u.tolist())
show('unfold too big', lambda: torch.ones(2, 3).unfold(1, 4, 1))
show('unfold step', lambda: torch.ones(2, 3).unfold(1, 2, 0))
show('view dtype', lambda: torch.ones(2, 2).view(torch.int16).shape)
show('view dtype bits', lambda: torch.tensor([1.0]).view(torch.int32))
show('view dtype stride', lambda: torch.ones(2, 3).t().view(torch.int8))
show('narrow negative', lambda: torch.arange(4.).narrow(0, 2, -1))
show('resize_', lambda: torch.arange(6.).resize_(2, 3))
show('nonzero', lambda: torch.tensor([[0, 1], [1, 1]]).nonzero())

nd = torch.zeros(2, 3, 4).permute(2, 0, 1)[:, :, ::2]
print('non-dense copies', nd.clone().stride(), nd.to(torch.float64).stride(), torch.empty_like(nd).stride(),
      nd.contiguous().stride())
print('pointwise layout', (torch.zeros(2, 3).t() + 1).stride(), torch.exp(torch.zeros(3, 2).t()).stride())

show('expanded add_', lambda: torch.zeros(1).expand(3).add_(1))
b = torch.arange(4.)
show('partial copy_', lambda: b[1:].copy_(b[:-1]))
show('partial out', lambda: torch.add(b[1:], 1, out=b[:-1]))
show('transposed add_', lambda: (lambda s: s.add_(s.t()))(torch.ones(3, 3)))
show('same add_', lambda: b.add_(b))
print('b', b.tolist())

show('tril 1-D', lambda: torch.ones(3).tril())
show('tril 0-D', lambda: torch.tensor(1.).tril())
# (an integer tensor's norm(): 1.13 and 2.x word the error differently; see README.md's table)
show('sum 0-dim', lambda: torch.tensor(5).sum(0))
show('sum 0-dim bad', lambda: torch.tensor(5).sum(1))
show('flip 0-dim', lambda: torch.tensor(5).flip(0))
show('int pow_ float', lambda: torch.tensor([1, 2], dtype=torch.int32).pow_(2.0))
show('int exp_', lambda: torch.tensor([1, 2]).exp_())
show('bool sub', lambda: torch.tensor([True]) - torch.tensor([True]))
show('frac int', lambda: torch.tensor([1, 2]).frac())
show('broadcast message', lambda: torch.ones(2, 3) + torch.ones(3, 2))
show('bitwise float', lambda: torch.ones(2, dtype=torch.float64).bitwise_not())

# numpy's exceptions never leak: PyTorch's types and messages
show('roll 0-dim', lambda: torch.tensor(5.).roll(1, 0))
show('roll bad dim', lambda: torch.ones(2, 3).roll(1, 2))
show('take out of range', lambda: torch.ones(2, 3).take(torch.tensor([9])))
show('scatter out of range', lambda: torch.ones(2, 3).scatter(0, torch.tensor([[5]]), 1.0))
show('argmax empty', lambda: torch.zeros(0, 3).argmax())
show('logsumexp 0-dim', lambda: torch.tensor(5.).logsumexp(0))
show('logsumexp empty', lambda: torch.zeros(0, 3).logsumexp(0))
show('chunk empty', lambda: len(torch.zeros(0).chunk(2)))
show('split empty', lambda: len(torch.zeros(0).split(1)))
show('select empty', lambda: torch.zeros(0, 2).select(0, 0))
show('index_select empty', lambda: torch.zeros(2, 0).index_select(1, torch.tensor([0])))
show('clamp uint8', lambda: torch.clamp(torch.tensor([0, 5, 200], dtype=torch.uint8), -1, 1))

# Views (slicing, view, transpose, split, select, expand) share their base's storage.
import torch

base = torch.arange(12.).reshape(3, 4).clone()
v = base.view(4, 3)
t = base.t()
s = base[1:, ::2]
row = base[0]
parts = base.split(2, dim=1)
e = torch.ones(1, 3).expand(4, 3)
for name, x in [('view', v), ('t', t), ('slice', s), ('row', row), ('split0', parts[0]), ('split1', parts[1])]:
    print(name, x._base is base, x.shape, x.stride(), x.storage_offset(), x.is_contiguous())
print(e.stride(), e._base is not None)
print(base.is_contiguous(), base._base is None)
print(base.reshape(12)._base is base, base.t().reshape(12)._base is None)
s[0, 0] = -1
print(base)
row.fill_(7)
print(base[0], v[0])
print(t.contiguous().is_contiguous(), t.contiguous()._base is None)
print(v.data_ptr() == base.data_ptr(), s.data_ptr() == base.data_ptr() + 4 * 4)
print([p.data_ptr() - base.data_ptr() for p in base.chunk(2, dim=0)])
print(base.unbind(0)[1])
print(base.narrow(1, 1, 2))
print(base.flatten()._base is base, base.unsqueeze(0).shape, base.unsqueeze(0)._base is base)
print(base.permute(1, 0).shape, base.permute(1, 0).stride())

# unbind's pieces of a strided, offset tensor along each dim (one engine call makes them all): shapes, strides,
# storage offsets, values, where in src's memory; an out-of-range dim
src = torch.arange(48.0).reshape(2, 4, 6).transpose(0, 2)[1:]
for dim in (0, 1, 2, -1):
    pieces = src.unbind(dim)
    print("unbind", dim, len(pieces), [(tuple(p.shape), p.stride(), p.storage_offset()) for p in pieces][:3],
          [p.sum().item() for p in pieces], [(p.data_ptr() - src.data_ptr()) // 4 for p in pieces])
try:
    src.unbind(3)
except IndexError as e:
    print("IndexError:", e)

# torch.LongTensor / IntTensor / DoubleTensor / BoolTensor / ... as PyTorch's legacy constructor makes them: data (a
# list or tuple, nested lists and tuples) and sizes in the type's own dtype - not through float32, which rounded
# ints past 2**24 and doubles - and torch.tensor on tuples (zip_longest's padded rows). Against real PyTorch: values,
# dtypes, shapes, sizes and torch.Size forms, casts between bool / int / float data, empty data and the errors.
import itertools

import torch

big = [16777217, 2 ** 40 + 1, -(2 ** 62) - 3]
print("long", torch.LongTensor(big).tolist(), torch.LongTensor(tuple(big)).dtype)
print("int", torch.IntTensor([3, 2 ** 31 - 1, -(2 ** 31)]).tolist())
print("double", [v.hex() for v in torch.DoubleTensor([0.1, 1 / 3, 1e300]).tolist()])
print("float", [v.hex() for v in torch.FloatTensor([0.1, 1 / 3]).tolist()], torch.FloatTensor([1, 2]).dtype)
print("bool", torch.BoolTensor([[0, 1], [2, 0]]).tolist(), torch.BoolTensor([0.0, 0.5]).tolist())
print("long from floats and bools", torch.LongTensor([1.9, -1.9]).tolist(), torch.LongTensor([True, False]).tolist())
print("byte/char/short", torch.ByteTensor([1, 255]).tolist(), torch.CharTensor([-3]).dtype, torch.ShortTensor([7]).dtype)
rows = list(itertools.zip_longest([5, 6, 7, 2], [8, 2], [9, 10, 2], fillvalue=0))
t = torch.LongTensor(rows)
print("zip_longest rows", t.tolist(), t.dtype, tuple(t.shape))
t = torch.tensor(rows)
print("tensor(tuples)", t.tolist(), t.dtype, tuple(t.shape))
t = torch.tensor(((1.5, 2), (3, 4)))
print("tensor(float tuples)", t.tolist(), t.dtype)
print("tensor(mixed rows)", torch.tensor([(1, 2), [3, 4]]).tolist(), torch.tensor((1, 2, 3)).dtype)
print("sizes", tuple(torch.LongTensor(2, 3).shape), torch.LongTensor(2, 3).dtype, tuple(torch.DoubleTensor(4).shape),
      tuple(torch.LongTensor(torch.Size([2, 2])).shape), torch.IntTensor(torch.Size([3])).dtype)
print("empty", tuple(torch.LongTensor().shape), torch.LongTensor().dtype, tuple(torch.LongTensor([]).shape),
      torch.LongTensor([]).dtype)
for bad in ([[1, 2], [3]], [(1, 2), (3,)]):
    try:
        torch.LongTensor(bad)
    except (ValueError, TypeError) as e:
        print("error", type(e).__name__, e)
    try:
        torch.tensor(bad)
    except (ValueError, TypeError) as e:
        print("tensor error", type(e).__name__, e)

# torch.testing.assert_close on 0-dim tensors (t.mean(), t.sum(), torch.tensor(2.5)): they pass when close and
# fail with PyTorch's "Scalars are not close!" message (no index), for floats, halves, ints, bools, NaN, msg,
# check_dtype=False and shape mismatches against 1-element tensors. (It raised TypeError: 'numpy.float64'
# object does not support item assignment, on the pinned-memory tutorial's t.mean() checks.)
import torch
from torch.testing import assert_close

t = torch.tensor([1., 2., 4.])
cases = [
    (t.mean(), torch.tensor(7 / 3)),
    (t.mean(), torch.tensor(2.5)),
    (t.sum(), torch.tensor(7.0)),
    (t.double().mean(), torch.tensor(7 / 3, dtype=torch.float64)),
    (t.half().sum(), torch.tensor(7.01, dtype=torch.float16)),
    (t.half().sum(), torch.tensor(7.5, dtype=torch.float16)),
    (torch.tensor(3), torch.tensor(4)),
    (torch.tensor(3), torch.tensor(0)),
    (torch.tensor(True), torch.tensor(False)),
    (torch.tensor(float("nan")), torch.tensor(1.0)),
    (torch.tensor(float("nan")), torch.tensor(float("nan"))),
    (torch.tensor(float("inf")), torch.tensor(float("inf"))),
    (torch.tensor(1.0), torch.tensor([1.0])),
    (t.mean(), 7 / 3),
    ([t.mean(), t.sum()], [torch.tensor(7 / 3), torch.tensor(8.0)]),
    ({"loss": t.max()}, {"loss": torch.tensor(5.0)}),
]
for a, b in cases:
    try:
        assert_close(a, b)
        print("ok")
    except Exception as e:
        print(type(e).__name__ + ":", e)
    print("--")
assert_close(torch.tensor(float("nan")), torch.tensor(float("nan")), equal_nan=True)
assert_close(torch.tensor(3), torch.tensor(3.0), check_dtype=False)
for kw in ({"rtol": 0.5, "atol": 0.0}, {"rtol": 0, "atol": 0}, {"msg": "custom"}, {"check_dtype": False}):
    try:
        assert_close(torch.tensor(2.0), torch.tensor(3.0), **kw)
        print("ok", kw)
    except Exception as e:
        print(type(e).__name__ + ":", e)
    print("--")

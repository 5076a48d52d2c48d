# torch.testing.assert_close: default tolerances per dtype, PyTorch's mismatch messages (tensors, attributes,
# sequences, mappings, numbers, bools), equal_nan, explicit tolerances, msg, check_dtype=False.
import torch
from torch.testing import assert_close

cases = [
    (torch.tensor([1., 2., 3.]), torch.tensor([1., 2.5, 3.])),
    (torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 2.], [3., 4.001]])),
    (torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 2.], [3., 4.00001]])),
    (torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4])),
    (torch.tensor([1., 2.]), torch.tensor([1., 2.], dtype=torch.float64)),
    (torch.tensor([1., 2.]), torch.tensor([1., 2., 3.])),
    (torch.tensor([1., float('nan')]), torch.tensor([1., float('nan')])),
    (torch.tensor([1., float('inf')]), torch.tensor([1., float('inf')])),
    (torch.tensor([0., 1.]), torch.tensor([1., 1.])),
    (torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1., 2.001], dtype=torch.float16)),
    (torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1., 2.1], dtype=torch.float16)),
    (torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([1., 2. + 1e-6], dtype=torch.float64)),
    (torch.tensor([True, False]), torch.tensor([True, True])),
    (1, 1.0), (1.0, 1.0 + 1e-8), (True, False), (None, None), ((1, 2), [1, 2]),
    ([torch.ones(2), torch.zeros(1)], [torch.ones(2), torch.ones(1)]),
    ({"b": 1, "a": torch.ones(1)}, {"a": torch.zeros(1), "b": 1}),
    ({"a": 1}, {"b": 1}), ([1, 2], [1]),
    (torch.ones(2), [1., 1.]),
    (torch.ones(3, 4)[:, 1], torch.ones(3)),
]
for a, b in cases:
    try:
        assert_close(a, b)
        print("ok")
    except Exception as e:
        print(type(e).__name__ + ":", e)
    print("--")
assert_close(torch.tensor([1., float('nan')]), torch.tensor([1., float('nan')]), equal_nan=True)
assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.1]), rtol=0.1, atol=0)
assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.], dtype=torch.float64), check_dtype=False)
for kw in ({"rtol": 0.1}, {"atol": 0.1}, {"msg": "custom"}, {"rtol": 0, "atol": 0}):
    try:
        assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.5]), **kw)
    except Exception as e:
        print(type(e).__name__ + ":", e)

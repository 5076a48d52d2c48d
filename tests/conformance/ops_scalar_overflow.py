# A Python number that becomes an element of a tensor's dtype through a Scalar (fill_, full, full_like, new_full,
# masked_fill, index_fill_, x[i] = v, clamp's bounds, add/sub's alpha, where's number operand) is checked as
# c10::checked_convert does: "value cannot be converted to type float without overflow" (inf and NaN pass into
# floating dtypes; an unsigned dtype takes negatives down to -max; bool never overflows), and a Python int beyond
# int64 is "Overflow when unpacking long". torch.tensor checks integer dtypes under its own names ("int8").
# Arithmetic with a number (x + 1e39) is not checked: inf, as in PyTorch. Each case against real PyTorch.
import torch

cases = [(torch.float32, 1e39), (torch.float32, float('inf')), (torch.float32, -1e39), (torch.float16, 70000.0), (torch.int64, 1e20), (torch.int32, 2**31), (torch.int32, 2**31-1), (torch.uint8, 256), (torch.uint8, -1), (torch.int8, 128), (torch.bool, 2), (torch.float64, 1e300), (torch.int64, float('nan')), (torch.bfloat16, 1e39), (torch.int32, 3.5), (torch.float32, 3.5e38)]
for dt, v in cases:
    x = torch.zeros(3, dtype=dt)
    m = torch.tensor([True, False, True])
    for f in ("masked_fill_", "masked_fill", "fill_"):
        try:
            r = getattr(x, f)(m, v) if f != "fill_" else x.clone().fill_(v)
            print(dt, v, f, r.tolist())
        except Exception as e:
            print(dt, v, f, type(e).__name__, e)
i = torch.tensor([0, 2])
tests = {
 "full": lambda: torch.full((2,), 1e39),
 "full_int": lambda: torch.full((2,), 1e20, dtype=torch.int64),
 "full_like": lambda: torch.full_like(torch.zeros(2), 1e39),
 "new_full": lambda: torch.zeros(2).new_full((2,), 1e39),
 "index_fill_": lambda: torch.zeros(3).index_fill_(0, i, 1e39),
 "setitem": lambda: torch.zeros(3).__setitem__(0, 1e39),
 "setitem_slice": lambda: torch.zeros(3).__setitem__(slice(0, 2), 1e39),
 "setitem_mask": lambda: torch.zeros(3).__setitem__(torch.tensor([True, False, True]), 1e39),
 "setitem_int8": lambda: torch.zeros(3, dtype=torch.int8).__setitem__(0, 300),
 "clamp": lambda: torch.zeros(3).clamp(max=1e39),
 "add": lambda: torch.zeros(3) + 1e39,
 "add_int8": lambda: torch.zeros(3, dtype=torch.int8) + 300,
 "mul_int8": lambda: torch.zeros(3, dtype=torch.int8) * 300,
 "add_alpha": lambda: torch.zeros(3).add(torch.ones(3), alpha=1e39),
 "tensor": lambda: torch.tensor(1e39, dtype=torch.float32),
 "tensor_int8": lambda: torch.tensor(300, dtype=torch.int8),
 "where": lambda: torch.where(torch.tensor([True, False]), torch.zeros(2), 1e39),
 "fill_uint8_neg": lambda: torch.zeros(2, dtype=torch.uint8).fill_(-1),
 "fill_uint8_neg256": lambda: torch.zeros(2, dtype=torch.uint8).fill_(-256),
 "fill_bool": lambda: torch.zeros(2, dtype=torch.bool).fill_(2),
 "fill_bool_f": lambda: torch.zeros(2, dtype=torch.bool).fill_(2.5),
 "fill_int_nan": lambda: torch.zeros(2, dtype=torch.int32).fill_(float('inf')),
 "fill_tensor": lambda: torch.zeros(2).fill_(torch.tensor(1e39, dtype=torch.float64)),
 "masked_fill_tensor": lambda: torch.zeros(2).masked_fill(torch.tensor([True, False]), torch.tensor(1e39, dtype=torch.float64)),
 "zero_": lambda: torch.zeros(2).zero_(),
 "ones_like_fill": lambda: torch.empty(2, dtype=torch.int16).fill_(40000),
 "arange": lambda: torch.arange(0, 1e39, 1e38, dtype=torch.float32),
}
for k, f in tests.items():
    try:
        r = f()
        print(k, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(k, type(e).__name__, e)
for dt, v in [(torch.uint8, -1.0), (torch.uint8, -255), (torch.uint8, -256), (torch.int8, -129), (torch.int8, 127.9), (torch.int8, 127.0), (torch.int32, 2147483647.5), (torch.float16, 65504.0), (torch.float16, 65519.0), (torch.float16, float('nan')), (torch.int32, float('nan')), (torch.bool, float('nan')), (torch.bool, float('inf')), (torch.float32, 2**70), (torch.int64, 2**63-1), (torch.int64, 9.3e18), (torch.int64, -9.3e18), (torch.uint8, True), (torch.float64, 1e308*10)]:
    try:
        print(dt, v, torch.zeros(1, dtype=dt).fill_(v).tolist())
    except Exception as e:
        print(dt, v, type(e).__name__, e)
for dt, v in [(torch.int8, 300), (torch.int8, 3.5), (torch.int8, 300.0), (torch.uint8, -1), (torch.uint8, -256), (torch.int16, [1, 40000]), (torch.int32, 2**31), (torch.int64, 2**63), (torch.float16, 1e6), (torch.bool, 5)]:
    try:
        print("tensor", dt, v, torch.tensor(v, dtype=dt).tolist())
    except Exception as e:
        print("tensor", dt, v, type(e).__name__, e)
x = torch.zeros(3)
for a in (1e39, 2**200, 3):
    try: print("alpha", a, x.add(x, alpha=a).tolist(), x.sub(x, alpha=a).tolist())
    except Exception as e: print("alpha", a, type(e).__name__, e)
for k in ({"min": -1e39}, {"min": 1e39}, {"max": 1e39}, {"min": 0, "max": 1e39}):
    try: print("clamp", k, x.clamp(**k).tolist())
    except Exception as e: print("clamp", k, type(e).__name__, e)
try: print(torch.zeros(3, dtype=torch.int8).clamp(max=300).tolist())
except Exception as e: print("clamp int8", type(e).__name__, e)
try: print(torch.zeros(3, dtype=torch.int8).clamp(max=300.0).tolist())
except Exception as e: print("clamp int8 f", type(e).__name__, e)

# to() argument forms: torch._C._nn._parse_to (what Module.to uses), Tensor.to and Module.to must agree on
# every form - results and PyTorch's exact error types and messages. Left out: a bad device type (the list of
# device types in the message grew after 1.13) and errors with two keywords (PyTorch lists them in hash order).
import re

import torch

t64 = torch.zeros(2, dtype=torch.float64)


class _Box:
    pass

C = torch.channels_last


def show(label, f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the error text is what is compared
        # PyTorch 2.x lists each signature with its defaults ("bool copy = False"); 1.13, the reference at
        # hand, without. The rest of the message must match as is.
        print(label, "->", type(e).__name__, re.sub(r" = (None|False)\b", "", str(e)))
        return
    if isinstance(r, torch.Tensor):
        r = ("Tensor", r.device, r.dtype)
    elif isinstance(r, torch.nn.Module):
        r = ("Module", r.weight.device, r.weight.dtype)
    print(label, "->", r)


# Forms that name a CUDA device: parsed only (the reference has no CUDA to move to).
PARSE_ONLY = [
    (("cuda",), {}), (("cuda:1",), {}), ((0,), {}), ((3,), {}), ((torch.device("cuda", 2),), {}),
    ((), {"device": "cuda:0"}), ((), {"device": 1}), (("cuda", torch.half), {}), ((1, None, True), {}),
    ((), {"device": "cuda", "dtype": torch.int64, "non_blocking": True}),
]
# Forms run through all three.
ALL = [
    ((), {}), (("cpu",), {}), ((torch.device("cpu"),), {}), ((None,), {}), ((None, None), {}),
    ((torch.float64,), {}), ((torch.float16, True), {}), ((torch.float16, False, False), {}),
    (("cpu", torch.float64), {}), (("cpu", torch.float64, True), {}), (("cpu", None, False, False), {}),
    ((), {"device": "cpu"}), ((), {"dtype": torch.float64}), ((), {"device": None, "dtype": None}),
    ((), {"device": "cpu", "dtype": torch.float64, "non_blocking": False}), ((t64,), {}), ((t64, True), {}),
    ((), {"tensor": t64}), ((t64,), {"non_blocking": True}), ((), {"other": t64}),
    ((), {"memory_format": C}), ((torch.float64,), {"memory_format": C}), (("cpu",), {"memory_format": None}),
    ((), {"memory_format": torch.preserve_format}), ((), {"memory_format": "channels_last"}),
    ((), {"memory_format": 1}), (("cpu",), {"copy": True}), ((torch.float64,), {"copy": False}),
    ((torch.float64, False, True), {}), ((t64, False, True), {}),
    # bad forms
    (("cuda:x",), {}), (("cpu:-1",), {}), ((-1,), {}), ((True,), {}), ((1.5,), {}),
    (([1],), {}), ((float,), {}), ((int,), {}), ((bool,), {}), (("cpu", "cpu"), {}), (("cpu", 1), {}),
    ((torch.float64, torch.float32), {}), ((torch.float64,), {"dtype": torch.float32}),
    ((torch.float64,), {"device": "cpu"}), (("cpu",), {"device": "cpu"}), ((t64,), {"dtype": torch.float32}),
    ((t64,), {"device": "cpu"}), ((), {"foo": 1}), (("cpu",), {"foo": 1}),
    (("cpu", torch.float64, 1), {}), (("cpu", torch.float64, None), {}), (("cpu", torch.float64, False, 0), {}),
    (("cpu", torch.float64, False, False, C), {}), ((torch.float64, False, False, False), {}),
    ((t64, False, False, False), {}), ((), {"non_blocking": 1}), ((), {"copy": None}),
    ((), {"device": 1.5}), ((), {"dtype": "float64"}), ((), {"tensor": 1}), ((t64,), {"tensor": t64}),
    ((None, torch.float64), {}), ((torch.nn.Parameter(t64),), {}), ((_Box(),), {}), ((float, _Box()), {}),
    # five arguments: only the first signature fits, so its own error is raised
    (("cpu", torch.float64, False, False), {"foo": 1}), (("cpu", torch.float64, False, False), {"copy": True}),
    (("cpu", torch.float64, False, False), {"memory_format": "x"}), (("cpu", torch.float64, False, 1), {"memory_format": C}),
    ((1.5, torch.float64, False, False), {"memory_format": C}), ((None, None, None, None, None), {}), ((torch.device("cpu"), torch.float64, True, False), {"memory_format": C}),
]


def label_of(v):
    return "t64" if isinstance(v, torch.Tensor) else "_Box()" if isinstance(v, _Box) else repr(v)


def fmt(args, kwargs):
    parts = [label_of(a) for a in args] + [f"{k}={label_of(v)}" for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


for args, kwargs in PARSE_ONLY:
    show("_parse_to" + fmt(args, kwargs), lambda: torch._C._nn._parse_to(*args, **kwargs))
for args, kwargs in ALL:
    label = fmt(args, kwargs)
    show("_parse_to" + label, lambda: torch._C._nn._parse_to(*args, **kwargs))
    show("Tensor.to" + label, lambda: torch.zeros(2).to(*args, **kwargs))
    show("Module.to" + label, lambda: torch.nn.Linear(2, 2).to(*args, **kwargs))

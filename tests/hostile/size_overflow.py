# hostile: shapes whose byte size overflows 64 bits are refused like PyTorch does, never allocated short
# expect-exit: 1
# expect-stdout: 2d: RuntimeError: Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]
# expect-stdout: 3d: RuntimeError: Storage size calculation overflowed with sizes=[2147483648, 2147483648, 2147483648]
# expect-stdout: itemsize: RuntimeError: Storage size calculation overflowed with sizes=[2305843009213693952]
# expect-stdout: cuda: RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904, 8]
# expect-stderr: RuntimeError: Storage size calculation overflowed
import torch


def attempt(label, make):
    try:
        t = make()
        print(f"{label}: created {tuple(t.shape)} in {t.element_size() * t.numel()} bytes")
    except Exception as e:
        print(f"{label}: {type(e).__name__}: {e}")


attempt("2d", lambda: torch.empty(2**40, 2**40))
attempt("3d", lambda: torch.zeros(2**31, 2**31, 2**31))
attempt("itemsize", lambda: torch.empty(2**61, dtype=torch.float64))
attempt("cuda", lambda: torch.empty(2**62, 8, device="cuda"))
t = torch.ones(2**40, 2**40)
t[2**39, 2**39] = 1.0

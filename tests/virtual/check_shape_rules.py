#!/usr/bin/python3
"""The shape-only values of virtual tensors (engine/python/torch/_virtual_values.py) against numpy itself: every
operation DeviceScope's ops run on a virtual tensor's values must give the shape (and, for ufuncs and
reductions, the dtype) numpy gives on real arrays of the same shapes. Plain Python 3 + numpy (the module
imports nothing else). Prints each mismatch; exits 1 if any."""
import importlib.util
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "virtual_values", os.path.join(HERE, "..", "..", "engine", "python", "torch", "_virtual_values.py"))
vv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vv)
V = vv.VirtualValues

rng = np.random.default_rng(0)
a = rng.standard_normal((2, 3, 4)).astype(np.float32)
b = rng.standard_normal((3, 1)).astype(np.float64)
m = rng.standard_normal((4, 5)).astype(np.float32)
i = np.array([[0, 1], [1, 1]], dtype=np.int64)
iv = np.array([2, 0, 1], dtype=np.int64)
CASES = [
    ("a + b", lambda x, y, z, j, k: x + y),
    ("a * 2.0", lambda x, y, z, j, k: x * 2.0),
    ("np.exp(a)", lambda x, y, z, j, k: np.exp(x)),
    ("a > 0", lambda x, y, z, j, k: x > 0),
    ("a @ m", lambda x, y, z, j, k: x @ z),
    ("np.matmul(m.T, m)", lambda x, y, z, j, k: np.matmul(z.T, z)),
    ("a.sum(1, keepdims)", lambda x, y, z, j, k: x.sum(axis=1, keepdims=True)),
    ("np.sum(a, (0, 2))", lambda x, y, z, j, k: np.sum(x, axis=(0, 2))),
    ("np.mean(a, -1)", lambda x, y, z, j, k: np.mean(x, axis=-1)),
    ("np.max(a)", lambda x, y, z, j, k: np.max(x)),
    ("np.argmax(a, 1)", lambda x, y, z, j, k: np.argmax(x, axis=1)),
    ("np.add.reduce(a, 2)", lambda x, y, z, j, k: np.add.reduce(x, axis=2)),
    ("a.reshape(6, -1)", lambda x, y, z, j, k: x.reshape(6, -1)),
    ("a.transpose(2, 0, 1)", lambda x, y, z, j, k: x.transpose(2, 0, 1)),
    ("np.moveaxis(a, 2, 0)", lambda x, y, z, j, k: np.moveaxis(x, 2, 0)),
    ("np.swapaxes(a, 0, 2)", lambda x, y, z, j, k: np.swapaxes(x, 0, 2)),
    ("np.expand_dims(a, (0, -1))", lambda x, y, z, j, k: np.expand_dims(x, (0, -1))),
    ("np.squeeze(b)", lambda x, y, z, j, k: np.squeeze(y)),
    ("np.broadcast_to(b, (2, 3, 5))", lambda x, y, z, j, k: np.broadcast_to(y, (2, 3, 5))),
    ("np.concatenate([a, a], 1)", lambda x, y, z, j, k: np.concatenate([x, x], axis=1)),
    ("np.stack([m, m], -1)", lambda x, y, z, j, k: np.stack([z, z], axis=-1)),
    ("np.take(m, iv, 1)", lambda x, y, z, j, k: np.take(z, k, axis=1)),
    ("np.take_along_axis(m, i, 0)", lambda x, y, z, j, k: np.take_along_axis(z[:2, :2], j, axis=0)),
    ("np.where(a > 0, a, 0.0)", lambda x, y, z, j, k: np.where(x > 0, x, 0.0)),
    ("np.einsum('bij,jk->bik')", lambda x, y, z, j, k: np.einsum("bij,jk->bik", x, z)),
    ("np.tril(m)", lambda x, y, z, j, k: np.tril(z)),
    ("np.cumsum(a, 1)", lambda x, y, z, j, k: np.cumsum(x, axis=1)),
    ("a[0]", lambda x, y, z, j, k: x[0]),
    ("a[..., 1:3]", lambda x, y, z, j, k: x[..., 1:3]),
    ("a[:, None, ::2]", lambda x, y, z, j, k: x[:, None, ::2]),
    ("a[1, :, -1]", lambda x, y, z, j, k: x[1, :, -1]),
    ("m[iv]", lambda x, y, z, j, k: z[k]),
    ("m[iv, 1:]", lambda x, y, z, j, k: z[k, 1:]),
    ("a[:, iv[:2], 0]", lambda x, y, z, j, k: x[:, k[:2], 0]),
    ("a[0, :, iv]", lambda x, y, z, j, k: x[0, :, k]),
    ("a[i[0], :, i[1]]", lambda x, y, z, j, k: x[j[0], :, j[1]]),
    ("m[:, [0, 2]]", lambda x, y, z, j, k: z[:, [0, 2]]),
    ("a.astype(float16)", lambda x, y, z, j, k: x.astype(np.float16)),
    ("np.argsort(a, 1)", lambda x, y, z, j, k: np.argsort(x, axis=1)),
]


def described(r):
    return (tuple(r.shape), np.dtype(r.dtype))


def main():
    bad = 0
    for name, fn in CASES:
        real = fn(a, b, m, i, iv)
        virt = fn(V(a.shape, a.dtype), V(b.shape, b.dtype), V(m.shape, m.dtype), V(i.shape, i.dtype),
                  V(iv.shape, iv.dtype))
        if not isinstance(virt, V) or described(real) != described(virt):
            bad += 1
            print(f"MISMATCH {name}: numpy {described(real)}, shape-only {virt!r}")
    for name, fn in [("bool()", lambda v: bool(v)), ("float()", lambda v: float(v)), ("np.asarray", np.asarray),
                     ("np.nonzero", np.nonzero), ("boolean mask", lambda v: v[v > 0]), ("np.unique", np.unique)]:
        try:
            fn(V((3,), np.float32))
            bad += 1
            print(f"MISMATCH {name}: ran on shape-only values")
        except RuntimeError as e:
            if "Cannot read the values of a virtual tensor" not in str(e):
                bad += 1
                print(f"MISMATCH {name}: {e}")
    print(f"{len(CASES)} shape rules and 6 refusals checked, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

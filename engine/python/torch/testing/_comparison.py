# torch.testing.assert_close: pairs of tensors, numbers, None, bools, sequences and mappings compared the way
# PyTorch compares them (attributes first, then values with |a - b| <= atol + rtol * |b|), failing with its messages.
import cmath
import collections.abc

import numpy as np

from .. import _dtype as D

# PyTorch's defaults (rtol, atol); other dtypes (integers, bool) compare exactly.
_DTYPE_PRECISIONS = {D.float16: (1e-3, 1e-5), D.bfloat16: (1.6e-2, 1e-5), D.float32: (1.3e-6, 1e-5),
                     D.float64: (1e-7, 1e-7), D.complex32: (1e-3, 1e-5), D.complex64: (1.3e-6, 1e-5),
                     D.complex128: (1e-7, 1e-7)}
_NUMBER_DTYPES = {int: D.int64, float: D.float64, complex: D.complex128}


class _Mismatch(Exception):
    def __init__(self, type_, msg, id_=()):
        super().__init__(msg)
        self.type, self.msg, self.id = type_, msg, id_


def _tolerances(dtypes, rtol, atol):
    if (rtol is None) ^ (atol is None):
        raise _Mismatch(ValueError, f"Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                                    f"{'rtol' if rtol is None else 'atol'}.")
    if rtol is not None:
        return rtol, atol
    pairs = [_DTYPE_PRECISIONS.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _mismatch_msg(identifier, default, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0
    if identifier is None:
        identifier = default
    elif callable(identifier):
        identifier = identifier(default)
    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += extra.strip() + "\n"
    for kind, diff, idx, tol in (("absolute", abs_diff, abs_idx, atol), ("relative", rel_diff, rel_idx, rtol)):
        if idx is None:
            msg += f"{kind.title()} difference: {diff}"
        else:
            msg += f"Greatest {kind} difference: {diff} at index {idx}"
        msg += "" if equality else f" (up to {tol} allowed)"
        msg += "\n"
    return msg


def _is_tensor_like(x):
    from .._tensor import Tensor
    return isinstance(x, (Tensor, np.ndarray))


def _as_tensor(x):
    from .. import _factories
    return x if not isinstance(x, np.ndarray) else _factories.as_tensor(x)


def _compare_tensors(actual, expected, *, allow_subclasses, rtol, atol, equal_nan, check_device, check_dtype,
                     check_layout, check_stride):
    from .._tensor import Tensor
    if not allow_subclasses and type(actual) is not type(expected) and not (
            isinstance(actual, Tensor) and isinstance(expected, Tensor)):
        raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} and "
                                   f"{type(expected)}.")
    actual, expected = _as_tensor(actual), _as_tensor(expected)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol)

    def attribute(name, a, b):
        raise _Mismatch(AssertionError, f"The values for attribute '{name}' do not match: {a} != {b}.")
    if actual.shape != expected.shape:
        attribute("shape", actual.shape, expected.shape)
    if check_device and actual.device != expected.device:
        attribute("device", actual.device, expected.device)
    if check_dtype and actual.dtype != expected.dtype:
        attribute("dtype", actual.dtype, expected.dtype)
    if check_stride and actual.stride() != expected.stride():
        attribute("stride()", actual.stride(), expected.stride())

    from .. import promote_types
    dtype = actual.dtype if actual.dtype == expected.dtype else promote_types(actual.dtype, expected.dtype)
    a, b = _values(actual, dtype), _values(expected, dtype)
    if a.size == 0:
        return
    if dtype.is_floating_point or dtype.is_complex:
        with np.errstate(all="ignore"):
            matches = np.abs(a - b) <= atol + rtol * np.abs(b)
            matches |= a == b  # equal infinities
            if equal_nan:
                matches |= np.isnan(a) & np.isnan(b)
    else:
        matches = a == b
    if matches.all():
        return
    if a.ndim == 0:  # 0-dim tensors (t.mean(), t.sum()) fail as PyTorch's make_scalar_mismatch_msg says
        raise _Mismatch(AssertionError, _scalar_mismatch_msg(a.item(), b.item(), atol, rtol))
    with np.errstate(all="ignore"):
        diff = np.abs(a - b)
        diff[matches] = 0
        # integer differences divide in the default float dtype, as torch's int / int does
        rel = diff / np.abs(b).astype(diff.dtype if diff.dtype.kind in "fc" else np.float32)
        rel[matches] = 0
    flat_diff, flat_rel = diff.reshape(-1), rel.reshape(-1)
    mismatches = int((~matches).sum())
    total = matches.size
    extra = f"Mismatched elements: {mismatches} / {total} ({mismatches / total:.1%})"
    abs_at, rel_at = _argmax(flat_diff), _argmax(flat_rel)
    raise _Mismatch(AssertionError, _mismatch_msg(
        None, "Tensor-likes", extra, flat_diff[abs_at].item(), tuple(int(i) for i in np.unravel_index(abs_at, a.shape)),
        atol, flat_rel[rel_at].item(), tuple(int(i) for i in np.unravel_index(rel_at, a.shape)), rtol))


def _scalar_mismatch_msg(actual, expected, atol, rtol):
    """PyTorch's message for two numbers (Python ints, floats or complex) that are not close."""
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg(None, "Scalars", None, abs_diff, None, atol, rel_diff, None, rtol)


def _argmax(flat):
    """torch.max's index: the first NaN if any, else the first maximum."""
    nan = np.isnan(flat) if flat.dtype.kind in "fc" else None
    if nan is not None and nan.any():
        return int(np.argmax(nan))
    return int(np.argmax(flat))


def _values(t, dtype):
    """Host values upcast as PyTorch compares them: floats to float64, complex to complex128, the rest int64."""
    vals = np.asarray(t.detach().cpu()._host_values())
    if dtype.is_complex:
        return vals.astype(np.complex128)
    if dtype.is_floating_point:
        return vals.astype(np.float64)
    return vals.astype(np.int64)


def _compare_numbers(actual, expected, *, rtol, atol, equal_nan, check_dtype):
    kinds = []
    for x in (actual, expected):
        if isinstance(x, np.number):
            x = x.item()
        kinds.append(x)
    actual, expected = kinds
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (actual, expected)], rtol, atol)
    if check_dtype and type(actual) is not type(expected):
        raise _Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.")
    if actual == expected:
        return
    if equal_nan and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Mismatch(AssertionError, _scalar_mismatch_msg(actual, expected, atol, rtol))


def _is_number(x):
    return isinstance(x, (int, float, complex, np.number)) and not isinstance(x, (bool, np.bool_))


def _compare(actual, expected, id_, opts):
    from .._tensor import Tensor
    if actual is None and expected is None:
        return
    if isinstance(actual, (bool, np.bool_)) and isinstance(expected, (bool, np.bool_)):
        if bool(actual) is not bool(expected):
            raise _Mismatch(AssertionError, f"Booleans mismatch: {bool(actual)} is not {bool(expected)}", id_)
        return
    if _is_number(actual) and _is_number(expected):
        try:
            return _compare_numbers(actual, expected, rtol=opts["rtol"], atol=opts["atol"],
                                    equal_nan=opts["equal_nan"], check_dtype=opts["check_dtype"])
        except _Mismatch as m:
            m.id = id_
            raise
    if _is_tensor_like(actual) and _is_tensor_like(expected) and (
            isinstance(actual, Tensor) or isinstance(expected, Tensor)):
        try:
            return _compare_tensors(actual, expected, **opts)
        except _Mismatch as m:
            m.id = id_
            raise
    seq = collections.abc.Sequence
    if isinstance(actual, seq) and isinstance(expected, seq) and not isinstance(actual, str) \
            and not isinstance(expected, str):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, f"The length of the sequences mismatch: {len(actual)} != "
                                            f"{len(expected)}", id_)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, id_ + (i,), opts)
        return
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        ka, ke = set(actual.keys()), set(expected.keys())
        if ka != ke:
            missing, extra = ke - ka, ka - ke
            raise _Mismatch(AssertionError, "The keys of the mappings do not match:\n" +
                            (f"Missing keys in the actual mapping: {sorted(missing)}\n" if missing else "") +
                            (f"Additional keys in the actual mapping: {sorted(extra)}" if extra else ""), id_)
        for k in (sorted(ka) if all(isinstance(k, str) for k in ka) else actual.keys()):
            _compare(actual[k], expected[k], id_ + (k,), opts)
        return
    raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} and "
                               f"{type(expected)}.", id_)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    __tracebackhide__ = True
    opts = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                check_device=check_device, check_dtype=check_dtype, check_layout=check_layout,
                check_stride=check_stride)
    try:
        _compare(actual, expected, (), opts)
    except _Mismatch as m:
        if m.type is not AssertionError or msg is None:
            text = m.msg.strip()
            if m.id:
                text += f"\n\nThe failure occurred for item {''.join(f'[{i!r}]' for i in m.id)}"
        else:
            text = msg(m.msg.strip()) if callable(msg) else msg
        raise m.type(text) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    import warnings
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future "
                  "release. Please use `torch.testing.assert_close()` instead.", FutureWarning, stacklevel=2)
    from .. import _factories
    from .._tensor import Tensor
    actual = actual if isinstance(actual, Tensor) else _factories.tensor(actual)
    expected = expected if isinstance(expected, Tensor) else _factories.tensor(expected, dtype=actual.dtype)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)


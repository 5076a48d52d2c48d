# numpy's floating-point error handling switched off around an op's math (PyTorch produces inf/nan
# silently), at a fraction of np.errstate's cost: np.errstate(all="ignore") runs seterr/geterr in Python
# (about 3-7 us per with-block, once or twice per op); this swaps numpy 1.x's error object directly
# (about 0.5 us). The caller's own numpy settings are restored on exit, as with np.errstate.
import numpy as np

_umath = np.core.umath
if hasattr(_umath, "geterrobj") and hasattr(_umath, "seterrobj"):
    _get, _set = _umath.geterrobj, _umath.seterrobj

    class fp_quiet:
        """`with fp_quiet():` == `with np.errstate(all="ignore"):` (numpy 1.x error object: bufsize,
        error mask, callback; mask 0 ignores every floating-point error)."""
        __slots__ = ("_old",)

        def __enter__(self):
            old = self._old = _get()
            _set([old[0], 0, old[2]])
            return self

        def __exit__(self, *exc):
            _set(self._old)
            return False
else:  # numpy 2 keeps its error state in a context variable: np.errstate is the way
    def fp_quiet():
        return np.errstate(all="ignore")

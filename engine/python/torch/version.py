# torch.version / torch.__version__: the PyTorch API level DeviceScope implements. 2.6 is the release whose
# behaviour it follows where versions differ (torch.load's weights_only=True default, torch.accelerator,
# torch.amp.GradScaler("cuda")); later additions are not claimed even where some exist.
__all__ = ["__version__", "cuda", "git_version", "hip", "debug"]


def _parts(v):
    out = []
    for piece in str(v).split("+")[0].split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        out.append(int(digits))
    return tuple(out)


class TorchVersion(str):
    """A str that compares as a version with strings and tuples (torch.__version__ >= "2.0", >= (2, 0))."""

    def _cmp_key(self, other):
        mine, theirs = _parts(self), _parts(other) if not isinstance(other, tuple) else tuple(other)
        n = max(len(mine), len(theirs))
        return mine + (0,) * (n - len(mine)), tuple(theirs) + (0,) * (n - len(theirs))

    def __lt__(self, other):
        a, b = self._cmp_key(other)
        return a < b

    def __le__(self, other):
        a, b = self._cmp_key(other)
        return a <= b

    def __gt__(self, other):
        a, b = self._cmp_key(other)
        return a > b

    def __ge__(self, other):
        a, b = self._cmp_key(other)
        return a >= b

    def __eq__(self, other):
        if isinstance(other, str) and not isinstance(other, TorchVersion) and str.__eq__(self, other):
            return True
        a, b = self._cmp_key(other)
        return a == b

    __hash__ = str.__hash__


__version__ = TorchVersion("2.6.0+devicescope")
cuda = None  # not a CUDA build of PyTorch: the devices are DeviceScope's (simulated, or real through its engine)
hip = None
debug = False
git_version = "devicescope"

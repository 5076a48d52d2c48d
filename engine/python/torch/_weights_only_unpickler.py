# The unpicklers torch.load uses. A checkpoint is a pickle, and a pickle can name any importable callable
# and call it (os.system, subprocess.Popen, eval, ...).
# - WeightsOnlyUnpickler (weights_only=True, PyTorch 2.6's default): resolves names only from an allow-list,
#   exactly what PyTorch's weights-only unpickler allows (tensor rebuild functions, Parameter,
#   OrderedDict/Counter, dtypes, devices, Size, storage types, builtin containers) plus
#   torch.serialization.add_safe_globals([...]). No file loaded this way runs code.
# - FullUnpickler (weights_only=False): the user's explicit choice to trust the file, so it loads what
#   PyTorch's own unpickler loads: any importable global (torch.nn.functional.relu in a pickled
#   TransformerEncoderLayer, argparse.Namespace in a training checkpoint, the script's classes), resolved
#   against this interpreter's modules - DeviceScope's torch package is the torch loaded here. Like PyTorch's
#   UnpicklerWrapper it maps torch's renamed modules and its storage and rebuild globals first.
import _compat_pickle
import collections
import pickle
from _codecs import encode

_user_safe_globals = set()


def add_safe_globals(safe_globals):
    _user_safe_globals.update(safe_globals)


def get_safe_globals():
    return list(_user_safe_globals)


def clear_safe_globals():
    _user_safe_globals.clear()


def remove_safe_globals(safe_globals):
    _user_safe_globals.difference_update(safe_globals)


def _user_allowed():
    rc = {}
    for f in _user_safe_globals:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError(f"Expected tuple of length 2 (global, str of callable full path), but got tuple "
                                 f"of length: {len(f)}")
            if type(f[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full path, but got: "
                                f"{type(f[1])}")
            rc[f[1]] = f[0]
        else:
            rc[f"{f.__module__}.{f.__qualname__}"] = f
    return rc


def _default_allowed():
    import torch
    from . import _dtype as D
    from . import _utils
    rc = {"collections.OrderedDict": collections.OrderedDict, "collections.Counter": collections.Counter,
          "torch.nn.parameter.Parameter": torch.nn.Parameter, "torch.Size": torch.Size,
          "torch.Tensor": torch.Tensor, "torch.device": torch.device, "_codecs.encode": encode,
          "builtins.bytearray": bytearray, "builtins.set": set, "builtins.complex": complex}
    for d in D.ALL + (D.complex64, D.complex128, D.complex32):
        rc[str(d)] = d
    for st in _utils.STORAGE_TYPES.values():
        rc[f"torch.{st.__name__}"] = st
    rc.update(_utils.rebuild_functions())
    return rc


def _refusal(full_path):
    """PyTorch's WeightsUnpickler message for a global outside the allow-list."""
    module = full_path.rsplit(".", 1)[0]
    if module in ("sys", "os", "posix", "nt"):
        return f"Trying to load unsupported GLOBAL {full_path} whose module {module} is blocked."
    short = full_path.rsplit(".", 1)[-1]
    return (f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. Please use "
            f"`torch.serialization.add_safe_globals([{short}])` or the `torch.serialization.safe_globals([{short}])` "
            "context manager to allowlist this global if you trust this class/function.")


def _python3_name(module, name):
    """Protocol 0-2 pickles name Python 2 modules (__builtin__, commands, ...); map them as Python would."""
    if (module, name) in _compat_pickle.NAME_MAPPING:
        return _compat_pickle.NAME_MAPPING[(module, name)]
    return _compat_pickle.IMPORT_MAPPING.get(module, module), name


class WeightsOnlyUnpickler(pickle.Unpickler):
    def __init__(self, file, persistent_load=None, **kwargs):
        super().__init__(file, **kwargs)
        self._persistent = persistent_load
        self._allowed = _default_allowed()
        self._allowed.update(_user_allowed())

    def persistent_load(self, pid):
        if self._persistent is None:
            raise pickle.UnpicklingError("A load persistent id instruction was encountered, but no "
                                         "persistent_load function was specified.")
        return self._persistent(pid)

    def find_class(self, module, name):
        module, name = _python3_name(module, name)
        full_path = f"{module}.{name}"
        if module in ("sys", "os", "posix", "nt"):
            raise pickle.UnpicklingError(_refusal(full_path))
        if full_path in self._allowed:
            return self._allowed[full_path]
        raise pickle.UnpicklingError(_refusal(full_path))


class FullUnpickler(WeightsOnlyUnpickler):
    """weights_only=False: torch.load's full unpickler (torch/serialization.py UnpicklerWrapper)."""

    # torch/serialization.py load_module_mapping: modules PyTorch renamed, as older files name them.
    _MODULE_MAPPING = {"torch.tensor": "torch._tensor"}

    def find_class(self, module, name):
        module, name = _python3_name(module, name)
        module = self._MODULE_MAPPING.get(module, module)
        full_path = f"{module}.{name}"
        if full_path in self._allowed:  # DeviceScope's rebuild functions and storage types under torch's names
            return self._allowed[full_path]
        return super(WeightsOnlyUnpickler, self).find_class(module, name)


class safe_globals:
    """torch.serialization.safe_globals([...]): the given globals are allowed inside the with block."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        remove_safe_globals(self.safe_globals)

# torch.jit for DeviceScope. Code never runs under TorchScript here, so the questions library code asks are
# answered truthfully (is_scripting() / is_tracing() are False) and the decorators that only matter to the
# TorchScript compiler (ignore, unused, export, interface, Final) leave eager code as it is, as they do in
# PyTorch's eager mode. script() and trace() return the function or module they are given, unchanged: the
# eager code is what DeviceScope runs and measures (a compiled graph would allocate the same parameters and,
# without fusion, the same activations). Saving or loading TorchScript archives is not supported.
import typing

__all__ = ["Final", "annotate", "export", "ignore", "interface", "is_scripting", "is_tracing", "load", "save",
           "script", "trace", "unused"]

Final = typing.Final


def is_scripting():
    return False


def is_tracing():
    return False


def annotate(the_type, the_value):
    return the_value


def ignore(drop=False, **kwargs):
    if callable(drop):  # used as @torch.jit.ignore
        return drop

    def decorator(fn):
        return fn
    return decorator


def unused(fn):
    return fn


def export(fn):
    return fn


def interface(obj):
    return obj


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """The object itself: DeviceScope runs the eager code (see the note at the top of this module)."""
    return obj


def trace(func, example_inputs=None, *args, **kwargs):
    """The function or module itself: DeviceScope runs the eager code (see the note at the top)."""
    return func


def save(m, f, _extra_files=None):
    raise RuntimeError("DeviceScope: torch.jit.save (TorchScript archives) is not supported; use torch.save "
                       "(state_dict or the module)")


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    raise RuntimeError("DeviceScope: torch.jit.load (TorchScript archives) is not supported; use torch.load")

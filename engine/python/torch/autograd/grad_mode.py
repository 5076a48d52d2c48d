# Grad mode: torch.no_grad / enable_grad / set_grad_enabled / inference_mode, usable as context managers
# and as decorators, like PyTorch's.
import functools
import inspect

_enabled = [True]  # a list so the ops read it without a function call


def is_grad_enabled():
    return _enabled[0]


def _set(mode):
    _enabled[0] = bool(mode)


class _DecoratorContextManager:
    def __call__(self, func):
        if inspect.isclass(func):
            raise RuntimeError("Decorating classes is deprecated and will be disabled in future versions. "
                               "You should only decorate functions or methods. To preserve the current "
                               "behavior of class decoration, you can directly decorate the `__init__` method "
                               "and nothing else.")
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def gen(*args, **kwargs):
                with self.clone():
                    yield from func(*args, **kwargs)
            return gen

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__()


class no_grad(_DecoratorContextManager):
    def __new__(cls, orig_func=None):
        if orig_func is None or not callable(orig_func):
            return super().__new__(cls)
        return cls()(orig_func)  # @torch.no_grad without parentheses (PyTorch 2.x)

    def __init__(self, orig_func=None):
        self.prev = False

    def __enter__(self):
        self.prev = _enabled[0]
        _enabled[0] = False

    def __exit__(self, *exc):
        _enabled[0] = self.prev
        return False


class enable_grad(_DecoratorContextManager):
    def __new__(cls, orig_func=None):
        if orig_func is None or not callable(orig_func):
            return super().__new__(cls)
        return cls()(orig_func)

    def __init__(self, orig_func=None):
        self.prev = False

    def __enter__(self):
        self.prev = _enabled[0]
        _enabled[0] = True

    def __exit__(self, *exc):
        _enabled[0] = self.prev
        return False


class set_grad_enabled(_DecoratorContextManager):
    """Takes effect at construction (a plain call switches grad mode), restored on exit."""

    def __init__(self, mode):
        self.prev = _enabled[0]
        self.mode = bool(mode)
        _enabled[0] = self.mode

    def __call__(self, func):
        _enabled[0] = self.prev
        return super().__call__(func)

    def __enter__(self):
        _enabled[0] = self.mode

    def __exit__(self, *exc):
        _enabled[0] = self.prev
        return False

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    def __new__(cls, mode=True):
        if callable(mode) and not isinstance(mode, bool):
            return cls(True)(mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        self.mode = mode
        self.prev = True

    def __enter__(self):
        self.prev = _enabled[0]
        if self.mode:
            _enabled[0] = False

    def __exit__(self, *exc):
        _enabled[0] = self.prev
        return False

    def clone(self):
        return self.__class__(self.mode)


def is_inference_mode_enabled():
    return False

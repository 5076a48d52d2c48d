# torch.nn for DeviceScope: Module (a port of PyTorch's module.py), Parameter, layers, functional, init.
from .parameter import Buffer, Parameter
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from . import functional
from . import init
from . import utils

__all__ = ["Buffer", "Parameter", "functional", "init", "utils"] + list(_modules_all)

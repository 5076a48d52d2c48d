# torch.nn for DeviceScope: Module (a port of PyTorch's module.py), Parameter, layers, functional, init.
from .parameter import Buffer, Parameter
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from . import functional
from . import init
from . import utils
from . import parallel
from .parallel import DataParallel

__all__ = ["Buffer", "Parameter", "functional", "init", "utils", "parallel", "DataParallel"] + list(_modules_all)

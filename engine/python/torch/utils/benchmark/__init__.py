# torch.utils.benchmark: Timer, Measurement and Compare with PyTorch's arguments and printing. Times are real
# host wall-clock times; on simulated CUDA devices each measurement also carries the modelled device time of
# the copies it made (the simulated clock), printed on its own line and labelled simulated.
from .utils.common import Measurement, TaskSpec, select_unit, ordered_unique, trim_sigfig  # noqa: F401
from .utils.compare import Colorize, Compare  # noqa: F401
from .utils.timer import Language, Timer  # noqa: F401

# torch.nn.parallel: DataParallel and its pieces (scatter, replicate, parallel_apply, gather), with every
# copy between devices recorded by DeviceScope under the name of what it carries.
from . import comm
from .data_parallel import DataParallel, data_parallel
from .distributed import DistributedDataParallel
from .parallel_apply import parallel_apply
from .replicate import replicate
from .scatter_gather import gather, scatter, scatter_kwargs

__all__ = ["comm", "DataParallel", "data_parallel", "DistributedDataParallel", "parallel_apply", "replicate",
           "gather", "scatter", "scatter_kwargs"]

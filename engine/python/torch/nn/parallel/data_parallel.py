# torch.nn.DataParallel and data_parallel: each forward scatters the batch along `dim` across device_ids,
# replicates the module (every parameter and buffer broadcast from device_ids[0]), runs the replicas and
# gathers their outputs on output_device. Backward sums the replicas' gradients into the original
# parameters on device_ids[0]. DeviceScope records every one of these copies with its owner.
import operator
import warnings
from itertools import chain

import torch
from ..modules.module import Module
from . import _naming as N
from .parallel_apply import parallel_apply
from .replicate import _replicate
from .scatter_gather import gather, scatter_kwargs

__all__ = ["DataParallel", "data_parallel"]


def _check_balance(device_ids):
    imbalance_warn = ("There is an imbalance between your GPUs. You may want to exclude GPU {} which\n"
                      "    has less than 75% of the memory or cores of GPU {}. You can do so by setting\n"
                      "    the device_ids argument to DataParallel, or by setting the CUDA_VISIBLE_DEVICES\n"
                      "    environment variable.")
    try:
        props = [torch.cuda.get_device_properties(i) for i in device_ids]
    except Exception:
        return
    for attr in ("total_memory", "multi_processor_count"):
        values = [getattr(p, attr, None) for p in props]
        if any(v is None for v in values):
            continue
        min_pos, min_val = min(enumerate(values), key=operator.itemgetter(1))
        max_pos, max_val = max(enumerate(values), key=operator.itemgetter(1))
        if min_val / max_val < 0.75:
            warnings.warn(imbalance_warn.format(device_ids[min_pos], device_ids[max_pos]))
            return


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if not torch.cuda.is_available():
            self.module = module
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = list(range(torch.cuda.device_count()))
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = [N.device_index(x) for x in device_ids]
        self.output_device = N.device_index(output_device, allow_cpu=True)
        self.src_device_obj = torch.device("cuda", self.device_ids[0])
        _check_balance(self.device_ids)
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for t in chain(self.module.parameters(), self.module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError("module must have its parameters and buffers on device {} (device_ids[0]) but "
                                   "found one of them on device: {}".format(self.src_device_obj, t.device))
        inputs, module_kwargs = self.scatter(inputs, kwargs, self.device_ids)
        if not inputs and not module_kwargs:
            inputs = ((),)
            module_kwargs = ({},)
        if len(self.device_ids) == 1:
            return self.module(*inputs[0], **module_kwargs[0])
        replicas = self.replicate(self.module, self.device_ids[:len(inputs)])
        outputs = self.parallel_apply(replicas, inputs, module_kwargs)
        return self.gather(outputs, self.output_device)

    def replicate(self, module, device_ids):
        # the copies are named as this wrapper's state_dict names them: "module.<parameter>"
        return _replicate(module, device_ids, not torch.is_grad_enabled(), prefix="module.")

    def scatter(self, inputs, kwargs, device_ids):
        return scatter_kwargs(inputs, kwargs, device_ids, dim=self.dim)

    def parallel_apply(self, replicas, inputs, kwargs):
        return parallel_apply(replicas, inputs, kwargs, self.device_ids[:len(replicas)])

    def gather(self, outputs, output_device):
        return gather(outputs, output_device, dim=self.dim)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    """The functional form of DataParallel: one scatter / replicate / apply / gather round."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    if device_ids is None:
        device_ids = list(range(torch.cuda.device_count()))
    if output_device is None:
        output_device = device_ids[0]
    device_ids = [N.device_index(x) for x in device_ids]
    output_device = N.device_index(output_device, allow_cpu=True)
    src_device_obj = torch.device("cuda", device_ids[0])
    for t in chain(module.parameters(), module.buffers()):
        if t.device != src_device_obj:
            raise RuntimeError("module must have its parameters and buffers on device {} (device_ids[0]) but found "
                               "one of them on device: {}".format(src_device_obj, t.device))
    inputs, module_kwargs = scatter_kwargs(inputs, module_kwargs, device_ids, dim)
    if not inputs and not module_kwargs:
        inputs = ((),)
        module_kwargs = ({},)
    if len(device_ids) == 1:
        return module(*inputs[0], **module_kwargs[0])
    used_device_ids = device_ids[:len(inputs)]
    replicas = _replicate(module, used_device_ids, not torch.is_grad_enabled(), prefix="")
    outputs = parallel_apply(replicas, inputs, module_kwargs, used_device_ids)
    return gather(outputs, output_device, dim)

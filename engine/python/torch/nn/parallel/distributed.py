# torch.nn.parallel.DistributedDataParallel on DeviceScope's simulated ranks (torch.distributed's rank 0): the
# memory DDP's reducer (torch/csrc/distributed/c10d/reducer.cpp) adds to a training step.
#
# - Buckets: one flat gradient tensor per bucket, allocated when DDP is built. The first iteration has one bucket
#   per dtype (2.x: bucket_size_limits [sys.maxsize] unless find_unused_parameters or ...); after it the reducer
#   rebuilds them in the order gradients became ready, with dist._DEFAULT_FIRST_BUCKET_BYTES (1 MiB) for the first
#   and bucket_cap_mb (25) for the others (Reducer::rebuild_buckets), at the start of the next forward.
# - A parameter's gradient is copied into its bucket view (divided by the world size) once autograd accumulated
#   it (AccumulateGrad's post hook). gradient_as_bucket_view=True makes .grad that view (the copy autograd made is
#   freed: one copy of the gradients); without it .grad and the buckets are two copies, and .grad gets the reduced
#   values back when every bucket is reduced.
# - A full bucket is all-reduced in place (torch.distributed on simulated ranks: nothing allocated).
import sys
from contextlib import contextmanager

import torch
from torch import _devicescope_hooks as _hooks

from ..modules.module import Module

__all__ = ["DistributedDataParallel"]


class _Bucket:
    __slots__ = ("params", "offsets", "tensor", "pending")

    def __init__(self, params, index):
        self.params = params
        self.offsets = []
        total = 0
        for p in params:
            self.offsets.append(total)
            total += p.numel()
        first = params[0]
        previous = _hooks.set_new_storage_role("gradient")
        try:
            self.tensor = torch.empty(total, dtype=first.dtype, device=first.device)
        finally:
            _hooks.set_new_storage_role(previous)
        _hooks.tag(self.tensor, "gradient", "DDP bucket %d" % index)
        self.pending = len(params)

    def view(self, i):
        p = self.params[i]
        return self.tensor[self.offsets[i]:self.offsets[i] + p.numel()].view(p.shape)


class _Reducer:
    def __init__(self, ddp, params, bucket_indices):
        self.ddp = ddp
        self.params = params
        self.where = {}       # id(param) -> (bucket, position)
        self.buckets = []
        self.ready_order = []  # parameter indices in the order their gradients were ready (first iteration)
        self.index = {id(p): i for i, p in enumerate(params)}
        self.rebuilt = False
        self.build(bucket_indices)
        for p in params:
            p.register_post_accumulate_grad_hook(self._grad_ready)

    def build(self, bucket_indices):
        # Reducer::initialize_buckets clears the old buckets first: without gradient_as_bucket_view they go at
        # once; with it, each stays until the gradients viewing it have moved into the new buckets.
        self.buckets = []
        self.where = {}
        for b, indices in enumerate(bucket_indices):
            bucket = _Bucket([self.params[i] for i in indices], b)
            self.buckets.append(bucket)
            for pos, i in enumerate(indices):
                self.where[id(self.params[i])] = (bucket, pos)
                if self.ddp.gradient_as_bucket_view and self.params[i].grad is not None:
                    # initialize_bucket_views: a gradient that already exists moves into the new bucket view
                    view = bucket.view(pos)
                    with torch.no_grad():
                        view.copy_(self.params[i].grad)
                    self.params[i].grad = view

    def prepare_for_backward(self):
        for bucket in self.buckets:
            bucket.pending = len(bucket.params)

    def maybe_rebuild(self):
        # Reducer::should_rebuild_buckets: (static_graph || !find_unused_parameters) && !has_rebuilt_bucket_
        if self.rebuilt or not self.ready_order or (self.ddp.find_unused_parameters and not self.ddp.static_graph):
            return
        self.rebuilt = True
        import torch.distributed as dist
        order = self.ready_order
        indices, _ = dist._compute_bucket_assignment_by_size(
            [self.params[i] for i in order], [dist._DEFAULT_FIRST_BUCKET_BYTES, self.ddp.bucket_bytes_cap],
            [], order)
        self.build(indices)

    def _grad_ready(self, p):
        if not self.ddp.require_backward_grad_sync:
            return
        if not self.rebuilt and len(self.ready_order) < len(self.params):
            self.ready_order.append(self.index[id(p)])
        bucket, pos = self.where[id(p)]
        view = bucket.view(pos)
        world = self.ddp.world_size
        with torch.no_grad():
            grad = p.grad
            if grad is None:
                view.zero_()
            elif grad.data_ptr() == view.data_ptr() and grad.untyped_storage().size() == view.untyped_storage().size():
                view.div_(world)
            else:
                view.copy_(grad)
                view.div_(world)
                if self.ddp.gradient_as_bucket_view:
                    p.grad = view
        bucket.pending -= 1
        if bucket.pending == 0:
            import torch.distributed as dist
            dist.all_reduce(bucket.tensor, group=self.ddp.process_group)
            if all(b.pending == 0 for b in self.buckets):
                self._finalize()

    def _finalize(self):
        if self.ddp.gradient_as_bucket_view:
            return
        with torch.no_grad():
            for bucket in self.buckets:
                for pos, p in enumerate(bucket.params):
                    if p.grad is not None:
                        p.grad.copy_(bucket.view(pos))


class DistributedDataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 process_group=None, bucket_cap_mb=None, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False, delay_all_reduce_named_params=None,
                 param_to_hook_all_reduce=None, mixed_precision=None, device_mesh=None):
        super().__init__()
        import torch.distributed as dist
        self.process_group = process_group if process_group is not None else dist.GroupMember.WORLD
        if self.process_group is None:
            raise ValueError("Default process group has not been initialized, please make sure to call "
                             "init_process_group.")
        self.module = module
        self.device_ids = device_ids
        self.dim = dim
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.require_backward_grad_sync = True
        self.world_size = self.process_group.size()
        self.bucket_bytes_cap = int((25 if bucket_cap_mb is None else bucket_cap_mb) * 1024 * 1024)
        params, seen = [], set()
        for p in module.parameters():
            if p.requires_grad and id(p) not in seen:
                seen.add(id(p))
                params.append(p)
        if not params:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any parameter "
                               "that requires a gradient.")
        if static_graph or not find_unused_parameters:
            limits = [sys.maxsize]
        else:
            limits = [dist._DEFAULT_FIRST_BUCKET_BYTES, self.bucket_bytes_cap]
        indices, _ = dist._compute_bucket_assignment_by_size(params, limits)
        # reversed: buckets in the order their gradients are produced (parameters are used in definition order)
        self.reducer = _Reducer(self, params, list(reversed(indices)))

    def bucket_layout(self):
        """DeviceScope: the parameter indices of each bucket and its bytes, in reduction order."""
        out = []
        for b in self.reducer.buckets:
            out.append(([self.reducer.index[id(p)] for p in b.params], b.tensor.numel() * b.tensor.element_size()))
        return out

    def forward(self, *inputs, **kwargs):
        if torch.is_grad_enabled() and self.require_backward_grad_sync:
            self.reducer.maybe_rebuild()
            self.reducer.prepare_for_backward()
        return self.module(*inputs, **kwargs)

    @contextmanager
    def no_sync(self):
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old

# fully_shard (FSDP2, torch/distributed/_composable/fsdp) on DeviceScope's simulated ranks: the memory layout and
# the allocations of full sharding, for rank 0 of the world (torch.distributed's note on simulated ranks).
#
# - Sharding (FSDPParam._init_sharded_param): each parameter is chunked on dim 0 into world-size chunks
#   (torch.chunk: ceil(dim0 / W) rows each); the rank's shard is a new padded tensor of the first chunk's size,
#   the module's parameter becomes that shard (unpadded rows), and the full parameter is freed. An optimizer built
#   after fully_shard keeps shard-sized state.
# - Unshard (foreach_all_gather + copy-out), at the module's pre-forward and when its outputs' gradients arrive in
#   backward: one flat all-gather output of W x (the group's padded shard numel), the shards copied in at the
#   rank's offset; then one padded unsharded tensor per parameter, copied out of it; then the flat output goes.
#   The module's parameters are the unsharded ones while it runs (the same Parameter objects every time: their
#   storage is swapped, as FSDP2 resizes it, so what autograd saved finds the data again in backward).
# - Reshard: after forward (reshard_after_forward=True; the root keeps its parameters for backward, as FSDP2's
#   lazy init decides) and after the group's gradients are reduced: the unsharded storages go.
# - Post-backward (foreach_reduce), once every parameter of the group has its gradient: one reduce-scatter input of
#   W x S, the unsharded gradients copied in and freed, one output of S, reduce_scatter_tensor; each sharded
#   parameter's .grad is a view of that output (or is added to, when accumulating).
# - MixedPrecisionPolicy(param_dtype, reduce_dtype): the all-gather runs in param_dtype (a cast copy of each shard
#   first), the reduce-scatter in reduce_dtype (default param_dtype), and the sharded gradient is cast back to the
#   parameter's dtype.
# Simplified: one group is all-gathered at a time (no prefetch of the next), and a reduce-scatter input is freed
# at once (FSDP2 keeps the last one until the next reduce-scatter or the end of backward).
import _devicescope_C as _E

import torch
from torch import _devicescope_hooks as _hooks

__all__ = ["fully_shard", "MixedPrecisionPolicy", "FSDPModule"]


class MixedPrecisionPolicy:
    def __init__(self, param_dtype=None, reduce_dtype=None, output_dtype=None, cast_forward_inputs=True):
        self.param_dtype = param_dtype
        self.reduce_dtype = reduce_dtype
        self.output_dtype = output_dtype
        self.cast_forward_inputs = cast_forward_inputs


class FSDPModule:
    """Marker base (isinstance(m, FSDPModule) after fully_shard, as in PyTorch)."""

    def unshard(self, async_op=False):
        self._fsdp_group.unshard()

    def reshard(self):
        self._fsdp_group.reshard()


def _empty(numel, dtype, device, role):
    previous = _hooks.set_new_storage_role(role)
    try:
        return torch.empty(numel, dtype=dtype, device=device)
    finally:
        _hooks.set_new_storage_role(previous)


class _Param:
    __slots__ = ("module", "name", "full_shape", "dtype", "device", "rows", "rest", "chunk_rows", "shard_numel",
                 "padded_shard", "sharded", "unsharded", "padded_full")

    def __init__(self, module, name, param, world, rank):
        self.module, self.name = module, name
        self.full_shape = tuple(param.shape) if param.dim() else (1,)
        self.dtype = param.dtype
        # FSDP2 moves the shards to the mesh's device (the current CUDA device): a model built on the CPU (or in
        # virtual mode, anywhere) is sharded straight onto the GPU, never whole there
        self.device = torch.device("cuda", torch.cuda.current_device()) if torch.cuda.is_available() else param.device
        dim0 = self.full_shape[0]
        self.rest = 1
        for s in self.full_shape[1:]:
            self.rest *= s
        self.chunk_rows = -(-dim0 // world)  # torch.chunk: the first chunk's rows
        self.shard_numel = self.chunk_rows * self.rest
        rows = max(0, min(self.chunk_rows, dim0 - rank * self.chunk_rows))
        self.rows = rows
        with torch.no_grad():
            padded = _empty(self.shard_numel, self.dtype, self.device, "parameter")
            padded.zero_()
            if rows:
                src = param.detach().reshape(dim0, self.rest)[rank * self.chunk_rows:rank * self.chunk_rows + rows]
                padded.view(self.chunk_rows, self.rest)[:rows].copy_(src)
                del src
        self.padded_shard = padded
        local = padded.view((self.chunk_rows,) + self.full_shape[1:])[:rows]
        self.sharded = torch.nn.Parameter(local, requires_grad=param.requires_grad)
        _hooks.tag(self.sharded, "parameter", name)
        self.unsharded = None    # the Parameter the module uses while unsharded (a view of padded_full)
        self.padded_full = None  # W x shard numel: the all-gather's copy-out for this parameter


class _Group:
    def __init__(self, module, params, world, rank, reshard_after_forward, mp_policy):
        self.module = module
        self.world, self.rank = world, rank
        self.params = params
        self.reshard_after_forward = reshard_after_forward
        self.mp = mp_policy or MixedPrecisionPolicy()
        self.is_unsharded = False
        self.in_backward = False
        self.is_root = False
        self.pending = 0

    # ---------------------------------------------------------------- all-gather
    def unshard(self):
        if self.is_unsharded or not self.params:
            return
        dtype = self.mp.param_dtype or self.params[0].dtype
        device = self.params[0].device
        total = sum(p.shard_numel for p in self.params)
        with torch.no_grad():
            output = _empty(total * self.world, dtype, device, "parameter")
            inp = output.narrow(0, total * self.rank, total)
            offset = 0
            for p in self.params:
                src = p.padded_shard if p.padded_shard.dtype == dtype else p.padded_shard.to(dtype)
                inp.narrow(0, offset, p.shard_numel).copy_(src)
                del src
                offset += p.shard_numel
            import torch.distributed as dist
            dist.all_gather_into_tensor(output, inp)
            by_rank = output.view(self.world, total)
            offset = 0
            for p in self.params:
                if p.padded_full is None:
                    p.padded_full = _empty(p.shard_numel * self.world, dtype, device, "parameter")
                    full = p.padded_full[:_numel(p.full_shape)].view(p.full_shape)
                    p.unsharded = torch.nn.Parameter(full, requires_grad=p.sharded.requires_grad)
                    if p.unsharded.requires_grad:
                        p.unsharded.register_post_accumulate_grad_hook(self._grad_ready)
                    del full
                else:  # alloc_storage: the same tensors get bytes again
                    _E.resize_storage(p.padded_full._impl, p.shard_numel * self.world * p.padded_full.element_size())
                # as FSDP2 under _unsafe_preserve_version_counter: refilling the storage is not an in-place
                # change autograd should see (what it saved of the parameter is the same data again)
                # (.data has its own version counter)
                p.padded_full.data.view(self.world, p.shard_numel).copy_(by_rank[:, offset:offset + p.shard_numel])
                offset += p.shard_numel
            del output, inp, by_rank
        for p in self.params:
            p.module._parameters[p.name] = p.unsharded
        self.is_unsharded = True

    def reshard(self):
        if not self.is_unsharded:
            return
        for p in self.params:
            # free_storage: the storage goes to 0 bytes under every view of it (what autograd saved included)
            _E.resize_storage(p.padded_full._impl, 0)
            p.module._parameters[p.name] = p.sharded
        self.is_unsharded = False

    # ---------------------------------------------------------------- hooks
    def pre_forward(self, module, args):
        self.unshard()
        # FSDPState._pre_forward: with a param_dtype, floating-point inputs are cast to it (cast_forward_inputs)
        if self.mp.param_dtype is not None and self.mp.cast_forward_inputs:
            return tuple(_cast(a, self.mp.param_dtype) for a in args)
        return None

    def post_forward(self, module, args, output):
        if self.in_backward:  # activation-checkpoint recomputation: backward still needs the parameters
            return None
        if self.mp.output_dtype is not None:
            output = _cast(output, self.mp.output_dtype)
        if torch.is_grad_enabled():
            self.pending = sum(1 for p in self.params if p.sharded.requires_grad)
            for t in _tensors(output):
                if t.requires_grad:
                    t.register_hook(self._pre_backward)
        if self.reshard_after_forward and not self.is_root:
            self.reshard()
        return output if self.mp.output_dtype is not None else None

    def _pre_backward(self, grad):
        self.in_backward = True
        self.unshard()
        return None

    def _grad_ready(self, param):
        self.pending -= 1
        if self.pending <= 0:
            self.post_backward()

    def post_backward(self):
        grads = [(p, p.unsharded.grad) for p in self.params if p.unsharded is not None and p.unsharded.grad is not None]
        for p, _ in grads:
            p.unsharded.grad = None
        self.reshard()
        self.in_backward = False
        if not grads:
            return
        import torch.distributed as dist
        reduce_dtype = self.mp.reduce_dtype or self.mp.param_dtype or grads[0][1].dtype
        device = grads[0][1].device
        total = sum(p.shard_numel for p, _ in grads)
        with torch.no_grad():
            rs_input = _empty(total * self.world, reduce_dtype, device, "gradient")
            by_rank = rs_input.view(self.world, total)
            offset = 0
            for p, g in grads:
                dst = by_rank[:, offset:offset + p.shard_numel]
                flat = g.reshape(-1)
                n = flat.numel()
                # the gradient's rows, chunked as the parameter: rank r's chunk lands in row r (padding stays)
                for r in range(self.world):
                    lo = r * p.shard_numel
                    if lo >= n:
                        break
                    hi = min(n, lo + p.shard_numel)
                    dst[r, :hi - lo].copy_(flat[lo:hi])
                offset += p.shard_numel
                del flat, dst
            # the unsharded gradients go once copied in (foreach_reduce clears its list here)
            grads_dtypes = [(p, g.dtype) for p, g in grads]
            grads = g = None
            rs_output = _empty(total, reduce_dtype, device, "gradient")
            dist.reduce_scatter_tensor(rs_output, rs_input, op=dist.ReduceOp.AVG)
            del rs_input, by_rank
            offset = 0
            for p, _ in grads_dtypes:
                piece = rs_output[offset:offset + p.shard_numel].view((p.chunk_rows,) + p.full_shape[1:])[:p.rows]
                offset += p.shard_numel
                if piece.dtype != p.dtype:
                    piece = piece.to(p.dtype)
                if p.sharded.grad is None:
                    p.sharded.grad = piece
                else:
                    p.sharded.grad += piece
                del piece
            del rs_output


def _cast(obj, dtype):
    if isinstance(obj, torch.Tensor):
        return obj.to(dtype) if obj.is_floating_point() and obj.dtype != dtype else obj
    if isinstance(obj, (list, tuple)):
        return type(obj)(_cast(o, dtype) for o in obj)
    if isinstance(obj, dict):
        return {k: _cast(v, dtype) for k, v in obj.items()}
    return obj


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _tensors(obj):
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            yield from _tensors(o)
    elif isinstance(obj, dict):
        for o in obj.values():
            yield from _tensors(o)


def _managed(module):
    """Parameters of `module` and its submodules that no inner fully_shard already took: (owner, name, param).
    An explicit stack, not a recursive closure: the closure's cycle would keep the full parameters alive until
    the garbage collector ran, where PyTorch frees them as soon as they are replaced."""
    out = []
    stack = [module]
    while stack:
        m = stack.pop()
        for name, p in m._parameters.items():
            if p is not None:
                out.append((m, name, p))
        children = [c for c in m._modules.values() if c is not None and getattr(c, "_fsdp_group", None) is None]
        stack.extend(reversed(children))
    return out


def fully_shard(module, *, mesh=None, reshard_after_forward=True, shard_placement_fn=None, mp_policy=None,
                offload_policy=None, ignored_params=None):
    import torch.distributed as dist
    if not dist.is_initialized():
        raise ValueError("Default process group has not been initialized, please make sure to call "
                         "init_process_group.")
    if getattr(module, "_fsdp_group", None) is not None:
        return module
    world, rank = dist.get_world_size(), dist.get_rank()
    params = []
    seen = set()
    for owner, name, p in _managed(module):
        if id(p) in seen or (ignored_params and p in ignored_params):
            continue
        seen.add(id(p))
        fp = _Param(owner, name, p, world, rank)
        owner._parameters[name] = fp.sharded
        params.append(fp)
    group = _Group(module, params, world, rank, bool(reshard_after_forward), mp_policy)
    module._fsdp_group = group
    module.register_forward_pre_hook(group.pre_forward)
    module.register_forward_hook(group.post_forward)
    # The root is the outermost fully_shard'ed module: it keeps its parameters unsharded after forward.
    group.is_root = True
    for m in module.modules():
        inner = getattr(m, "_fsdp_group", None)
        if inner is not None and m is not module:
            inner.is_root = False
    return module

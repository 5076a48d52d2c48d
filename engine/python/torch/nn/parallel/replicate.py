# torch.nn.parallel.replicate: one shallow copy of the module tree per device, each holding copies of every
# parameter and buffer broadcast to its device (the first device's replica uses the originals' memory).
# Every broadcast is a recorded transfer named "<prefix><parameter name> -> cuda:<i>".
from . import _functions
from . import _naming as N
from . import comm

__all__ = ["replicate"]


def replicate(network, devices, detach=False):
    return _replicate(network, devices, detach, prefix="")


def _replicate(network, devices, detach, prefix):
    if not devices:
        return []
    devices = [N.device_index(x) for x in devices]
    num_replicas = len(devices)

    named_params = list(network.named_parameters())
    params = [p for _, p in named_params]
    param_names = [prefix + n for n, _ in named_params]
    param_indices = {id(p): i for i, p in enumerate(params)}
    if detach:
        param_copies = comm.broadcast_coalesced(params, devices, names=param_names)
    else:
        param_copies = _functions.broadcast(devices, params, param_names) if params else []

    # buffers that require grad get autograd copies; the others (running stats, ...) plain ones
    named_buffers = list(network.named_buffers())
    rg = [(prefix + n, b) for n, b in named_buffers if b.requires_grad and not detach]
    not_rg = [(prefix + n, b) for n, b in named_buffers if not (b.requires_grad and not detach)]
    copies_rg = _functions.broadcast(devices, [b for _, b in rg], [n for n, _ in rg]) if rg else []
    copies_not_rg = comm.broadcast_coalesced([b for _, b in not_rg], devices, names=[n for n, _ in not_rg])
    buffer_index = {}
    for group, copies in ((rg, copies_rg), (not_rg, copies_not_rg)):
        for i, (name, b) in enumerate(group):
            buffer_index[id(b)] = (copies, i, name)

    modules = list(network.modules())
    module_copies = [[] for _ in devices]
    module_indices = {}
    for i, module in enumerate(modules):
        module_indices[id(module)] = i
        for j in range(num_replicas):
            replica = module._replicate_for_data_parallel()
            replica._former_parameters = {}
            module_copies[j].append(replica)

    for i, module in enumerate(modules):
        for key, child in module._modules.items():
            for j in range(num_replicas):
                replica = module_copies[j][i]
                if child is None:
                    replica._modules[key] = None
                else:
                    setattr(replica, key, module_copies[j][module_indices[id(child)]])
        for key, param in module._parameters.items():
            for j in range(num_replicas):
                replica = module_copies[j][i]
                if param is None:
                    replica._parameters[key] = None
                    continue
                idx = param_indices[id(param)]
                copy = param_copies[j][idx]
                setattr(replica, key, copy)  # a plain attribute on the replica, as in PyTorch
                replica._former_parameters[key] = copy
                _tag_copy(copy, param, "parameter", param_names[idx], devices[j])
        for key, buf in module._buffers.items():
            for j in range(num_replicas):
                replica = module_copies[j][i]
                if buf is None:
                    replica._buffers[key] = None
                    continue
                copies, idx, name = buffer_index[id(buf)]
                copy = copies[j][idx]
                setattr(replica, key, copy)
                _tag_copy(copy, buf, "buffer", name, devices[j])
    return [module_copies[j][0] for j in range(num_replicas)]


def _tag_copy(copy, original, role, name, device):
    """Names a replica's own memory; the copy that shares the original's storage keeps the original's name."""
    if copy.data_ptr() != original.data_ptr():
        N.tag(copy, role, f"{name} -> {N.cuda(device)}")

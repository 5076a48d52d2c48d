# The differentiable communication of nn.parallel, as PyTorch's autograd Functions do it: Broadcast (backward:
# the gradients of all replicas summed onto the source device), Scatter (backward: gather) and Gather
# (backward: scatter). Each node shows as <BroadcastBackward>, <ScatterBackward>, <GatherBackward>; every
# copy, forward or backward, is a recorded transfer named after what it carries.
import warnings

import torch
from ...autograd import graph
from . import _naming as N
from . import comm


def _tracked(tensors):
    return torch.is_grad_enabled() and any(t.requires_grad for t in tensors)


def broadcast(devices, tensors, names):
    """Per device, the copies of `tensors` there; gradients flow back to the originals."""
    devices = [N.device_index(d) for d in devices]
    # detached aliases in: on the first device the "copy" is that alias (no memory), a tensor of its own to
    # hang the node on, as PyTorch's Broadcast returns the inputs themselves for it
    copies = comm.broadcast_coalesced([t.detach() for t in tensors], devices, names=names)
    wanted = [i for i, t in enumerate(tensors) if t.requires_grad]
    if not wanted or not _tracked(tensors):
        return copies
    source = [tensors[i].device for i in wanted]
    grad_names = [names[i] + ".grad" for i in wanted]
    n = len(wanted)

    def backward(grads):
        # grads: device-major, n per device; sum each tensor's replicas' gradients on its own device
        out = []
        for k in range(n):
            parts = [grads[d * n + k] for d in range(len(devices)) if grads[d * n + k] is not None]
            total = None
            for g in parts:
                moved = N.copy_to(g, N.device_index(source[k], allow_cpu=True), grad_names[k])
                total = moved if total is None else total + moved
            out.append(total)
        return out

    outputs = [copies[d][i] for d in range(len(devices)) for i in wanted]
    graph.attach("BroadcastBackward", outputs, [tensors[i] for i in wanted], backward, saved=[])
    return copies


def scatter(target_gpus, chunk_sizes, dim, input, name):
    """Chunks of `input` along dim on each target device; backward gathers the gradient back."""
    outputs = comm.scatter(input.detach(), target_gpus, chunk_sizes, dim, name=name)
    if not _tracked([input]):
        return outputs
    shapes = [tuple(o.shape) for o in outputs]
    source = N.device_index(input.device, allow_cpu=True)

    def backward(grads):
        parts = [g if g is not None else torch.zeros(s, dtype=input.dtype, device=o_dev)
                 for g, s, o_dev in zip(grads, shapes, [o.device for o in outputs])]
        return [comm.gather(parts, dim, source, name=name + ".grad")]

    graph.attach("ScatterBackward", list(outputs), [input], backward, saved=[])
    return outputs


def gather(target_device, dim, inputs, name="output"):
    """Concatenation of the replicas' outputs on target_device; backward scatters the gradient back."""
    target = N.device_index(target_device, allow_cpu=True) if target_device != "cpu" else -1
    if all(t.dim() == 0 for t in inputs) and dim == 0:
        warnings.warn("Was asked to gather along dimension 0, but all input tensors were scalars; will instead "
                      "unsqueeze and return a vector.")
        inputs = tuple(t.unsqueeze(0) for t in inputs)
    with torch.no_grad():
        output = comm.gather([t.detach() for t in inputs], dim, target, name=name)
    if not _tracked(inputs):
        return output
    sizes = [t.size(dim) for t in inputs]
    devices = [N.device_index(t.device, allow_cpu=True) for t in inputs]

    def backward(grads):
        g = grads[0]
        if g is None:
            return [None] * len(sizes)
        return list(comm.scatter(g, devices, sizes, dim, name=name + ".grad"))

    graph.attach("GatherBackward", [output], list(inputs), backward, saved=[])
    return output

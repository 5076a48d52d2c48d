# torch.autograd: backward(), grad(), grad modes and custom Functions over the numpy-backed ops.
from . import grad_mode
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled)  # noqa: F401
from . import graph
from .function import Function, FunctionCtx  # noqa: F401
from .gradcheck import gradcheck, GradcheckError  # noqa: F401


def _tensor_cls():
    from .._tensor import Tensor
    return Tensor


_lazy = []  # (numpy, torch._factories, torch._ops._core), imported on first use (they import this package)


def _make_grads(outputs, grad_outputs):
    if not _lazy:
        import numpy
        from .. import _factories
        from .._ops import _core
        _lazy.extend((numpy, _factories, _core))
    np, _factories, C = _lazy  # (a relative import in the body costs ~2 us a call: every backward() runs this)
    out = []
    for i, (t, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None:
            if t._grad_fn is None and not t._requires_grad:
                out.append((None, False))
                continue
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            dt = t.dtype
            if not dt.is_floating_point:
                raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                                   f"{dt}")
            if not t._impl.sizes and not t._impl.is_virtual:
                # ones_like of a 0-dim output (every loss.backward()): the same one-element block with the same
                # value, without ones_like's layout and fill steps (a third of a small backward's engine time)
                out.append((C.make(np.ones((), dtype=dt._np), dt, C.device_of(t)), True))
            else:
                out.append((_factories.ones_like(t), True))
        else:
            if not isinstance(g, _tensor_cls()):
                raise TypeError("gradients can be either Tensors or None, but got " + type(g).__name__)
            if tuple(g.shape) != tuple(t.shape):
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                                   f"output[{i}] has a shape of {t.shape}.")
            out.append((g, False))
    return out


def _as_tuple(x):
    if x is None:
        return None
    if isinstance(x, _tensor_cls()):
        return (x,)
    return tuple(x)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(f"got {len(grad_tensors)} tensors and {len(tensors)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    roots = []
    for i, t in enumerate(tensors):
        if t._grad_fn is None and not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        roots.append(graph.edge_of(t))
    grads = _make_grads(tensors, grad_tensors)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        capture = {graph.edge_of(x): None for x in inputs}
        graph.execute(roots, grads, retain_graph, create_graph, capture=capture, accumulate=False)
        for x in inputs:
            g = capture.get(graph.edge_of(x))
            if g is not None:
                graph._accumulate(x, g, False, create_graph)
        return
    graph.execute(roots, grads, retain_graph, create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    outputs = _as_tuple(outputs)
    is_single = isinstance(inputs, _tensor_cls())
    inputs = _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    roots = []
    for i, t in enumerate(outputs):
        if t._grad_fn is None and not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        roots.append(graph.edge_of(t))
    for i, x in enumerate(inputs):
        if x._grad_fn is None and not x._requires_grad:
            raise RuntimeError(f"One of the differentiated Tensors does not require grad")
    capture = {graph.edge_of(x): None for x in inputs}
    graph.execute(roots, _make_grads(outputs, grad_outputs), retain_graph, create_graph, capture=capture,
                  accumulate=False)
    result = []
    for x in inputs:
        g = capture.get(graph.edge_of(x))
        if g is None:
            if not (allow_unused or materialize_grads):
                raise RuntimeError("One of the differentiated Tensors appears to not have been used in the graph. "
                                   "Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                from .. import _factories
                g = _factories.zeros_like(x)
        elif not create_graph:
            g = g.detach()
        result.append(g)
    return tuple(result)


class Variable:
    """torch.autograd.Variable(t) returns t (Variables and Tensors merged in PyTorch 0.4)."""

    def __new__(cls, data, requires_grad=False, volatile=False):
        if requires_grad:
            data.requires_grad_(True)
        return data


class detect_anomaly:
    """Accepted for compatibility; DeviceScope's autograd has no anomaly mode."""

    def __init__(self, check_nan=True):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, func):
        return func


class set_detect_anomaly(detect_anomaly):
    def __init__(self, mode, check_nan=True):
        pass

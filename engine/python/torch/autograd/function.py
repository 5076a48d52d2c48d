# torch.autograd.Function: user-defined forward/backward pairs (ctx.save_for_backward, apply()).
from . import grad_mode, graph


class FunctionCtx:
    def __init__(self):
        self.saved_tensors = ()
        self.needs_input_grad = ()
        self.materialize_grads = True
        self._non_differentiable = set()
        self._dirty = set()

    def save_for_backward(self, *tensors):
        self.saved_tensors = tuple(tensors)

    def save_for_forward(self, *tensors):
        pass

    def mark_dirty(self, *tensors):
        self._dirty = {id(t) for t in tensors}

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = {id(t) for t in tensors}

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


BackwardCFunction = FunctionCtx


class _FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_name = name + "Backward"


class Function(metaclass=_FunctionMeta):
    def __init__(self, *args, **kwargs):
        pass

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def setup_context(ctx, inputs, output):
        return None

    @classmethod
    def apply(cls, *args, **kwargs):
        from .._tensor import Tensor
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        with grad_mode.no_grad():
            out = cls.forward(ctx, *args, **kwargs)
        if not (grad_mode.is_grad_enabled() and any(ctx.needs_input_grad)):
            return out
        single = not isinstance(out, tuple)
        outs = (out,) if single else out
        tensor_outs = [o if isinstance(o, Tensor) and id(o) not in ctx._non_differentiable
                       and o.dtype.is_floating_point else None for o in outs]
        tensor_outs = [o if o is None or not any(o is a for a in args) else o.view_as(o) for o in tensor_outs]
        inputs = [a if isinstance(a, Tensor) else None for a in args]
        # Outputs saved in ctx would point back at their node: keep aliases without history instead.
        ctx.saved_tensors = tuple(t._detached_alias() if isinstance(t, Tensor) and any(t is o for o in outs)
                                  else t for t in ctx.saved_tensors)

        # Only metadata of the outputs in the closure: the outputs point at this node (no cycles).
        out_meta = [None if o is None else (tuple(o.shape), o.dtype, o.device) for o in tensor_outs]
        nargs = len(args)  # nor the inputs: only ctx's saved tensors may stay alive with the graph

        def fn(grads):
            if ctx.materialize_grads:
                from .. import _factories
                grads = [g if g is not None or m is None else _factories.zeros(m[0], dtype=m[1], device=m[2])
                         for g, m in zip(grads, out_meta)]
            r = cls.backward(ctx, *grads)
            if not isinstance(r, tuple):
                r = (r,)
            if len(r) < nargs:
                raise RuntimeError(f"function {cls._backward_name} returned an incorrect number of gradients "
                                   f"(expected {nargs}, got {len(r)})")
            return list(r[:nargs])

        # ctx's saved tensors are the node's SavedVariables: version-checked, freed by a backward without
        # retain_graph (with ctx), and what makes a second backward through this node raise
        saved = [t for t in ctx.saved_tensors if isinstance(t, Tensor)]
        graph.attach(cls._backward_name, [o for o in tensor_outs], inputs, fn, saved=saved or None)
        if single:
            return tensor_outs[0] if tensor_outs[0] is not None else out
        return tuple(t if t is not None else o for t, o in zip(tensor_outs, outs))


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        self.inplace = inplace


class NestedIOFunction(Function):
    pass


def once_differentiable(fn):
    return fn

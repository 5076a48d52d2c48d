# The C++ fast path of the elementwise ops (engine/python/bindings_ops.cpp), installed in front of the
# Python implementations: `a + b`, `a.add_(b, alpha=...)`, `a += b`, `-x`, `x.relu()`, `torch.relu(x)`,
# `torch.add(a, b)`, `a == b`, `x < 0` ... run in C++ when the operands are plain dense tensors
# (float32/float64/int64/int32/bool, same dtype after promotion) or Python numbers. While autograd records,
# out-of-place add/sub/mul/div/relu/neg (and tanh/sigmoid/exp of float32) still compute in C++ and torch/_ops/fast_grad.py gives the result the
# Python path's node (in-place add_/sub_ of a tensor that is not a view too: fast_grad rebases its history). Every
# other call - other in-place ops under autograd, out=, rounding_mode=, casts,
# non-contiguous or overlapping operands, virtual tensors, real CUDA memory, any argument PyTorch would
# reject - reaches the Python implementation each entry wraps unchanged (same arguments), which stays the
# reference for semantics and error messages.
#
# Hook for the op registry: an op's Python implementation `fn(self, other, ...)` gets the fast path with
#   _E.fast_binary(kind, reflected, inplace, fn, as_method)  (kind: add|sub|mul|div|eq|ne|lt|le|gt|ge)
#   _E.fast_unary(kind, inplace, fn, as_method)              (kind: relu|neg|tanh|sigmoid|exp|abs|sqrt)
#   _E.fast_matmul(fn, as_method)                            (2-D @ 2-D float32/float64 through the BLAS)
#   _E.fast_sum(fn, as_method)                               (x.sum() of a whole float32/float64 tensor)
#   _E.fast_view(kind, fn, as_method)  (kind: view|reshape|t|transpose|unsqueeze|squeeze|permute|select|narrow (no
#                                       autograd); bindings_views.cpp:
#                                       the alias, its Tensor and _base in one call, the node from shape.py)
#   _E.fast_join(kind, fn)             (kind: cat|stack, torch.* only; bindings_join.cpp: one dtype, one device,
#                                       the node from join.py)
# as_method=True returns a descriptor to assign on Tensor (binds self), False a plain callable for torch.*.
import os
import sys

import _devicescope_C as _E

from . import _blas_workspace
from . import _default
from ._ops import fast_grad
from ._ops import join as _join
from ._ops import shape as _shape
from ._tensor import Tensor
from .autograd import grad_mode

_E._fast_ops_setup(Tensor, grad_mode._enabled, _default._state)
_E._fast_blas_hook(_blas_workspace.gemm_at)  # the fast matmul is a cuBLAS call on a GPU: its workspace
_E._fast_grad_hook(fast_grad.record)  # the node of a result the fast path computed while autograd records
_E._fast_entries_setup(Tensor, grad_mode._enabled)  # (what the view and join entries share: fast_entry.cpp)
_E._fast_views_setup(_shape._fast_view_node)  # the view ops' node, likewise
_E._fast_join_setup(_join._fast_join_node)  # cat's and stack's

# Tensor attribute -> (kind, reflected, inplace)
_BINARY_METHODS = {
    "__add__": ("add", False, False), "__radd__": ("add", True, False), "__iadd__": ("add", False, True),
    "add": ("add", False, False), "add_": ("add", False, True),
    "__sub__": ("sub", False, False), "__rsub__": ("sub", True, False), "__isub__": ("sub", False, True),
    "sub": ("sub", False, False), "sub_": ("sub", False, True),
    "__mul__": ("mul", False, False), "__rmul__": ("mul", True, False), "__imul__": ("mul", False, True),
    "mul": ("mul", False, False), "mul_": ("mul", False, True),
    "__truediv__": ("div", False, False), "__itruediv__": ("div", False, True),
    "div": ("div", False, False), "div_": ("div", False, True),
    "__eq__": ("eq", False, False), "__ne__": ("ne", False, False), "__lt__": ("lt", False, False),
    "__le__": ("le", False, False), "__gt__": ("gt", False, False), "__ge__": ("ge", False, False),
    "eq": ("eq", False, False), "ne": ("ne", False, False), "lt": ("lt", False, False),
    "le": ("le", False, False), "gt": ("gt", False, False), "ge": ("ge", False, False),
}
_UNARY_METHODS = {"__neg__": ("neg", False), "neg": ("neg", False), "neg_": ("neg", True),
                  "relu": ("relu", False), "relu_": ("relu", True),
                  "tanh": ("tanh", False), "sigmoid": ("sigmoid", False), "exp": ("exp", False),
                  "abs": ("abs", False), "sqrt": ("sqrt", False)}
# torch.<name> -> kind (out-of-place functions: torch.add(a, b, alpha=2) is a.add(b, alpha=2))
_BINARY_FUNCTIONS = {"add": "add", "sub": "sub", "subtract": "sub", "mul": "mul", "multiply": "mul",
                     "div": "div", "divide": "div", "true_divide": "div"}
_UNARY_FUNCTIONS = {"relu": "relu", "neg": "neg", "negative": "neg", "tanh": "tanh", "sigmoid": "sigmoid",
                    "exp": "exp", "abs": "abs", "sqrt": "sqrt"}
_SUM = "sum"  # x.sum() / torch.sum(x) with no other argument (a whole float tensor)
_POW = "pow"  # x ** 2 / x.pow(3) / torch.pow(x, 2.0) of a float tensor
_MATMUL_METHODS = ("__matmul__", "matmul", "mm")
_MATMUL_FUNCTIONS = ("matmul", "mm")
# Tensor attribute / torch.<name> -> view kind (reshape takes the fast path only when it makes a view)
_VIEW_METHODS = {"view": "view", "reshape": "reshape", "t": "t", "transpose": "transpose", "swapaxes": "transpose",
                 "swapdims": "transpose", "unsqueeze": "unsqueeze", "permute": "permute", "squeeze": "squeeze",
                 "select": "select", "narrow": "narrow", "__getitem__": "getitem"}
_VIEW_FUNCTIONS = {"reshape": "reshape", "t": "t", "transpose": "transpose", "swapaxes": "transpose",
                   "swapdims": "transpose", "unsqueeze": "unsqueeze", "permute": "permute", "squeeze": "squeeze",
                   "select": "select", "narrow": "narrow"}
_SHAPE_MODULE_VIEWS = ("view", "reshape", "t", "transpose", "unsqueeze", "permute", "squeeze")
_JOIN_FUNCTIONS = {"cat": "cat", "concat": "cat", "concatenate": "cat", "stack": "stack"}


def install():
    """Puts the fast entries in front of Tensor's methods and the torch.* functions (idempotent: an entry
    already installed is not wrapped twice). DEVICESCOPE_NO_FAST_OPS=1 leaves the Python path alone (to
    compare the two in one build: tests/bench/bench_python_ops.cpp --no-fast-ops)."""
    if os.environ.get("DEVICESCOPE_NO_FAST_OPS") == "1":
        return
    torch_module = sys.modules[__package__]
    for name, (kind, reflected, inplace) in _BINARY_METHODS.items():
        _install(Tensor, name, lambda fn: _E.fast_binary(kind, reflected, inplace, fn, True))
    for name, (kind, inplace) in _UNARY_METHODS.items():
        _install(Tensor, name, lambda fn: _E.fast_unary(kind, inplace, fn, True))
    for name, kind in _BINARY_FUNCTIONS.items():
        _install(torch_module, name, lambda fn: _E.fast_binary(kind, False, False, fn, False))
    for name, kind in _UNARY_FUNCTIONS.items():
        _install(torch_module, name, lambda fn: _E.fast_unary(kind, False, fn, False))
    _install(Tensor, _SUM, lambda fn: _E.fast_sum(fn, True))
    _install(torch_module, _SUM, lambda fn: _E.fast_sum(fn, False))
    _install(Tensor, "__pow__", lambda fn: _E.fast_pow(fn, True))
    _install(Tensor, _POW, lambda fn: _E.fast_pow(fn, True))
    _install(torch_module, _POW, lambda fn: _E.fast_pow(fn, False))
    for name in _MATMUL_METHODS:
        _install(Tensor, name, lambda fn: _E.fast_matmul(fn, True))
    for name in _MATMUL_FUNCTIONS:
        _install(torch_module, name, lambda fn: _E.fast_matmul(fn, False))
    for name, kind in _VIEW_METHODS.items():
        _install(Tensor, name, lambda fn: _E.fast_view(kind, fn, True))
    for name, kind in _VIEW_FUNCTIONS.items():
        _install(torch_module, name, lambda fn: _E.fast_view(kind, fn, False))
    # shape.py's own names too: the ops' backwards and other ops call them as module globals (S.reshape,
    # reshape(g, old) in a view's backward); `from .shape import reshape` elsewhere keeps the Python function
    for name in _SHAPE_MODULE_VIEWS:
        _install(_shape, name, lambda fn: _E.fast_view(name, fn, False))
    for name, kind in _JOIN_FUNCTIONS.items():
        _install(torch_module, name, lambda fn: _E.fast_join(kind, fn))


_installed = set()


def _install(owner, name, make):
    current = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
    if current is None or id(current) in _installed:
        return
    entry = make(current)
    _installed.add(id(entry))
    setattr(owner, name, entry)

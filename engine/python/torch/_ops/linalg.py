# Matrix products: mm, addmm, bmm, baddbmm, matmul (dot/mv/mm/bmm dispatch like ATen), dot, mv, outer,
# einsum. Device checks name the offending argument the way c10's generated wrappers do (SEMANTICS §5).
import os

import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from ..autograd import grad_mode, graph
from .. import _blas_workspace as W
from . import _core as C
from .elementwise import scalar_name


def _same_dtype(n1, a, n2, b):
    da, db = C.dtype_of(a), C.dtype_of(b)
    if da is not db:
        raise RuntimeError(f"{n1} and {n2} must have the same dtype, but got {scalar_name(da)} and "
                           f"{scalar_name(db)}")


def _math(t):
    return C.values_of(t, C.compute_dtype(C.dtype_of(t)) if C.dtype_of(t).is_floating_point else np.int64)


def _sum_to(g, shape):
    """_reduce_to with differentiable ops (create_graph)."""
    shape = tuple(shape)
    while g.dim() > len(shape):
        g = g.sum(0)
    for i, n in enumerate(shape):
        if n == 1 and g.shape[i] != 1:
            g = g.sum(i, keepdim=True)
    return g.reshape(shape)


def _mm_grads_graph(g, a, b, a_shape, b_shape, need_a, need_b):
    """Gradients of a @ b (any ranks) as differentiable torch ops, for create_graph (grad mode on in
    backward): derivatives.yaml's grad @ b^T and a^T @ grad (grad * other for dot), so that a second
    backward reaches g and the saved operands."""
    if len(a_shape) == 1 and len(b_shape) == 1:
        return (g * b if need_a else None), (g * a if need_b else None)
    A_shape = (1,) + a_shape if len(a_shape) == 1 else a_shape
    B_shape = b_shape + (1,) if len(b_shape) == 1 else b_shape
    G = g.unsqueeze(-2) if len(a_shape) == 1 else g
    G = G.unsqueeze(-1) if len(b_shape) == 1 else G
    ga = _sum_to(G.matmul(b.reshape(B_shape).transpose(-1, -2)), A_shape).reshape(a_shape) if need_a else None
    gb = _sum_to(a.reshape(A_shape).transpose(-1, -2).matmul(G), B_shape).reshape(b_shape) if need_b else None
    return ga, gb


def _reduce_to(gv, shape):
    """Sum a broadcast numpy gradient back to `shape`."""
    shape = tuple(shape)
    while gv.ndim > len(shape):
        gv = gv.sum(axis=0)
    for i, n in enumerate(shape):
        if n == 1 and gv.shape[i] != 1:
            gv = gv.sum(axis=i, keepdims=True)
    return gv.reshape(shape)


_MM_NAMES = {"MmBackward0": ("self", "mat2"), "BmmBackward0": ("self", "mat2"), "MvBackward0": ("self", "vec"),
             "DotBackward0": ("self", "tensor")}


def _attach_mm(name, out, a, b):
    """Gradients of out = a @ b (numpy semantics, any ranks) on the inputs' devices.

    As PyTorch's mm/bmm/mv/dot, each operand is saved only when the other one needs a gradient (a's
    gradient is grad @ b^T, b's is a^T @ grad): the first Linear of a model keeps its input, not its
    weight's transpose; an operand that is not saved is not held by the node."""
    if not (C.dtype_of(out).is_floating_point and C.needs_grad(a, b)):
        return out
    need_a, need_b = C.needs_grad(a), C.needs_grad(b)
    sa, sb = (a if need_b else None), (b if need_a else None)
    a_shape, b_shape = tuple(a._impl.sizes), tuple(b._impl.sizes)
    a_meta, b_meta = (C.dtype_of(a), C.device_of(a)), (C.dtype_of(b), C.device_of(b))
    gdt = C.compute_dtype(C.dtype_of(out))
    A_shape = (1,) + a_shape if len(a_shape) == 1 else a_shape
    a_col, b_col = _col_major(a), _col_major(b)
    B_shape = b_shape + (1,) if len(b_shape) == 1 else b_shape
    # Which gradients are BLAS calls (each one takes the backward thread's cuBLAS workspace, _blas_workspace.py):
    # derivatives.yaml's mm/bmm/matmul formulas are products; dot's (grad * other) and mv's self (grad.ger(vec),
    # an outer product) are pointwise.
    blas_a = need_a and name not in ("DotBackward0", "MvBackward0")
    blas_b = need_b and name != "DotBackward0"
    n_out = B_shape[-1]
    rows = out._impl.numel // n_out if n_out else 0  # rows of out, batches folded in

    def fn(gs):
        if grad_mode._enabled[0]:
            return _mm_grads_graph(gs[0], sa, sb, a_shape, b_shape, need_a, need_b)
        if len(a_shape) == 2 and len(b_shape) == 2 and not gs[0]._impl.is_virtual:
            # mm: the products as C++ BLAS calls (bindings_fast_grad.cpp), as AddmmBackward0's, when they apply
            fast = _addmm_backward_fast(gs[0], sa, sb, need_a, need_b, a_col, b_col,
                                        (a_meta[1], rows, a_shape[1], n_out), (b_meta[1], b_shape[0], n_out, rows),
                                        bias=False)
            if fast is not None:
                return fast[1:]
        gv = C.read(gs[0]).astype(gdt)
        av = _math(sa) if need_b else None
        bv = _math(sb) if need_a else None
        ga = gb = None
        if len(a_shape) == 2 and len(b_shape) == 2 and (a_col or b_col):
            # mm with a column-major operand: its gradient in its own layout (see _col_major)
            if need_a:
                ga = _transposed_grad(bv @ gv.T, a_meta) if a_col else C.make(gv @ bv.T, *a_meta)
                W.gemm(a_meta[1], rows, a_shape[1], n_out)
            if need_b:
                gb = _transposed_grad(gv.T @ av, b_meta) if b_col else C.make(av.T @ gv, *b_meta)
                W.gemm(b_meta[1], b_shape[0], n_out, rows)
            return ga, gb
        if len(a_shape) == 1 and len(b_shape) == 1:
            ga = gv * bv if need_a else None
            gb = gv * av if need_b else None
        else:
            G = gv
            if len(a_shape) == 1:
                G = np.expand_dims(G, -2)
            if len(b_shape) == 1:
                G = np.expand_dims(G, -1)
            if need_a:
                ga = _reduce_to(G @ np.swapaxes(bv.reshape(B_shape), -1, -2), A_shape).reshape(a_shape)
            if need_b:
                gb = _reduce_to(np.swapaxes(av.reshape(A_shape), -1, -2) @ G, B_shape).reshape(b_shape)
        if ga is not None:
            ga = C.make(ga, *a_meta)
            if blas_a:
                W.gemm(a_meta[1], ga._impl.numel, 1, n_out)
        if gb is not None:
            gb = C.make(gb, *b_meta)
            if blas_b:
                W.gemm(b_meta[1], gb._impl.numel, 1, rows)
        return ga, gb
    names = _MM_NAMES.get(name)
    if names is None:
        # matmul's folded forms (UnsafeViewBackward0, SqueezeBackward1): PyTorch saves these operands in
        # the inner mm node, so they are held but not exposed here
        saved = [sa, sb]
    else:
        saved = {names[0]: sa, names[1]: sb}
        if name == "MmBackward0":
            # an operand's strides are kept only when it needs a gradient (PyTorch shows () otherwise)
            saved.update({"mat2_sym_sizes": b_shape, "mat2_sym_strides": tuple(b._impl.strides) if need_b else (),
                          "self_sym_sizes": a_shape, "self_sym_strides": tuple(a._impl.strides) if need_a else ()})
    graph.attach(name, [out], [a, b], fn, saved=saved)
    return out


def _shape_str(t):
    return "x".join(str(s) for s in t._impl.sizes)


def mm(a, b, out=None):
    dev = C.check_same_device("mm", [("self", a), ("mat2", b)])
    if a._impl.dim != 2:
        raise RuntimeError("self must be a matrix")
    if b._impl.dim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._impl.sizes[1] != b._impl.sizes[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shape_str(a)} and {_shape_str(b)})")
    _same_dtype("self", a, "mat2", b)
    # the C++ BLAS call (bindings_fast_grad.cpp; the one `a @ b` makes without autograd) where it applies, else numpy
    fast = None if (a._impl.is_virtual or b._impl.is_virtual) else _E.nn_mm(a._impl, b._impl, False, False)
    r = C.wrap(fast) if fast is not None else C.make(_math(a) @ _math(b), C.dtype_of(a), dev)
    W.gemm(dev, a._impl.sizes[0], b._impl.sizes[1], a._impl.sizes[1])
    r = _attach_mm("MmBackward0", r, a, b)
    return out.copy_(r) if out is not None else r


def _scaled(v, alpha):
    return v if alpha == 1 else v * alpha


def _col_major(t):
    """PyTorch's test in mm_mat1/mat2_backward: a 2-D operand stored column-major (a transposed contiguous
    matrix, like nn.Linear's weight.t()) gets its gradient computed transposed, in its own layout, so the
    weight's .grad comes out contiguous."""
    sizes, strides = t._impl.sizes, t._impl.strides
    return len(sizes) == 2 and strides[0] == 1 and strides[1] == sizes[0]


def _transposed_grad(values_t, meta):
    """A gradient computed as its transpose (row-major values_t), returned as the transposed view."""
    from . import shape as S
    return S.t(C.make(values_t, *meta))


def _addmm_py(input, mat1, mat2, *, beta=1, alpha=1, out=None):  # noqa: A002
    """torch.addmm in Python: the reference path (DEVICESCOPE_PY_LINALG=1) and what the C++ entry falls back to
    for anything but its plain case (see addmm below)."""
    # nn.Linear's case first: the C++ kernel (bindings_fast_grad.cpp) for beta = alpha = 1 and a bias or full-size
    # input. It returns None unless the operands are what the checks below accept (2-D float matrices of one dtype
    # on one device, k matching, input [n] or [m, n] of that dtype and device), so when it ran they would pass.
    fast = None
    if (beta == 1 and alpha == 1 and isinstance(input, C.Tensor) and isinstance(mat1, C.Tensor)
            and isinstance(mat2, C.Tensor) and not (input._impl.is_virtual or mat1._impl.is_virtual
                                                    or mat2._impl.is_virtual)):
        fast = _E.nn_addmm(input._impl, mat1._impl, mat2._impl)
    if fast is not None:
        r = C.wrap(fast)
        dev = C.device_of(mat1)
    else:
        r, dev = _addmm_checked(input, mat1, mat2, beta, alpha)
    W.addmm(dev, input, mat1, mat2, beta)
    if C.needs_grad(input, mat1, mat2) and C.dtype_of(r).is_floating_point:
        _attach_addmm(r, input, mat1, mat2, beta, alpha)
    return out.copy_(r) if out is not None else r


def _addmm_checked(input, mat1, mat2, beta, alpha):  # noqa: A002
    """addmm's result with PyTorch's argument checks, through numpy (or the C++ kernel for beta = alpha = 1)."""
    dev = C.check_same_device("addmm", [("self", input), ("mat1", mat1), ("mat2", mat2)])
    if mat1._impl.dim != 2:
        raise RuntimeError("mat1 must be a matrix, got " + str(mat1._impl.dim) + "-D tensor")
    if mat2._impl.dim != 2:
        raise RuntimeError("mat2 must be a matrix, got " + str(mat2._impl.dim) + "-D tensor")
    if mat1._impl.sizes[1] != mat2._impl.sizes[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shape_str(mat1)} and {_shape_str(mat2)})")
    _same_dtype("mat1", mat1, "mat2", mat2)
    _same_dtype("self", input, "mat2", mat2)
    shape = (mat1._impl.sizes[0], mat2._impl.sizes[1])
    try:
        C.broadcast_shapes(C.shape_of(input), shape)
    except RuntimeError:
        raise RuntimeError(f"The expanded size of the tensor ({shape[1]}) must match the existing size "
                           f"({input._impl.sizes[-1]}) at non-singleton dimension 1.  Target sizes: "
                           f"[{shape[0]}, {shape[1]}].  Tensor sizes: {list(input._impl.sizes)}") from None
    # The C++ kernel (bindings_fast_grad.cpp) for nn.Linear's case: beta = alpha = 1, a bias or full-size input
    plain = beta == 1 and alpha == 1 and not (input._impl.is_virtual or mat1._impl.is_virtual
                                             or mat2._impl.is_virtual)
    fast = _E.nn_addmm(input._impl, mat1._impl, mat2._impl) if plain else None
    if fast is not None:
        return C.wrap(fast), dev
    iv, av, bv = _math(input), _math(mat1), _math(mat2)
    prod = av @ bv
    res = (beta * iv if beta != 1 else iv) + (alpha * prod if alpha != 1 else prod) if beta != 0 else alpha * prod
    return C.make(np.broadcast_to(res, shape), C.dtype_of(mat1), dev), dev


def _attach_addmm(r, input, mat1, mat2, beta, alpha):  # noqa: A002
    """AddmmBackward0 on addmm's result r."""
    plain = beta == 1 and alpha == 1 and not (input._impl.is_virtual or mat1._impl.is_virtual
                                             or mat2._impl.is_virtual)
    # PyTorch's addmm saves mat1 only when mat2 needs a gradient and mat2 only when mat1 does; never
    # `input` (its gradient is grad * beta), so a bias-like input is not held for backward.
    need_a, need_b = C.needs_grad(mat1), C.needs_grad(mat2)
    s1, s2 = (mat1 if need_b else None), (mat2 if need_a else None)
    i_shape, i_meta = tuple(input._impl.sizes), (C.dtype_of(input), C.device_of(input))
    m1_meta, m2_meta = (C.dtype_of(mat1), C.device_of(mat1)), (C.dtype_of(mat2), C.device_of(mat2))
    m1_col, m2_col = _col_major(mat1), _col_major(mat2)
    m1_shape, m2_shape = tuple(mat1._impl.sizes), tuple(mat2._impl.sizes)

    def fn(gs):
        return _addmm_backward(gs, s1, s2, need_a, need_b, i_shape, i_meta, m1_meta, m2_meta, m1_col, m2_col,
                               m1_shape, m2_shape, beta, alpha, plain)
    graph.attach("AddmmBackward0", [r], [input, mat1, mat2], fn,
                 saved={"alpha": alpha, "beta": beta, "mat1": s1, "mat1_sym_sizes": tuple(mat1._impl.sizes),
                        "mat1_sym_strides": tuple(mat1._impl.strides) if need_a else (), "mat2": s2,
                        "mat2_sym_sizes": tuple(mat2._impl.sizes),
                        "mat2_sym_strides": tuple(mat2._impl.strides) if need_b else ()})


def _addmm_backward_ref(gs, s1, s2, need_a, need_b, i_shape, m1_shape, m2_shape, m1_col, m2_col, dtype_code,
                        device_key, plain):
    """The C++ AddmmBackward0's (bindings_linalg_fast.cpp) Python steps: under create_graph, and wherever its C++
    steps do not apply (plain False: they were tried already). Its forward ran only for beta = alpha = 1 and one
    dtype and device for all three operands."""
    meta = (D.BY_CODE[dtype_code], C.from_key(device_key))
    return _addmm_backward(gs, s1, s2, need_a, need_b, i_shape, meta, meta, meta, m1_col, m2_col, m1_shape,
                           m2_shape, 1, 1, plain)


def _addmm_backward(gs, s1, s2, need_a, need_b, i_shape, i_meta, m1_meta, m2_meta, m1_col, m2_col, m1_shape,
                    m2_shape, beta, alpha, plain):
    """AddmmBackward0's function: gradients of input, mat1 and mat2 from gs[0]."""
    if grad_mode._enabled[0]:  # create_graph: derivatives.yaml's addmm formulas as differentiable ops
        g = gs[0]
        gi = _sum_to(g * beta if beta != 1 else g, i_shape)
        ga = _scaled(g.matmul(s2.t()), alpha) if need_a else None
        gb = _scaled(s1.t().matmul(g), alpha) if need_b else None
        return (gi, ga, gb)
    if plain and len(i_shape) == 1 and not gs[0]._impl.is_virtual:
        fast = _addmm_backward_fast(gs[0], s1, s2, need_a, need_b, m1_col, m2_col,
                                    (m1_meta[1], m1_shape[0], m1_shape[1], m2_shape[1]),
                                    (m2_meta[1], m2_shape[0], m2_shape[1], m1_shape[0]))
        if fast is not None:
            return fast
    gr = C.read(gs[0])
    gi = _reduce_to(gr.astype(np.float64) * beta, i_shape)
    # The products in the operands' dtype (a float32 gemm, as PyTorch's mm_mat1/mat2_backward): a
    # float64 product of float32 operands costs a cast of each and a slower gemm, and rounds differently.
    gm = gr.astype(C.compute_dtype(m1_meta[0]), copy=False)
    ga = gb = None
    if need_a:
        ga = (_transposed_grad(_scaled(_math(s2) @ gm.T, alpha), m1_meta) if m1_col
              else C.make(_scaled(gm @ _math(s2).T, alpha), *m1_meta))
        W.gemm(m1_meta[1], m1_shape[0], m1_shape[1], m2_shape[1])  # mm_mat1_backward: grad @ mat2^T
    if need_b:
        gb = (_transposed_grad(_scaled(gm.T @ _math(s1), alpha), m2_meta) if m2_col
              else C.make(_scaled(_math(s1).T @ gm, alpha), *m2_meta))
        W.gemm(m2_meta[1], m2_shape[0], m2_shape[1], m1_shape[0])  # mm_mat2_backward: mat1^T @ grad
    return (C.make(gi, *i_meta), ga, gb)


def _blas_layout(impl):
    """bindings_ops.cpp gemm_layout: a 2-D operand the BLAS reads in place (row-major or its transpose)."""
    if impl.dim != 2:
        return False
    (r, c), (s0, s1) = impl.sizes, impl.strides
    return (((s1 == 1 or c == 1) and (r == 1 or s0 >= max(c, 1)))
            or ((s0 == 1 or r == 1) and (c == 1 or s1 >= max(r, 1))))


def _addmm_backward_fast(g, s1, s2, need_a, need_b, m1_col, m2_col, gemm_a, gemm_b, bias=True):
    """AddmmBackward0 for beta = alpha = 1 and a 1-D input, in C++ (bindings_fast_grad.cpp): mat1's gradient,
    mat2's (each computed transposed for a column-major operand, as the numpy path), then the input's (the
    gradient's column sums), allocated in that order as the numpy path allocates them. None when a kernel does
    not apply (checked before anything is allocated; the numpy path then runs instead). bias=False: MmBackward0's
    (no input gradient: None in its place)."""
    from . import shape as S
    gi_ = g._impl
    if gi_.dim != 2 or not gi_.is_contiguous or not all(
            x is None or (not x._impl.is_virtual and _blas_layout(x._impl)) for x in (s1, s2)):
        return None
    ga = gb = None
    if need_a:
        ga = _E.nn_mm(s2._impl, g._impl, False, True) if m1_col else _E.nn_mm(g._impl, s2._impl, False, True)
        if ga is None:
            return None
        W.gemm(*gemm_a)  # mm_mat1_backward's BLAS call (a GPU's workspace follows its result, as in numpy's path)
    if need_b:
        gb = _E.nn_mm(g._impl, s1._impl, True, False) if m2_col else _E.nn_mm(s1._impl, g._impl, True, False)
        if gb is None:
            return None
        W.gemm(*gemm_b)  # mm_mat2_backward's
    gi = _E.nn_sum_rows(g._impl) if bias else None
    if gi is None and bias:
        return None
    ga = None if ga is None else (S.t(C.wrap(ga)) if m1_col else C.wrap(ga))
    gb = None if gb is None else (S.t(C.wrap(gb)) if m2_col else C.wrap(gb))
    return (None if gi is None else C.wrap(gi), ga, gb)


def bmm(a, b, out=None):
    dev = C.check_same_device("bmm", [("self", a), ("mat2", b)])
    if a._impl.dim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b._impl.dim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    sa, sb = a._impl.sizes, b._impl.sizes
    if sb[0] != sa[0] or sb[1] != sa[2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{sa[0]}, {sa[2]}] "
                           f"but got: [{sb[0]}, {sb[1]}].")
    _same_dtype("self", a, "mat2", b)
    r = C.make(_math(a) @ _math(b), C.dtype_of(a), dev)
    W.gemm(dev, sa[0] * sa[1], sb[2], sa[2])
    r = _attach_mm("BmmBackward0", r, a, b)
    return out.copy_(r) if out is not None else r


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    p = bmm(batch1, batch2)
    return input * beta + p * alpha if beta != 0 else p * alpha


def dot(a, b):
    dev = C.check_same_device("_dot", [("self", a), ("tensor", b)])
    if a._impl.dim != 1 or b._impl.dim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a._impl.dim}D and {b._impl.dim}D tensors")
    if a._impl.sizes[0] != b._impl.sizes[0]:
        raise RuntimeError("inconsistent tensor size, expected tensor [" + str(a._impl.sizes[0]) + "] and src ["
                           + str(b._impl.sizes[0]) + "] to have the same number of elements, but got "
                           + str(a._impl.sizes[0]) + " and " + str(b._impl.sizes[0]) + " elements respectively")
    if C.dtype_of(a) is not C.dtype_of(b):
        raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                           f"{scalar_name(C.dtype_of(a))} and {scalar_name(C.dtype_of(b))}")
    r = C.make(C.as_array(_math(a) @ _math(b)), C.dtype_of(a), dev)
    W.dot(dev)
    return _attach_mm("DotBackward0", r, a, b)


inner = dot
vdot = dot


def mv(a, v):
    dev = C.check_same_device("_mv", [("self", a), ("vec", v)])
    if a._impl.dim != 2 or v._impl.dim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a._impl.dim}, {v._impl.dim}")
    if a._impl.sizes[1] != v._impl.sizes[0]:
        raise RuntimeError(f"size mismatch, got input ({a._impl.sizes[0]}), mat ({_shape_str(a)}), "
                           f"vec ({v._impl.sizes[0]})")
    r = C.make(_math(a) @ _math(v), C.dtype_of(a), dev)
    W.gemm(dev, a._impl.sizes[0], 1, a._impl.sizes[1])
    return _attach_mm("MvBackward0", r, a, v)


def matmul(a, b, out=None):
    if not isinstance(a, C.Tensor) or not isinstance(b, C.Tensor):
        raise TypeError(f"matmul(): argument 'other' (position 1) must be Tensor, not {type(b).__name__}")
    da, db = a._impl.dim, b._impl.dim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        r = dot(a, b)
    elif da == 2 and db == 1:
        r = mv(a, b)
    elif da == 2 and db == 2:
        r = mm(a, b)
    else:
        names = ("self", "mat2")
        dev = C.check_same_device("mm" if db <= 2 else "bmm", [(names[0], a), (names[1], b)])
        sa, sb = list(a._impl.sizes), list(b._impl.sizes)
        ka = sa[-1]
        kb = sb[0] if db == 1 else sb[-2]
        if ka != kb:
            if da == 1:
                raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{ka} and {kb}x{sb[-1]})")
            rows = 1
            for s in sa[:-1]:
                rows *= s
            if db == 1:
                raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{ka}), vec ({kb})")
            if db == 2:
                raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{ka} and {kb}x{sb[-1]})")
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{_batch(sa, sb)}, {ka}] but got: [{_batch(sa, sb)}, {kb}].")
        _same_dtype("self", a, "mat2", b) if C.dtype_of(a) is not C.dtype_of(b) else None
        if db == 2 and _should_fold(a, b):
            # ATen's _matmul_impl: the batch folds into one mm, t1.reshape(-1, k) (a copy, which mm then saves,
            # when a's leading dims do not fold into a view), and the result is _unsafe_view'ed back
            from .shape import reshape
            r = _unsafe_view(mm(reshape(a, (-1, ka)), b), tuple(sa[:-1]) + (sb[-1],))
            return out.copy_(r) if out is not None else r
        r = C.make(np.matmul(_math(a), _math(b)), C.dtype_of(a), dev)
        W.gemm(dev, r._impl.numel // (sb[-1] if db > 1 else 1), sb[-1] if db > 1 else 1, ka)
        name = "SqueezeBackward1" if da == 1 else ("BmmBackward0" if da == 3 and db == 3 and sa[0] == sb[0]
                                                     else "UnsafeViewBackward0")
        r = _attach_mm(name, r, a, b)
    return out.copy_(r) if out is not None else r


def _should_fold(a, b):
    """should_fold (LinearAlgebra.cpp) for a >= 3-d a times a matrix b: always when b wants a gradient (folding
    avoids a batch-sized gradient for b), else only when a's leading dims fold into a view."""
    if C.needs_grad(b) or a._impl.numel == 0:
        return True
    sizes, strides = a._impl.sizes, a._impl.strides
    return all(strides[i] == strides[i + 1] * sizes[i + 1] for i in range(len(sizes) - 2))


def _unsafe_view(x, shape):
    """at::_unsafe_view of a fresh contiguous result: a view whose node is UnsafeViewBackward0."""
    import _devicescope_C as _E
    from .shape import _contig, reshape
    out = C.wrap(_E.as_strided(x._impl, tuple(shape), tuple(_contig(shape)), 0))
    if C.needs_grad(x):
        old = tuple(x._impl.sizes)
        graph.attach("UnsafeViewBackward0", [out], [x], lambda gs: (reshape(gs[0], old),),
                     saved={"self_sym_sizes": old})
    return out


def _batch(sa, sb):
    n = 1
    for s in C.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2])):
        n *= s
    return n


def outer(a, b):
    return mul_outer(a, b)


def mul_outer(a, b):
    return a.reshape(-1, 1) * b.reshape(1, -1)


ger = outer


def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    tensors = list(operands)
    dev = C.elementwise_device(tensors)
    odt = C.result_type(*tensors)
    npd = C.compute_dtype(odt)
    vals = [C.values_of(t, npd) for t in tensors]
    eq = equation.replace(" ", "")
    res = np.einsum(eq, *vals, optimize=len(vals) > 2)
    r = C.make(C.as_array(res), odt, dev)
    if odt.is_floating_point and C.needs_grad(*tensors):
        lhs, _, out_spec = eq.partition("->")
        specs = lhs.split(",")
        if not _:
            letters = sorted(c for c in set(lhs.replace(",", "")) if lhs.replace(",", "").count(c) == 1)
            out_spec = "".join(letters)
        if any("." in s for s in specs):
            raise NotImplementedError("DeviceScope: einsum backward with '...' is not supported")

        def fn(gs):
            differentiable = grad_mode._enabled[0]  # create_graph: the same contractions as torch ops
            gv = gs[0] if differentiable else C.read(gs[0]).astype(np.float64)
            grads = []
            for i, t in enumerate(tensors):
                others = [s for j, s in enumerate(specs) if j != i]
                avail = set(out_spec).union(*others) if others else set(out_spec)
                target = "".join(c for c in specs[i] if c in avail)
                sub = ",".join([out_spec] + others) + "->" + "".join(dict.fromkeys(target))
                if differentiable:
                    grads.append(_einsum_grad_differentiable(sub, gv, [u for j, u in enumerate(tensors) if j != i],
                                                             specs[i], "".join(dict.fromkeys(target)), t))
                    continue
                gi = np.einsum(sub, gv, *[v for j, v in enumerate(vals) if j != i])
                full = np.empty(tuple(t._impl.sizes))
                # Broadcast over indices that were summed away inside operand i only.
                letters = "".join(dict.fromkeys(target))
                expand = [c for c in specs[i]]
                shaped = gi
                for k, c in enumerate(expand):
                    if c not in letters:
                        shaped = np.expand_dims(shaped, k)
                full = np.broadcast_to(shaped, full.shape)
                grads.append(C.make(full, C.dtype_of(t), C.device_of(t)))
            return grads
        graph.attach("ViewBackward0", [r], tensors, fn, saved=tensors)
    return r


def _einsum_grad_differentiable(sub, g, others, spec, letters, t):
    """One operand's einsum gradient built from torch ops (einsum, unsqueeze, expand), so that it has a graph
    of its own under create_graph."""
    gi = einsum(sub, g, *others)
    for k, c in enumerate(spec):
        if c not in letters:
            gi = gi.unsqueeze(k)
    gi = gi.expand(tuple(t._impl.sizes))
    return gi if gi.dtype is C.dtype_of(t) else gi.to(C.dtype_of(t))


# torch.addmm: the C++ entry (bindings_linalg_fast.cpp) for addmm(input, mat1, mat2) without keywords where the
# kernel applies (nn.Linear's and the RNN cells' case): the same kernel, the same cuBLAS/cuBLASLt workspace steps as
# _blas_workspace.addmm and the same AddmmBackward0 (saved values, and a backward that runs _addmm_backward_fast's
# steps in C++ and _addmm_backward_ref otherwise). Everything else reaches _addmm_py. DEVICESCOPE_PY_LINALG=1 (or
# DEVICESCOPE_NO_FAST_OPS=1) keeps the Python path; tests/fastpath/linalg_agreement.py compares the two.
if os.environ.get("DEVICESCOPE_PY_LINALG") == "1" or not C.FAST_KERNELS:
    addmm = _addmm_py
else:
    addmm = _E.fast_addmm(_addmm_py)
    _E._linalg_fast_setup(graph, _addmm_backward_ref, W.gemm_at, W._fast_lt_config, W.cublaslt_size,
                          _E.hide_python_frames)

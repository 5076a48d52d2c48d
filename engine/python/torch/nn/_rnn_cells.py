# One time step of an LSTM / GRU / simple RNN as ATen's CPU cells compute it (aten/src/ATen/native/RNN.cpp,
# LSTMCell / GRUCell / SimpleCell), with the same autograd nodes, saved tensors and allocations, but without
# going through the generic op dispatch for every one of the ~10 pointwise ops of a step: the values of the step
# are computed in one numpy pass after the hidden matmul, the result tensors are allocated in ATen's order and
# the nodes are attached directly. The backward functions (partials of _act_fn, _mul_fn, ...) compute each node's
# gradient in one kernel or with numpy (one allocation per gradient, as the ATen kernel); under create_graph they
# run the differentiable ops instead. The step kernels are bindings_rnn.cpp's; with them, a whole step - chunks,
# nodes and backward functions included - runs in bindings_rnn_graph.cpp / bindings_rnn_backward.cpp (the functions
# here statement for statement; DEVICESCOPE_PY_RNN=1 runs this module's path, the reference).
#
# LSTM:  gates = linear_hh(hx).add_(igates); i, f, g, o = gates.unsafe_chunk(4, 1)
#        i.sigmoid_(); f.sigmoid_(); g.tanh_(); o.sigmoid_(); cy = (f * cx).add_(i * g); hy = o * cy.tanh()
# GRU:   r, z, n from linear_hh(hx).unsafe_chunk(3, 1) and igates.unsafe_chunk(3, 1) (see gru_cell)
# RNN:   hy = tanh/relu(linear_hh(hx).add_(igates))
# Nodes: AddmmBackward0 (+TBackward0) of linear_hh, AddBackward0 (add_), UnsafeSplitBackward0,
# SigmoidBackward0 x3, TanhBackward0, MulBackward0 x3, AddBackward0 (add_), TanhBackward0: real torch 1.13's.
import os
import sys
from functools import partial as _partial

import numpy as np

import _devicescope_C as _E

from .. import _dtype as D
from .._device import from_key
from .._fp_quiet import fp_quiet
from .._virtual_values import VirtualValues
from .._ops import _core as C
from ..autograd import grad_mode, graph
from . import _functional_basic as FB

_HALF, _BF16 = 2, 3


class _NumpyOnly:
    """DEVICESCOPE_PY_RNN=1: every bindings_rnn.cpp kernel declines, so the numpy path runs: the reference that
    tests/tools/run_rnn_kernel_agreement.py compares the kernels with."""

    @staticmethod
    def rnn_lstm_gates(*args):
        return False

    @staticmethod
    def rnn_add_(*args):
        return False

    @staticmethod
    def _none(*args):
        return None

    rnn_gru = rnn_lstm_state = rnn_activation = rnn_act_grad = rnn_mul_grad = rnn_neg_grad = rnn_split_grad = _none


_K = _NumpyOnly if os.environ.get("DEVICESCOPE_PY_RNN") == "1" else _E  # the step kernels (bindings_rnn.cpp)


# ----------------------------------------------------------------------------- values
def _values(t, npd):
    """t's values in the compute dtype, or None for a virtual (shape-only) tensor."""
    if t._impl.is_virtual:
        return None
    v = C.read(t)
    return v if v.dtype == npd else v.astype(npd)


def _stored(v, dt):
    """v as the tensor of dtype dt stores it (half and bfloat16 round each op's result, as ATen does)."""
    code = dt._code
    if code == _HALF:
        return v.astype(np.float16).astype(np.float32)
    if code == _BF16:
        return C._bf16_to_f32(C._f32_to_bf16(v))
    return v


def _sigmoid(v):
    # in float64, then one rounding (PyTorch's float sigmoid is within 1 ulp); exp(-v) overflowing to inf for
    # very negative v gives the right 0
    return (1.0 / (1.0 + np.exp(-v.astype(np.float64)))).astype(v.dtype)


def _tanh(v):
    return np.tanh(v.astype(np.float64)).astype(v.dtype)


def _new(values, shape, dt, dev, virtual):
    """A fresh tensor (one allocation) holding values; shape-only when the step is virtual."""
    if virtual:
        return C.make(VirtualValues(tuple(shape), C.compute_dtype(dt)), dt, dev)
    return C.make(values, dt, dev)


def _clone(values, like, dt, dev, virt):
    """like.clone() holding values: empty_like's preserve_format keeps a dense layout (a one-row gate view's
    strides), anything else becomes contiguous."""
    from .._ops.layout import contiguous_strides, is_non_overlapping_and_dense
    impl = like._impl
    strides = tuple(impl.strides)
    if strides != contiguous_strides(impl.sizes) and is_non_overlapping_and_dense(impl.sizes, strides):
        return C.make_strided(VirtualValues(tuple(impl.sizes), C.compute_dtype(dt)) if virt else values, dt, dev,
                              strides)
    return _new(values, impl.sizes, dt, dev, virt)


def _write(t, values, virtual):
    if virtual:
        t._impl.bump_version()
    else:
        C.write(t, values)


def _chunks(t, n):
    """t.unsafe_chunk(n, 1): views without their own autograd node (the caller attaches one
    UnsafeSplitBackward0 for all of them)."""
    base = t._base if t._base is not None else t
    out = []
    for piece in _E.rnn_chunks(t._impl, n):  # bindings_rnn.cpp: the n views in one call
        v = C.wrap(piece)
        v._base = base
        out.append(v)
    return out


# ----------------------------------------------------------------------------- nodes
# The nodes are made directly (graph.Node with the fields graph.attach_edges fills): attach_edges's generic pass
# over outputs and saved values cost more than the whole step's arithmetic. What each node saves is PyTorch's.
_CLASS = {n: graph.node_class(n) for n in ("AddBackward0", "SubBackward0", "MulBackward0", "SigmoidBackward0",
                                           "TanhBackward0", "ReluBackward0", "UnsafeSplitBackward0")}
_Slot = graph._Slot
_ALPHA = {"alpha": 1}


def _node(name, outputs, edges, fn, names=None, saved=None):
    """A node `name` for outputs: names = its `_saved_<name>` attributes ({name: _Slot | value}), saved = the
    [(tensor, version, output index or None)] the engine checks for in-place changes before backward. An
    output given as None is one the C++ step already freed (nothing saved it): the node has it, no tensor
    points to it."""
    node = _CLASS[name](fn, edges, len(outputs))
    node._names = names
    node._saved = saved
    for i, o in enumerate(outputs):
        if o is not None:
            o._grad_fn = node
            o._output_nr = i
    hook = graph.attach_hook
    if hook is not None:
        hook(node)
    return node


def _any(edges):
    for e in edges:
        if e[0] is not None:
            return True
    return False


class _Like:
    """What a backward kernel needs of the tensor whose gradient it makes: shape, dtype, device, math dtype
    (taken in forward, so the closure holds no tensor PyTorch would not hold). Shared, never changed."""
    __slots__ = ("shape", "dt", "dev", "npd")

    def __init__(self, shape, dtype_code, device_key):
        self.shape = shape
        self.dt = D.BY_CODE[dtype_code]
        self.dev = from_key(device_key)
        self.npd = C.compute_dtype(self.dt)


_LIKES = {}


def _key(t, shape=None):
    """What _like needs of t (shape, dtype code, device key): a tuple, so that a node holds no tensor for it."""
    impl = t._impl
    return (shape or tuple(impl.sizes), impl.dtype_code, impl.device_key)


def _like_key(key):
    like = _LIKES.get(key)
    if like is None:
        if len(_LIKES) > 4096:  # (one entry per shape seen: packed batches shrink step by step)
            _LIKES.clear()
        like = _LIKES[key] = _Like(*key)
    return like


def _like(t, shape=None):
    return _like_key(_key(t, shape))


def _kernel(g, like, compute):
    """One ATen backward kernel: compute(gradient values) as one new tensor like `like`."""
    if g._impl.is_virtual:
        return C.make(VirtualValues(like.shape, like.npd), like.dt, like.dev)
    gv = C.read(g)
    if gv.dtype != like.npd:
        gv = gv.astype(like.npd)
    with fp_quiet():
        return C.make(compute(gv), like.dt, like.dev)


def _rv(t, npd):
    v = C.read(t)
    return v if v.dtype == npd else v.astype(npd)


_ACT_KIND = {"SigmoidBackward0": 0, "TanhBackward0": 1, "ReluBackward0": 2}


def _act_numpy(kind, r, npd):
    """The numpy formula of an activation's backward from its saved result r."""
    if kind == 0:
        def k(gv):
            rv = _rv(r, npd)
            return gv * (1 - rv) * rv          # sigmoid_backward: grad * (1 - y) * y
    elif kind == 1:
        def k(gv):
            rv = _rv(r, npd)
            return gv * (1 - rv * rv)          # tanh_backward: grad * (1 - y * y)
    else:
        def k(gv):                             # threshold_backward(grad, result, 0): grad where result > 0
            return np.where(_rv(r, npd) > 0, gv, 0).astype(npd, copy=False)
    return k


def _act_fn(kind, rs, gs):
    """The backward of _activation_node (a functools.partial of it is the node's function: the C++ graph
    builder, bindings_rnn_graph.cpp, makes the same partial)."""
    g, r = gs[0], rs.unpack()
    if grad_mode._enabled[0]:
        if kind == 0:
            return (g * (1 - r) * r,)
        return (g * (1 - r * r),) if kind == 1 else (g * (r > 0),)
    fast = _K.rnn_act_grad(kind, g._impl, r._impl)  # bindings_rnn.cpp (None: not its case)
    if fast is not None:
        return (C.wrap(fast),)
    like = _like(rs.alias)  # (the result's metadata: the alias's)
    return (_kernel(g, like, _act_numpy(kind, r, like.npd)),)


def _activation_node(name, out, edge):
    """SigmoidBackward0 / TanhBackward0 / ReluBackward0 of an activation (in place on a gate, cy.tanh(), a simple
    cell's output): saves its result."""
    if edge[0] is None:
        return None
    rs = graph.SavedOutput(out)
    alias = rs.alias
    node = _node(name, [out], (edge,), _partial(_act_fn, _ACT_KIND[name], rs), {"result": _Slot(alias, 0)},
                 [(alias, alias._impl.version, 0)])
    rs.bind(node)
    return node


def _mul_side(g, s):
    """One side of MulBackward0's gradient through numpy: g * s (s the saved other operand)."""
    like = _like(s)
    return _kernel(g, like, lambda gv: gv * _rv(s, like.npd))


def _mul_fn(sa, sb, gs):
    """MulBackward0's function: the gradient of self when other (sb) was saved, of other when self (sa) was."""
    g = gs[0]
    need_a, need_b = sb is not None, sa is not None
    if grad_mode._enabled[0]:
        return (g * sb if need_a else None, g * sa if need_b else None)
    # each through bindings_rnn.cpp, or numpy where that is not its case (None); self's first, as ATen
    ga = gb = None
    if need_a:
        ga = _K.rnn_mul_grad(g._impl, sb._impl)
        ga = _mul_side(g, sb) if ga is None else C.wrap(ga)
    if need_b:
        gb = _K.rnn_mul_grad(g._impl, sa._impl)
        gb = _mul_side(g, sa) if gb is None else C.wrap(gb)
    return ga, gb


def _mul_node(out, a, b, ea, eb):
    """MulBackward0 of out = a * b (or of a.mul_(b), a being then the clone of the original self): saves self (a)
    when b needs a gradient and other (b) when a does."""
    need_a, need_b = ea[0] is not None, eb[0] is not None
    if not (need_a or need_b):
        return None
    sa = a if need_b else None
    sb = b if need_a else None
    saved = []
    if sa is not None:
        saved.append((sa, sa._impl.version, None))
    if sb is not None:
        saved.append((sb, sb._impl.version, None))
    return _node("MulBackward0", [out], (ea, eb), _partial(_mul_fn, sa, sb),
                 {"self": _Slot(sa, None) if sa is not None else None,
                  "other": _Slot(sb, None) if sb is not None else None}, saved)


def _pass_both(gs):
    return gs[0], gs[0]


def _add_node(out, ea, eb):
    """AddBackward0 (alpha 1): the incoming gradient goes to both inputs unchanged."""
    if not (ea[0] is not None or eb[0] is not None):
        return None
    return _node("AddBackward0", [out], (ea, eb), _pass_both, dict(_ALPHA))


def _sub_fn(key, gs):
    """SubBackward0's function: the gradient to self, its negation to other (key: _like's of the output)."""
    g = gs[0]
    if grad_mode._enabled[0]:
        return g, -g
    fast = _K.rnn_neg_grad(g._impl)
    if fast is not None:
        return g, C.wrap(fast)
    return g, _kernel(g, _like_key(key), np.negative)


def _sub_node(out, ea, eb):
    """SubBackward0 (alpha 1): the gradient to self, its negation to other."""
    if not (ea[0] is not None or eb[0] is not None):
        return None
    return _node("SubBackward0", [out], (ea, eb), _partial(_sub_fn, _key(out)), dict(_ALPHA))


def _split_fn(rows, cols, split, key, gs):
    """UnsafeSplitBackward0's function (key: _like's of the [rows, cols] input)."""
    ref = next(g for g in gs if g is not None)
    if grad_mode._enabled[0]:
        from .._ops.join import cat
        return (cat([g if g is not None else ref.new_zeros((rows, split)) for g in gs], 1),)
    fast = _K.rnn_split_grad(gs, rows, cols)  # bindings_rnn.cpp (None: a virtual or other case)
    if fast is not None:
        return (C.wrap(fast),)
    like = _like_key(key)
    if any(g is not None and g._impl.is_virtual for g in gs):
        return (C.make(VirtualValues(like.shape, like.npd), like.dt, like.dev),)
    out = np.zeros((rows, cols), dtype=like.npd) if any(g is None for g in gs) else \
        np.empty((rows, cols), dtype=like.npd)
    for k, g in enumerate(gs):
        if g is not None:
            out[:, k * split:(k + 1) * split] = C.read(g)
    return (C.make(out, like.dt, like.dev),)


def _unsafe_split_node(chunks, edge, sizes, split):
    """UnsafeSplitBackward0 of t.unsafe_chunk(n, 1): the pieces' gradients (zeros for a missing one) in one
    [rows, cols] tensor."""
    rows, cols = sizes
    return _node("UnsafeSplitBackward0", chunks, (edge,), _partial(_split_fn, rows, cols, split,
                                                                     _key(chunks[0], (rows, cols))),
                 {"dim": 1, "self_sizes": (rows, cols), "split_size": split})


# ----------------------------------------------------------------------------- the cells
def _linear_hh(hx, w_hh, b_hh):
    """linear(hx, w_hh, b_hh): with a bias and a 2-D state ATen's addmm(b_hh, hx, w_hh.t()), called here on the
    kernels themselves (torch.addmm and Tensor.t only bind arguments before them); else, and while the profiler
    wraps torch.addmm and Tensor.t to record aten::addmm / aten::t, F.linear."""
    recorder = sys.modules.get("torch.profiler._recorder")  # (not imported: it imports torch.nn)
    if b_hh is not None and hx._impl.dim == 2 and b_hh._impl.dim == 1 and not (recorder and recorder._installed):
        if not _OPS:  # (imported at the first step, not at this module's import: the _ops circle)
            from .._ops import linalg, shape
            _OPS[:] = (linalg, shape)
        return _OPS[0].addmm(b_hh, hx, _OPS[1].t(w_hh))
    return FB.linear(hx, w_hh, b_hh)


_OPS = []  # [torch._ops.linalg, torch._ops.shape] once a step has imported them: an import per step cost ~2 us


def lstm_cell(other, hx, cx, w_hh, b_hh, w_hr=None):
    """ATen's LSTMCell. `other`: the input gates [B, 4H] (linear_ih(input), precomputed for a whole layer), or
    a function that computes them: the cell calls it after linear_hh, in ATen's order. Returns (hy, cy)."""
    gates = _linear_hh(hx, w_hh, b_hh)
    if callable(other):
        other = other()
    if _G is not None and w_hr is None:
        # the whole step in C++ (bindings_rnn_graph.cpp: the values of the cases its kernels decline through
        # _lstm_gates_numpy / _lstm_state_numpy), which drops the two tensors when this code below would: hence the box
        box = [gates, other]
        del gates, other
        return _G.rnn_lstm_step(box, cx, grad_mode._enabled[0])
    track = grad_mode._enabled[0]
    virt = gates._impl.is_virtual or other._impl.is_virtual or cx._impl.is_virtual
    rows, cols = gates._impl.sizes
    h = cols // 4
    none = (None, 0)
    edge_gates = graph.edge_of(gates) if track else none
    edge_other = graph.edge_of(other) if track else none
    # gates.add_(igates) and the gates' activations in place: one C++ pass (bindings_rnn.cpp, float32 / float64
    # with unit column strides; it checks cx too, so that rnn_lstm_state below cannot refuse), else numpy
    fast = not virt and _K.rnn_lstm_gates(gates._impl, other._impl, cx._impl)
    act = None if fast else _lstm_gates_numpy(gates, other, virt)
    del other  # a cell's own linear_ih result goes now (add_ saves nothing)
    i, f, g, o = _chunks(gates, 4)
    if track:
        add_node = _add_node(gates, edge_gates, edge_other)
        if add_node is not None:
            _unsafe_split_node([i, f, g, o], (add_node, 0), (rows, cols), h)
            for name, chunk in (("SigmoidBackward0", i), ("SigmoidBackward0", f), ("TanhBackward0", g),
                                ("SigmoidBackward0", o)):
                _activation_node(name, chunk, graph.edge_of(chunk))
    state = _K.rnn_lstm_state(gates._impl, cx._impl) if fast else None
    if fast and state is None:  # (rnn_lstm_gates checked these operands: a safety net only)
        act = C.read(gates).copy()
    del gates
    # fcx = f * cx, ig = i * g (freed once added), cy = fcx.add_(ig), tc = cy.tanh(), hy = o * tc; the values and
    # allocations first (C++ or numpy), then the nodes (none of them saves a tensor written after it: the same
    # graph as making each after its op), ig's without a tensor. (tc held here: it is freed when this frame
    # ends, after the gates' chunks.)
    if state is not None:
        cy, tc, hy = C.wrap(state[0]), C.wrap(state[1]), C.wrap(state[2])
    else:
        cy, tc, hy = _lstm_state_numpy(act, (i, f, g, o), cx, virt)
    if track:
        _mul_node(cy, f, cx, graph.edge_of(f), graph.edge_of(cx))
        e_fcx = graph.edge_of(cy)
        ig_node = _mul_node(None, i, g, graph.edge_of(i), graph.edge_of(g))
        _add_node(cy, e_fcx, (ig_node, 0) if ig_node is not None else none)
        _activation_node("TanhBackward0", tc, graph.edge_of(cy))
        _mul_node(hy, o, tc, graph.edge_of(o), graph.edge_of(tc))
    if w_hr is not None:
        hy = hy.matmul(w_hr.t())
    return hy, cy


def _lstm_gates_numpy(gates, other, virt):
    """gates.add_(other), then the activations in place, through numpy: the activated gates' values (None
    when virtual)."""
    dt = C.dtype_of(gates)
    npd = C.compute_dtype(dt)
    h = gates._impl.sizes[1] // 4
    act = None
    if not virt:
        with fp_quiet():
            pre = _stored(_values(gates, npd) + _values(other, npd), dt)         # gates.add_(igates)
            act = _sigmoid(pre)                                                 # ingate, forgetgate, outgate
            act[:, 2 * h:3 * h] = _tanh(pre[:, 2 * h:3 * h])                    # cellgate
            act = _stored(act, dt)
    _write(gates, act, virt)
    return act


def _lstm_state_numpy(act, chunks, cx, virt):
    """lstm_cell's new state from the activated gates (values `act`) through numpy, as rnn_lstm_state computes and
    allocates it: (cy, tc = cy.tanh(), hy), i * g freed once added."""
    i, f, g, o = chunks
    dt, dev = C.dtype_of(f), C.device_of(f)
    npd = C.compute_dtype(dt)
    rows, h = f._impl.sizes
    with fp_quiet():
        cxv = None if virt else _values(cx, npd)
        # cy = (forgetgate * cx).add_(ingate * cellgate)
        fcx_v = None if virt else _stored(act[:, h:2 * h] * cxv, dt)
        fcx = _pointwise(fcx_v, (rows, h), dt, dev, virt, f, cx)
        ig_v = None if virt else _stored(act[:, :h] * act[:, 2 * h:3 * h], dt)
        ig = _new(ig_v, (rows, h), dt, dev, virt)
        cy = fcx
        cy_v = None if virt else _stored(fcx_v + ig_v, dt)
        _write(cy, cy_v, virt)
        del ig
        tc_v = None if virt else _stored(_tanh(cy_v), dt)
        tc = _new(tc_v, (rows, h), dt, dev, virt)                                              # cy.tanh()
        hy = _new(None if virt else _stored(act[:, 3 * h:] * tc_v, dt), (rows, h), dt, dev, virt)  # outgate * ..
    return cy, tc, hy


def _pointwise(values, shape, dt, dev, virt, a, b):
    """The result of a pointwise op of two [B, H] operands: contiguous when both are row-major (the chunk
    views are: their rows are strided), else laid out as TensorIterator lays it out (a transposed state)."""
    if virt or (a._impl.strides[1] == 1 and b._impl.strides[1] == 1):
        return _new(values, shape, dt, dev, virt)
    return C.make_pointwise(values, dt, dev, (a, b))


def gru_cell(other, hx, w_hh, b_hh):
    """ATen's GRUCell. `other`: the input gates [B, 3H] (precomputed for a layer) or a function computing
    them (called before linear_hh, ATen's order for a cell).

    The values and allocations come first, in ATen's order (the clones autograd makes of mul_'s self
    included), then the nodes in ATen's order: the chunks of linear_hh's result share one version counter
    here (ATen gives unsafe_chunk's pieces their own), so the nodes that save a piece are made after the
    last write into it."""
    if callable(other):
        other = other()
    track = grad_mode._enabled[0]
    if _G is not None:
        # the whole step in C++ (bindings_rnn_graph.cpp: linear_hh through this module's _linear_hh, the values of
        # the cases its kernel declines through _gru_numpy); it drops `other` when this frame would
        box = [other]
        del other
        return _G.rnn_gru_step(box, hx, w_hh, b_hh, track)
    none = (None, 0)
    ig = _chunks(other, 3)                                   # input.unsafe_chunk(3, 1)
    if track and graph.edge_of(other)[0] is not None:
        _unsafe_split_node(ig, graph.edge_of(other), tuple(other._impl.sizes), other._impl.sizes[1] // 3)
    hgates = _linear_hh(hx, w_hh, b_hh)
    virt = hgates._impl.is_virtual or other._impl.is_virtual or hx._impl.is_virtual
    rows, cols = hgates._impl.sizes
    hg = _chunks(hgates, 3)                                  # linear_hh(hidden).unsafe_chunk(3, 1)
    if track and graph.edge_of(hgates)[0] is not None:
        _unsafe_split_node(hg, graph.edge_of(hgates), (rows, cols), cols // 3)
    # which pieces carry a gradient (ATen's requires_grad of reset_gate / input_gate)
    e_hg = [graph.edge_of(c) if track else none for c in hg]
    e_ig = [graph.edge_of(c) if track else none for c in ig]
    gates_grad = any(e[0] is not None for e in e_hg[:2] + e_ig[:2])
    # the pointwise part in one C++ pass (bindings_rnn.cpp: float32 / float64 with unit column strides; the same
    # values, allocations and order as _gru_numpy), else numpy
    fast = None if virt else _K.rnn_gru(other._impl, hgates._impl, hx._impl, gates_grad)
    if fast is not None:
        orig_hn, new_gate, hy, orig_d = [None if x is None else C.wrap(x) for x in fast]
    else:
        orig_hn, new_gate, hy, orig_d = _gru_numpy(other, hgates, hx, hg, ig, virt, gates_grad)
    del hgates
    if not track:
        return hy
    for k in (0, 1):
        if _add_node(hg[k], e_hg[k], e_ig[k]) is not None:
            _activation_node("SigmoidBackward0", hg[k], graph.edge_of(hg[k]))
    reset_gate, input_gate, hn = hg
    _mul_node(hn, orig_hn, reset_gate, e_hg[2], graph.edge_of(reset_gate))
    if _add_node(new_gate, e_ig[2], graph.edge_of(hn)) is not None:
        _activation_node("TanhBackward0", new_gate, graph.edge_of(new_gate))
    _sub_node(hy, graph.edge_of(hx), graph.edge_of(new_gate))
    e_d = graph.edge_of(hy)
    _mul_node(hy, orig_d, input_gate, e_d, graph.edge_of(input_gate))
    _add_node(hy, graph.edge_of(hy), graph.edge_of(new_gate))
    return hy


def _gru_numpy(other, hgates, hx, hg, ig, virt, gates_grad):
    """gru_cell's values and allocations through numpy (half, bfloat16, virtual or strided operands):
    (orig_hn, new_gate, hy, orig_d), the clones None when the gates need no gradient."""
    dt, dev = C.dtype_of(hgates), C.device_of(hgates)
    npd = C.compute_dtype(dt)
    rows, cols = hgates._impl.sizes
    h = cols // 3
    with fp_quiet():
        if not virt:
            igv, hgv, hxv = _values(other, npd), _values(hgates, npd), _values(hx, npd)
            hnv = hgv[:, 2 * h:].copy()
            # reset_gate, input_gate = hg[k].add_(ig[k]).sigmoid_()
            rz = _stored(_sigmoid(_stored(hgv[:, :2 * h] + igv[:, :2 * h], dt)), dt)
        # hg[2].mul_(reset_gate): autograd keeps a clone of hg[2] when reset_gate needs a gradient
        orig_hn = _clone(None if virt else hnv, hg[2], dt, dev, virt) if gates_grad else None
        hn_v = None if virt else _stored(hnv * rz[:, :h], dt)
        _write(hgates, None if virt else np.concatenate([rz, hn_v], 1), virt)
        # new_gate = ig[2].add(hg[2]).tanh_()
        ng_v = None if virt else _stored(_tanh(_stored(igv[:, 2 * h:] + hn_v, dt)), dt)
        new_gate = _pointwise(ng_v, (rows, h), dt, dev, virt, ig[2], hg[2])
        # (hidden - new_gate).mul_(input_gate).add_(new_gate): mul_ keeps a clone of its self
        d_v = None if virt else _stored(hxv - ng_v, dt)
        hy = _pointwise(d_v, (rows, h), dt, dev, virt, hx, new_gate)
        orig_d = _new(d_v, (rows, h), dt, dev, virt) if gates_grad else None
        _write(hy, None if virt else _stored(_stored(d_v * rz[:, h:], dt) + ng_v, dt), virt)
    return orig_hn, new_gate, hy, orig_d


def simple_cell(other, hx, w_hh, b_hh, relu):
    """ATen's SimpleCell: tanh / relu of linear_hh(hx).add_(igates) (igates precomputed, or a function computing
    them after linear_hh)."""
    gates = _linear_hh(hx, w_hh, b_hh)
    if callable(other):
        other = other()
    track = grad_mode._enabled[0]
    if _G is not None:  # the step in C++ (bindings_rnn_graph.cpp; None: not its kernels' case, nothing done)
        box = [other]
        del other
        out = _G.rnn_simple_step(gates, box, track, relu)
        if out is not None:
            return out
    else:
        box = [other]
        del other
    return _simple_numpy(gates, box, track, relu)


def simple_layer(steps_in, hx, w_hh, b_hh, relu):
    """simple_cell on each step's input gates in turn (rnn_forward's unpacked forward direction): the outputs, or
    None where _linear_hh would not take addmm (no bias, the profiler) or the C++ steps are off. The calls
    simple_cell makes, in one frame: a frame per step for the step, the cell and linear_hh cost more than the
    step's own kernel (char_rnn_classification: ~8 steps per name)."""
    if _G is None or b_hh is None or hx._impl.dim != 2 or b_hh._impl.dim != 1:
        return None
    recorder = sys.modules.get("torch.profiler._recorder")  # (as _linear_hh: the profiler records aten::addmm)
    if recorder and recorder._installed:
        return None
    if not _OPS:
        from .._ops import linalg, shape
        _OPS[:] = (linalg, shape)
    addmm, t = _OPS[0].addmm, _OPS[1].t
    step = _G.rnn_simple_step
    enabled = grad_mode._enabled
    outputs = []
    state = hx
    for other in steps_in:
        gates = addmm(b_hh, state, t(w_hh))  # _linear_hh
        track = enabled[0]
        box = [other]
        del other
        state = step(gates, box, track, relu)
        if state is None:  # (not the kernels' case: nothing done)
            state = _simple_numpy(gates, box, track, relu)
        del gates, box  # (simple_cell's frame ends here)
        outputs.append(state)
    return outputs


def _simple_numpy(gates, box, track, relu):
    """simple_cell after linear_hh where the C++ step declines: the add_ and the activation through
    bindings_rnn.cpp's kernels (float32 / float64), else numpy. box: [the input gates], emptied here so that they
    go when simple_cell's `del other` dropped them (a cell's own linear_ih result: before the activation's
    allocation)."""
    other = box.pop()
    dt, dev = C.dtype_of(gates), C.device_of(gates)
    npd = C.compute_dtype(dt)
    virt = gates._impl.is_virtual or other._impl.is_virtual
    e_g, e_o = (graph.edge_of(gates), graph.edge_of(other)) if track else ((None, 0), (None, 0))
    # the add_ in place and the activation through bindings_rnn.cpp (float32 / float64), else numpy
    if not virt and _K.rnn_add_(gates._impl, other._impl):
        del other
        if track:
            _add_node(gates, e_g, e_o)
        out = C.wrap(_K.rnn_activation(2 if relu else 1, gates._impl))
        if track:
            _activation_node("ReluBackward0" if relu else "TanhBackward0", out, graph.edge_of(gates))
        return out
    with fp_quiet():
        pre = None if virt else _stored(_values(gates, npd) + _values(other, npd), dt)
        del other
        _write(gates, pre, virt)
        if track:
            _add_node(gates, e_g, e_o)
        act = None if virt else _stored(np.maximum(pre, 0) if relu else _tanh(pre), dt)
        out = _new(act, tuple(gates._impl.sizes), dt, dev, virt)
    if track:
        _activation_node("ReluBackward0" if relu else "TanhBackward0", out, graph.edge_of(gates))
    return out


# The steps with their nodes in C++ (bindings_rnn_graph.cpp), the functions above statement for statement; not under
# DEVICESCOPE_PY_RNN=1 (the reference), nor where graph's node classes are not laid out as it expects.
# Their nodes run the backward functions of bindings_rnn_backward.cpp: the functions above without a Python frame in
# the common case (grad mode off, the kernel's operands), else calling them.
_G = None
if _K is _E:
    _E.rnn_backward_init({"grad_enabled": grad_mode._enabled, "act_fn": _act_fn, "mul_fn": _mul_fn,
                          "sub_fn": _sub_fn, "split_fn": _split_fn, "mul_side": _mul_side})
    if _E.rnn_graph_init({
            "Tensor": C.Tensor, "Node": graph.Node, "classes": _CLASS, "sequence": graph._SEQUENCE,
            "graph_globals": vars(graph), "Slot": graph._Slot, "SavedOutput": graph.SavedOutput,
            "partial": _partial, "act_fn": _E.rnn_act_backward, "mul_fn": _E.rnn_mul_backward,
            "sub_fn": _E.rnn_sub_backward, "split_fn": _E.rnn_split_backward, "pass_both": _E.rnn_pass_both,
            "edge_of": graph.edge_of, "linear_hh": _linear_hh, "gru_numpy": _gru_numpy,
            "lstm_gates_numpy": _lstm_gates_numpy, "lstm_state_numpy": _lstm_state_numpy}):
        _G = _E

# cuBLAS / cuBLASLt workspaces: the blocks PyTorch's BLAS calls take from the caching allocator, per (thread's
# handle, stream), sized by the device's architecture and CUBLAS_WORKSPACE_CONFIG / CUBLASLT_WORKSPACE_SIZE.
# The rules and their sources: Note [cuBLAS workspaces] (engine/alloc/blas_workspace.h). The matmul kernels call
# gemm()/addmm()/dot() once per BLAS call; the autograd engine marks the nodes it runs for a CUDA device.
import os
import threading
import warnings

import _devicescope_C as _E

from . import _devicescope_hooks as _hooks
from . import _dtype
from .version import __version__, _parts

OWNER = "cuBLAS workspace"
LT_OWNER = "cuBLASLt workspace"
AUTOGRAD_DEVICE_THREAD = "autograd device thread"

# PyTorch 2.6 (the release DeviceScope follows) allocates the cuBLASLt workspace per call and frees it on return
# (CUDABlas.cpp gemm_and_bias: `auto workspace = allocator.allocate(workspaceSize)`). Later releases keep one per
# (handle, stream) like the cuBLAS one (CublasHandlePool.cpp getCUDABlasLtWorkspace, PR #156495, merged
# 2025-06-27; 2.11 on an H200 shows the 1 MiB block held from the first matmul on). Which release first shipped
# it is not checked here: 2.9 is an assumption, and only matters if torch.__version__ moves past 2.8.
LT_CACHED = _parts(__version__) >= (2, 9)


class _HandlePool:
    """DeviceThreadHandlePool (aten/src/ATen/cuda/detail/DeviceThreadHandles.h): a thread reserves one handle per
    device on its first BLAS call and gives it back when it ends; a later thread reuses a returned handle (and so
    the workspaces keyed by it) before a new one is created."""

    def __init__(self):
        self.created = {}    # device -> number of handles made
        self.available = {}  # device -> handles returned by finished threads

    def reserve(self, device):
        free = self.available.get(device)
        if free:
            return free.pop()
        n = self.created.get(device, 0)
        self.created[device] = n + 1
        return n

    def release(self, device, handle):
        self.available.setdefault(device, []).append(handle)


class _ThreadHandles:
    """A thread's PoolWindow: its handles per device, released to the pool when the thread's locals die."""

    def __init__(self, pool):
        self.pool = pool
        self.handles = {}

    def __del__(self):
        for device, handle in self.handles.items():
            self.pool.release(device, handle)


class _State:
    def __init__(self):
        self.pool = _HandlePool()
        self.device_thread_handles = {}  # device -> handle of the autograd engine's device thread (never ends)
        self.workspaces = {}             # (device, handle, stream) -> TensorImpl holding the cuBLAS workspace
        self.lt_workspaces = {}          # the same for cuBLASLt, when LT_CACHED
        self.lt_size = None              # (bytes, warning): read once per process, as _getWorkspaceSize's static
        self.disable_addmm_lt = None     # DISABLE_ADDMM_CUDA_LT=1, read once (getDisableAddmmCudaLt's static)


_state = _State()
_tls = threading.local()  # .window: _ThreadHandles; .device_thread: the device index the engine runs a node for


def _epoch_bump():
    """What the C++ matmuls remember of this thread's workspaces is stale (bindings_ops.cpp's fast matmul,
    bindings_linalg_fast.cpp's addmm)."""
    _E._fast_blas_epoch_bump()
    _E._linalg_epoch_bump()


def reset():
    """A fresh session: the workspaces of the old runtime go back to it."""
    global _state
    _state = _State()
    _tls.__dict__.clear()
    _epoch_bump()


# ----------------------------------------------------------------------------- thread identity
def enter_device_thread(grads):
    """The autograd engine runs a node whose incoming gradient is on a CUDA device: from here until
    leave_device_thread, BLAS calls are that device's autograd thread's (its own handle, so its own workspace,
    and no Python frames in its allocations' stacks). Returns what leave_device_thread restores."""
    previous = getattr(_tls, "device_thread", None)
    for g in grads:
        if g is not None:
            key = g._impl.device_key
            now = key if key >= 0 else None
            if now != previous:
                _tls.device_thread = now
                _epoch_bump()  # the C++ fast matmul's memo of this thread's workspace is stale
            break
    return previous


def leave_device_thread(previous):
    if getattr(_tls, "device_thread", None) != previous:
        _tls.device_thread = previous
        _epoch_bump()


def thread_identity():
    """Whose handle a BLAS call uses now: AUTOGRAD_DEVICE_THREAD inside a CUDA backward node, else the
    calling Python thread's name."""
    return AUTOGRAD_DEVICE_THREAD if getattr(_tls, "device_thread", None) is not None else \
        threading.current_thread().name


def _handle(device):
    if getattr(_tls, "device_thread", None) is not None:
        h = _state.device_thread_handles.get(device)
        if h is None:
            h = _state.device_thread_handles[device] = _state.pool.reserve(device)
        return h
    window = getattr(_tls, "window", None)
    if window is None or window.pool is not _state.pool:
        window = _tls.window = _ThreadHandles(_state.pool)
    h = window.handles.get(device)
    if h is None:
        h = window.handles[device] = _state.pool.reserve(device)
    return h


# ----------------------------------------------------------------------------- sizes and allocation
def _capability(device):
    p = _E.device_properties(device)
    return p["major"], p["minor"]


def cublas_size(device):
    """getChosenWorkspaceSize() for `device` now (CUBLAS_WORKSPACE_CONFIG is read at each new workspace)."""
    major, minor = _capability(device)
    size, warning, _, _ = _E.blas_workspace_sizes(major, minor, os.environ.get("CUBLAS_WORKSPACE_CONFIG"), None)
    if warning:
        warnings.warn(warning)
    return size


def cublaslt_size():
    if _state.lt_size is None:
        _, _, size, warning = _E.blas_workspace_sizes(0, 0, None, os.environ.get("CUBLASLT_WORKSPACE_SIZE"))
        _state.lt_size = (size, warning)
        if warning:
            warnings.warn(warning)
    return _state.lt_size[0]


def _allocate(device, nbytes, owner):
    """A block of `nbytes` from the caching allocator of `device`, on its current stream, shown as `owner`."""
    previous_role = _hooks.set_new_storage_role("workspace")
    owner_token = _hooks._owner.set(owner)
    hidden = _E.hide_python_frames(True) if getattr(_tls, "device_thread", None) is not None else None
    try:
        # real even when the matmul runs inside a composite's scratch scope (_scratch.outside_scratch, which
        # this leaf module does not import: _scratch sits above the op modules)
        depth = 0
        while _E.scratch_depth() > 0:
            _E.scratch_exit()
            depth += 1
        try:
            # (inside devicescope.virtual_mode() the engine makes it virtual, as every device allocation)
            impl = _E.empty((nbytes,), _dtype.uint8._code, device, False, False)
        finally:
            for _ in range(depth):
                _E.scratch_enter()
    finally:
        if hidden is not None:
            _E.hide_python_frames(hidden)
        _hooks._owner.reset(owner_token)
        _hooks.set_new_storage_role(previous_role)
    _E.tag(impl, "workspace", owner)
    return impl


def _cublas_handle(device):
    """getCurrentCUDABlasHandle(): the thread's handle on `device`, with its workspace for the current stream
    allocated the first time that (handle, stream) is seen. Returns the key."""
    key = (device, _handle(device), _E.current_stream(device))
    if key not in _state.workspaces:
        _state.workspaces[key] = _allocate(device, cublas_size(device), OWNER)
    return key


def _cuda_index(dev):
    return dev.index if dev is not None and dev.type == "cuda" else None


# ----------------------------------------------------------------------------- the kernels' entry points
def gemm(dev, m, n, k):
    """A cuBLAS gemm/gemv/bgemm on `dev` (torch.device) for an m x n result over k: mm, bmm, baddbmm, mv and
    addmm off the Lt path. ATen returns before BLAS when the result is empty or k == 0 (Blas.cpp
    addmm_out_cuda_impl / baddbmm_out_cuda_impl fill or scale the result instead)."""
    d = _cuda_index(dev)
    if d is None or m * n == 0 or k == 0:
        return
    _cublas_handle(d)


def gemm_at(device, m, n, k):
    """gemm() for a CUDA device index: the C++ fast matmul's hook (bindings_ops.cpp)."""
    if m * n and k:
        _cublas_handle(device)


def dot(dev):
    """cublas dot (torch.dot / vdot / 1-D matmul): the handle, so the workspace, is always taken."""
    d = _cuda_index(dev)
    if d is not None:
        _cublas_handle(d)


def uses_lt(input, mat1, mat2, beta, result_contiguous=True):  # noqa: A002
    """Blas.cpp addmm_out_cuda_impl's useLtInterface (CUDA >= 12.1 builds): a contiguous 1-D bias as long as
    the result's rows, beta == 1, a float/double/half/bfloat16 result, mat2 at least 2 x 2, and no
    DISABLE_ADDMM_CUDA_LT=1."""
    if _state.disable_addmm_lt is None:
        _state.disable_addmm_lt = os.environ.get("DISABLE_ADDMM_CUDA_LT") == "1"
    if _state.disable_addmm_lt or beta != 1:
        return False
    i, m2 = input._impl, mat2._impl
    return (i.dim == 1 and i.sizes[0] == m2.sizes[1] and i.is_contiguous and result_contiguous
            and input.dtype in (_dtype.float32, _dtype.float64, _dtype.float16, _dtype.bfloat16)
            and m2.sizes[0] > 1 and m2.sizes[1] > 1)


def _fast_lt_config():
    """For the C++ addmm (bindings_linalg_fast.cpp), which asks once per epoch and thread: DISABLE_ADDMM_CUDA_LT as
    uses_lt reads it, LT_CACHED, and whether BLAS calls are the autograd device thread's now (_allocate hides
    Python frames then)."""
    if _state.disable_addmm_lt is None:
        _state.disable_addmm_lt = os.environ.get("DISABLE_ADDMM_CUDA_LT") == "1"
    return _state.disable_addmm_lt, LT_CACHED, getattr(_tls, "device_thread", None) is not None


def addmm(dev, input, mat1, mat2, beta=1):  # noqa: A002
    """torch.addmm (and so F.linear with a bias) on `dev`: cuBLASLt's gemm_and_bias when uses_lt, else gemm."""
    d = _cuda_index(dev)
    m, k, n = mat1._impl.sizes[0], mat1._impl.sizes[1], mat2._impl.sizes[1]
    if d is None or m * n == 0 or k == 0:
        return
    if not uses_lt(input, mat1, mat2, beta):
        _cublas_handle(d)
        return
    if LT_CACHED:
        # getCUDABlasLtWorkspace(): the Lt handle (the cuBLAS one, with its workspace), then the Lt workspace of
        # that (handle, stream), kept like the cuBLAS one
        key = _cublas_handle(d)
        if key not in _state.lt_workspaces:
            _state.lt_workspaces[key] = _allocate(d, min(cublaslt_size(), cublas_size(d)), LT_OWNER)
        return
    # 2.6 gemm_and_bias: allocate the Lt workspace, then getCurrentCUDABlasLtHandle() (= the cuBLAS handle,
    # which makes the thread's cuBLAS workspace on first use), the matmul, and the Lt workspace freed at return
    scratch = _allocate(d, cublaslt_size(), LT_OWNER)
    _cublas_handle(d)
    del scratch


def clear():
    """torch._C._cuda_clearCublasWorkspaces(): clearCublasWorkspaces() drops the map (the blocks go back to the
    allocator's cache; empty_cache can release them afterwards)."""
    _state.workspaces.clear()
    _state.lt_workspaces.clear()
    _epoch_bump()


def held():
    """[(device, handle, stream, owner, bytes)] of the workspaces held now (tests and lessons)."""
    out = [(d, h, s, OWNER, impl.nbytes) for (d, h, s), impl in _state.workspaces.items()]
    out += [(d, h, s, LT_OWNER, impl.nbytes) for (d, h, s), impl in _state.lt_workspaces.items()]
    return out

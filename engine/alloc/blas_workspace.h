// Sizes of the cuBLAS and cuBLASLt workspaces PyTorch takes from the caching allocator, as chosen by the
// PyTorch release DeviceScope follows (torch.__version__): the architecture default and the env overrides.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ds {

// Note [cuBLAS workspaces]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch 2.6, aten/src/ATen/cuda/CublasHandlePool.cpp:
//  - getCurrentCUDABlasHandle() reserves the calling thread's handle for the current device
//    (DeviceThreadHandlePool: one per thread and device, returned to the pool when the thread ends) and, the
//    first time a (handle, stream) pair is seen, allocates getChosenWorkspaceSize() bytes through the caching
//    allocator (getNewWorkspace) and keeps them in cublas_handle_stream_to_workspace() until
//    clearCublasWorkspaces() (torch._C._cuda_clearCublasWorkspaces). empty_cache cannot free a live block.
//  - parseChosenWorkspaceSize(), read at every new workspace: CUBLAS_WORKSPACE_CONFIG as ":SIZE:COUNT"
//    pairs (regex ":([0-9]+):([0-9]+)", SIZE in KiB, summed SIZE*1024*COUNT); a value without any pair warns
//    and uses the default; the default is 32 MiB (4096*8*1024) on sm_90 exactly (major 9, minor 0) and
//    4096*1024*2 + 16*1024*8 = 8,519,680 bytes (":4096:2:16:8") on every other architecture.
//  - cuBLASLt on CUDA uses the cuBLAS handle (getCurrentCUDABlasLtHandle casts getCurrentCUDABlasHandle()),
//    so an Lt call makes the thread's cuBLAS workspace too. Its own workspace is NOT cached in 2.6:
//    aten/src/ATen/cuda/CUDABlas.cpp gemm_and_bias / bgemm_internal_cublaslt / scaled_gemm allocate
//    _getWorkspaceSize() bytes per call (allocator.allocate) and free them when the call returns.
//    _getWorkspaceSize() is CUBLASLT_WORKSPACE_SIZE in KiB, read once (a function-local static), default
//    1024 KiB; an unparsable value (std::stoi) warns and keeps the default.
// Later releases cache the Lt workspace per (handle, stream) too (PR #156495, merged 2025-06-27, and the
// unified-workspace switch TORCH_CUBLASLT_UNIFIED_WORKSPACE); torch/_blas_workspace.py says which it models.

struct WorkspaceSize {
  uint64_t bytes = 0;
  std::string warning;  // what TORCH_WARN would print (empty: nothing to say)
};

// The default cuBLAS workspace of a device of compute capability major.minor.
uint64_t default_cublas_workspace_size(int major, int minor);
// getChosenWorkspaceSize(): `config` is CUBLAS_WORKSPACE_CONFIG (nullopt when unset). A SIZE or COUNT that
// does not fit an int raises RuntimeError("stoi"), as std::stoi's out_of_range does through PyTorch.
WorkspaceSize cublas_workspace_size(int major, int minor, const std::optional<std::string>& config);
// _getWorkspaceSize(): `env` is CUBLASLT_WORKSPACE_SIZE (nullopt when unset), in KiB.
WorkspaceSize cublaslt_workspace_size(const std::optional<std::string>& env);

}  // namespace ds

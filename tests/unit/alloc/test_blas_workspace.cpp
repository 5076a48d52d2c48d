// cuBLAS / cuBLASLt workspace sizes (Note [cuBLAS workspaces], PyTorch 2.6 CublasHandlePool.cpp and
// CUDABlas.cpp) and how such a block sits in the caching allocator: its segment, and empty_cache keeping it.
#include <gtest/gtest.h>

#include "alloc/blas_workspace.h"
#include "alloc/caching_device_allocator.h"
#include "backend/sim_backend.h"
#include "core/role.h"
#include "core/errors.h"

using ds::cublas_workspace_size;
using ds::cublaslt_workspace_size;

namespace {
constexpr uint64_t KiB = 1024;
constexpr uint64_t MiB = 1024 * 1024;
}  // namespace

TEST(BlasWorkspaceSize, DefaultsByArchitecture) {
  EXPECT_EQ(ds::default_cublas_workspace_size(9, 0), 32 * MiB);       // Hopper: 4096 * 8 * 1024
  EXPECT_EQ(ds::default_cublas_workspace_size(8, 0), 8519680u);       // ":4096:2:16:8"
  EXPECT_EQ(ds::default_cublas_workspace_size(8, 6), 8519680u);
  EXPECT_EQ(ds::default_cublas_workspace_size(9, 4), 8519680u);       // only major 9 minor 0 is "sm90" in 2.6
  EXPECT_EQ(ds::default_cublas_workspace_size(10, 0), 8519680u);
  const ds::WorkspaceSize unset = cublas_workspace_size(9, 0, std::nullopt);
  EXPECT_EQ(unset.bytes, 32 * MiB);
  EXPECT_TRUE(unset.warning.empty());
}

TEST(BlasWorkspaceSize, ConfigSumsSizeTimesCount) {
  EXPECT_EQ(cublas_workspace_size(9, 0, ":4096:8").bytes, 4096 * KiB * 8);
  EXPECT_EQ(cublas_workspace_size(8, 0, ":4096:2:16:8").bytes, 8519680u);
  EXPECT_EQ(cublas_workspace_size(9, 0, ":16:8").bytes, 16 * KiB * 8);  // the deterministic setting
  EXPECT_EQ(cublas_workspace_size(9, 0, ":0:0").bytes, 0u);
  // pairs found anywhere, text between them ignored (std::sregex_iterator)
  EXPECT_EQ(cublas_workspace_size(9, 0, "x:1:2y:3:4").bytes, (1 * 2 + 3 * 4) * KiB);
  EXPECT_TRUE(cublas_workspace_size(9, 0, ":4096:8").warning.empty());
}

TEST(BlasWorkspaceSize, UnparsableConfigWarnsAndKeepsTheDefault) {
  const ds::WorkspaceSize w = cublas_workspace_size(8, 0, "4096");
  EXPECT_EQ(w.bytes, 8519680u);
  EXPECT_EQ(w.warning, "Could not parse CUBLAS_WORKSPACE_CONFIG, using default workspace size of 8519680 bytes.");
  EXPECT_EQ(cublas_workspace_size(9, 0, "").bytes, 32 * MiB);
  EXPECT_FALSE(cublas_workspace_size(9, 0, ":abc:8").warning.empty());
}

TEST(BlasWorkspaceSize, ConfigBeyondIntRaisesAsStoi) {
  try {
    cublas_workspace_size(9, 0, ":99999999999:1");
    FAIL() << "no error";
  } catch (const ds::Error& e) {
    EXPECT_EQ(e.kind(), ds::ErrorKind::RuntimeError);
    EXPECT_STREQ(e.what(), "stoi");
  }
}

TEST(BlasWorkspaceSize, CublasLtInKiB) {
  EXPECT_EQ(cublaslt_workspace_size(std::nullopt).bytes, 1 * MiB);
  EXPECT_EQ(cublaslt_workspace_size("4096").bytes, 4 * MiB);
  EXPECT_EQ(cublaslt_workspace_size(" 32768").bytes, 32 * MiB);  // stoi skips leading blanks
  EXPECT_EQ(cublaslt_workspace_size("64kib").bytes, 64 * KiB);   // ... and stops at the first non-digit
  EXPECT_TRUE(cublaslt_workspace_size("4096").warning.empty());
  const ds::WorkspaceSize bad = cublaslt_workspace_size("big");
  EXPECT_EQ(bad.bytes, 1 * MiB);
  EXPECT_EQ(bad.warning, "invalid CUBLASLT_WORKSPACE_SIZE, using default workspace size of 1024 KiB.");
  const ds::WorkspaceSize huge = cublaslt_workspace_size("99999999999");
  EXPECT_EQ(huge.bytes, 1 * MiB);
  EXPECT_EQ(huge.warning, "CUBLASLT_WORKSPACE_SIZE out of range, using default workspace size of 1024 KiB.");
}

// The blocks as the caching allocator holds them: 32 MiB is a large-pool block of its own 32 MiB segment;
// sm_80's 8,519,680 bytes take a 20 MiB segment (1-10 MiB requests); the 1 MiB cuBLASLt block is small-pool
// (<= 1 MiB) in a 2 MiB segment. A live workspace survives empty_cache; once freed, empty_cache returns it.
TEST(BlasWorkspaceBlocks, SegmentsAndEmptyCache) {
  ds::SimBackend backend(1, 1ull << 30, "pcie5-x16");
  ds::CachingDeviceAllocator alloc(backend, 0);
  const uint64_t hopper = ds::default_cublas_workspace_size(9, 0), ampere = ds::default_cublas_workspace_size(8, 0);
  ds::DeviceAllocation h = alloc.allocate(hopper);
  ds::DeviceAllocation a = alloc.allocate(ampere);
  ds::DeviceAllocation lt = alloc.allocate(cublaslt_workspace_size(std::nullopt).bytes);
  EXPECT_EQ(h.size, 32 * MiB);
  EXPECT_EQ(a.size, 8519680u);
  EXPECT_EQ(lt.size, 1 * MiB);
  EXPECT_EQ(alloc.stats().reserved, (32 + 20 + 2) * MiB);
  alloc.empty_cache();
  EXPECT_EQ(alloc.stats().allocated, 32 * MiB + 8519680 + 1 * MiB);
  EXPECT_EQ(alloc.stats().reserved, (32 + 20 + 2) * MiB);
  alloc.free(lt);  // the 2.6 cuBLASLt workspace goes back at the end of its call
  alloc.free(h);   // clearCublasWorkspaces
  alloc.empty_cache();
  EXPECT_EQ(alloc.stats().reserved, 20 * MiB);
  alloc.free(a);
}

TEST(BlasWorkspaceBlocks, LinkProfilesNameTheirArchitecture) {
  EXPECT_EQ(ds::find_link_profile("pcie4-x16").arch(), "sm_80");
  EXPECT_EQ(ds::find_link_profile("pcie5-x16").arch(), "sm_90");
  EXPECT_EQ(ds::find_link_profile("nvlink-c2c").arch(), "sm_90");
  ds::SimBackend h100(1, 1ull << 30, "pcie5-x16");
  EXPECT_EQ(h100.props(0).major, 9);
  EXPECT_EQ(h100.props(0).minor, 0);
  ds::SimBackend a100(1, 1ull << 30, "pcie4-x16");
  EXPECT_EQ(a100.props(0).major, 8);
  EXPECT_EQ(a100.props(0).minor, 0);
}

TEST(BlasWorkspaceBlocks, WorkspaceRoleSpellings) {
  EXPECT_STREQ(ds::role_name(ds::Role::Workspace), "workspace");
  EXPECT_STREQ(ds::role_python_name(ds::Role::Workspace), "workspace");
  EXPECT_EQ(ds::role_from_name("workspace"), ds::Role::Workspace);
  EXPECT_STREQ(ds::role_label(ds::Role::Workspace), "library workspace (cuBLAS)");
}

// Note [Host memory budget]: simulated device memory is host memory, so real simulated allocations, pinned
// ones and pageable tensors take from one budget; going past it is an out-of-memory error that says why,
// never pages the kernel's OOM killer has to reclaim. Virtual storages take nothing.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "backend/sim_backend.h"
#include "core/errors.h"
#include "core/host_memory.h"
#include "runtime/runtime.h"
#include "sim_test_util.h"

namespace ds {
namespace {

using test::kGiB;
using test::kMiB;

TEST(HostMemoryBudget, TakesUpToTheLimitAndGivesBack) {
  HostMemoryBudget b(100);
  EXPECT_EQ(b.limit(), 100u);
  EXPECT_TRUE(b.try_take(60));
  EXPECT_FALSE(b.try_take(41));
  EXPECT_EQ(b.in_use(), 60u);
  EXPECT_TRUE(b.try_take(40));
  EXPECT_FALSE(b.try_take(1));
  b.give_back(50);
  EXPECT_TRUE(b.try_take(50));
  EXPECT_FALSE(b.try_take(~0ull));  // no overflow past the limit
  b.take(10);                       // existing memory is counted even past the limit
  EXPECT_EQ(b.in_use(), 110u);
}

TEST(HostMemoryBudget, DefaultIsPhysicalMemory) {
  HostMemoryBudget b;
  EXPECT_EQ(b.limit(), HostMemoryBudget::physical_bytes());
  EXPECT_GT(b.limit(), 0u);
  EXPECT_FALSE(b.try_take(b.limit() + 1));
  EXPECT_GT(HostMemoryBudget::available_bytes(), 0u);
}

TEST(HostMemoryBudget, SimDeviceMemoryBeyondTheHostIsRefusedAndExplained) {
  SimBackend b(2, 1024 * kGiB);  // far more simulated capacity than the budget below
  auto budget = std::make_shared<HostMemoryBudget>(64 * kMiB);
  b.share_host_budget(budget);
  void* first = b.device_alloc(0, 48 * kMiB, false);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(budget->in_use(), 48 * kMiB);
  EXPECT_EQ(b.out_of_memory_note(0), "");
  EXPECT_EQ(b.device_alloc(1, 48 * kMiB, false), nullptr);  // another device: the same host RAM
  const std::string note = b.out_of_memory_note(1);
  EXPECT_NE(note.find("simulated device memory is host memory"), std::string::npos) << note;
  EXPECT_NE(note.find("64.00 MiB"), std::string::npos) << note;
  EXPECT_EQ(b.out_of_memory_note(0), "");
  // Virtual storages hold no bytes: the budget does not limit them.
  void* v = b.device_alloc(1, 512 * kGiB, true);
  EXPECT_NE(v, nullptr);
  EXPECT_EQ(budget->in_use(), 48 * kMiB);
  // Pinned memory of the simulation is host memory too.
  EXPECT_EQ(b.pinned_alloc(32 * kMiB), nullptr);
  EXPECT_NE(b.out_of_memory_note(-1).find("host memory"), std::string::npos);
  b.device_free(0, first, 48 * kMiB, false);
  EXPECT_EQ(budget->in_use(), 0u);
  void* pinned = b.pinned_alloc(32 * kMiB);
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(budget->in_use(), 32 * kMiB);
  EXPECT_EQ(b.out_of_memory_note(-1), "");
  b.pinned_free(pinned, 32 * kMiB);
  b.device_free(1, v, 512 * kGiB, true);
  EXPECT_EQ(budget->in_use(), 0u);
}

TEST(HostMemoryBudget, SharingMovesWhatIsAlreadyMapped) {
  SimBackend b(1, 16 * kGiB);
  void* p = b.device_alloc(0, 8 * kMiB, false);
  auto budget = std::make_shared<HostMemoryBudget>(64 * kMiB);
  b.share_host_budget(budget);
  EXPECT_EQ(budget->in_use(), 8 * kMiB);
  b.device_free(0, p, 8 * kMiB, false);
  EXPECT_EQ(budget->in_use(), 0u);
}

RuntimeOptions small_host(uint64_t limit) {
  RuntimeOptions o;
  o.backend.backend = "sim";
  o.backend.sim_devices = 2;
  o.backend.sim_memory = 1024 * kGiB;  // like --sim-memory 1TiB on a machine with less RAM
  o.host_memory_limit = limit;
  return o;
}

ErrorKind kind_of(const std::function<void()>& fn, std::string* message) {
  try {
    fn();
  } catch (const Error& e) {
    *message = e.what();
    return e.kind();
  }
  ADD_FAILURE() << "no error raised";
  return ErrorKind::AssertionError;
}

TEST(HostMemoryBudget, RuntimeRaisesOutOfMemoryNamingHostMemory) {
  auto rt = Runtime::create(small_host(256 * kMiB));
  StoragePtr a = rt->allocate(Place::cuda(0), 200 * kMiB);
  std::string msg;
  EXPECT_EQ(kind_of([&] { rt->allocate(Place::cuda(1), 100 * kMiB); }, &msg), ErrorKind::OutOfMemoryError);
  EXPECT_NE(msg.find("CUDA out of memory. Tried to allocate 100.00 MiB. GPU 1 has a total capacity of 1024.00 GiB"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("simulated device memory is host memory"), std::string::npos) << msg;
  // Pageable tensors share the budget: PyTorch's CPU allocator error, the runtime still usable.
  EXPECT_EQ(kind_of([&] { rt->allocate(Place::pageable(), 100 * kMiB); }, &msg), ErrorKind::RuntimeError);
  EXPECT_NE(msg.find("DefaultCPUAllocator: not enough memory"), std::string::npos) << msg;
  StoragePtr virt = rt->allocate(Place::cuda(1), 100 * kGiB, /*virtual_bytes=*/true);  // no bytes: fits
  a.reset();
  rt->device_allocator(0).empty_cache();
  StoragePtr b = rt->allocate(Place::cuda(1), 100 * kMiB);  // room again once the cache gave it back
  EXPECT_NE(b->data(), nullptr);
}

TEST(HostMemoryBudget, OtherDevicesCachesAreGivenBackBeforeFailing) {
  auto rt = Runtime::create(small_host(256 * kMiB));
  rt->allocate(Place::cuda(0), 200 * kMiB).reset();  // freed, but cuda:0's allocator keeps the segment
  EXPECT_EQ(rt->device_allocator(0).stats().reserved, 200 * kMiB);
  StoragePtr b = rt->allocate(Place::cuda(1), 100 * kMiB);  // fits once cuda:0's cache gave the RAM back
  EXPECT_NE(b->data(), nullptr);
  EXPECT_EQ(rt->device_allocator(0).stats().reserved, 0u);
  rt->allocate(Place::cuda(0), 100 * kMiB).reset();  // cached on cuda:0 again
  StoragePtr host = rt->allocate(Place::pageable(), 100 * kMiB);  // pageable tensors get it back the same way
  EXPECT_NE(host->data(), nullptr);
}

TEST(HostMemoryBudget, CapacityErrorsStayPyTorchsAlone) {
  RuntimeOptions o = small_host(0);
  o.backend.sim_memory = 64 * kMiB;  // the device is what is small: no host-memory sentence
  auto rt = Runtime::create(o);
  std::string msg;
  EXPECT_EQ(kind_of([&] { rt->allocate(Place::cuda(0), 100 * kMiB); }, &msg), ErrorKind::OutOfMemoryError);
  EXPECT_EQ(msg.find("host memory"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ds

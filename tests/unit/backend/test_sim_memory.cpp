// Simulated device memory: capacity accounting, lazily backed pages, virtual (fake) allocations.
#include <gtest/gtest.h>

#include <cstring>

#include "backend/sim_backend.h"
#include "backend/virtual_address.h"
#include "core/errors.h"
#include "sim_test_util.h"

namespace ds {
namespace {

using test::kGiB;
using test::kMiB;

TEST(SimMemory, PropsAndCaps) {
  SimBackend b(2, 16 * kGiB, "pcie5-x16");
  EXPECT_EQ(b.name(), "sim");
  EXPECT_EQ(b.device_count(), 2);
  const BackendCaps c = b.caps();
  EXPECT_TRUE(c.async_copy);
  EXPECT_TRUE(c.pinned_host);
  EXPECT_TRUE(c.peer_copy);
  EXPECT_TRUE(c.simulated);
  const DeviceProps p = b.props(1);
  EXPECT_EQ(p.name, "Simulated CUDA device 1 (pcie5-x16)");
  EXPECT_EQ(p.total_bytes, 16 * kGiB);
  EXPECT_EQ(p.link, "pcie5-x16");
  EXPECT_TRUE(p.simulated);
  EXPECT_EQ(b.link().name, "pcie5-x16");
  EXPECT_EQ(b.now_ns(), 0u);
}

TEST(SimMemory, DefaultsAreTwoDevicesOf16GiBOnPcie4) {
  SimBackend b;
  EXPECT_EQ(b.device_count(), 2);
  EXPECT_EQ(b.props(0).total_bytes, 16 * kGiB);
  EXPECT_EQ(b.props(0).name, "Simulated CUDA device 0 (pcie4-x16)");
}

TEST(SimMemory, BadDeviceAndLinkRaise) {
  SimBackend b(1, kGiB);
  try {
    b.props(1);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::RuntimeError);
    EXPECT_STREQ(e.what(), "CUDA error: invalid device ordinal");
  }
  EXPECT_THROW(b.device_alloc(-1, 16, false), Error);
  EXPECT_THROW(SimBackend(1, kGiB, "isa"), Error);
  EXPECT_THROW(SimBackend(-1, kGiB), Error);
}

TEST(SimMemory, ZeroDevicesIsCudaOff) {
  SimBackend b(0, kGiB);
  EXPECT_EQ(b.device_count(), 0);
  EXPECT_THROW(b.device_alloc(0, 16, false), Error);
}

TEST(SimMemory, CapacityIsEnforcedAndFreedBytesReturn) {
  SimBackend b(1, kMiB);
  void* a = b.device_alloc(0, 512 * 1024, false);
  ASSERT_NE(a, nullptr);
  void* v = b.device_alloc(0, 256 * 1024, true);  // virtual bytes count too
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(b.device_free_bytes(0), 256u * 1024);
  EXPECT_EQ(b.device_alloc(0, 256 * 1024 + 1, false), nullptr);
  EXPECT_EQ(b.device_alloc(0, 256 * 1024 + 1, true), nullptr);
  void* c = b.device_alloc(0, 256 * 1024, false);  // exactly full
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(b.device_free_bytes(0), 0u);
  EXPECT_EQ(b.device_alloc(0, 1, false), nullptr);
  b.device_free(0, a, 512 * 1024, false);
  EXPECT_EQ(b.device_free_bytes(0), 512u * 1024);
  b.device_free(0, v, 256 * 1024, true);
  b.device_free(0, c, 256 * 1024, false);
  EXPECT_EQ(b.used_bytes(0), 0u);
  EXPECT_EQ(b.device_free_bytes(0), kMiB);
}

TEST(SimMemory, DevicesHaveSeparateCapacity) {
  SimBackend b(2, kMiB);
  void* a = b.device_alloc(0, kMiB, false);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(b.device_alloc(0, 1, false), nullptr);
  void* c = b.device_alloc(1, kMiB, false);
  ASSERT_NE(c, nullptr);
  b.device_free(0, a, kMiB, false);
  b.device_free(1, c, kMiB, false);
}

TEST(SimMemory, FreeOfUnknownPointerRaises) {
  SimBackend b(1, kMiB);
  int x = 0;
  try {
    b.device_free(0, &x, 4, false);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "CUDA error: invalid argument");
  }
  EXPECT_THROW(b.pinned_free(&x, 4), Error);
}

TEST(SimMemory, EightGiBOnASixteenGiBDeviceCostsAlmostNoResidentMemory) {
  SimBackend b(1, 16 * kGiB);
  const uint64_t before = test::resident_bytes();
  void* p = b.device_alloc(0, 8 * kGiB, false);
  ASSERT_NE(p, nullptr);
  // Touch one page in the middle: it reads as zero and keeps what is written.
  auto* bytes = static_cast<unsigned char*>(p);
  EXPECT_EQ(bytes[4 * kGiB], 0);
  bytes[4 * kGiB] = 7;
  EXPECT_EQ(bytes[4 * kGiB], 7);
  const uint64_t after = test::resident_bytes();
  EXPECT_LT(after - std::min(after, before), 64 * kMiB);
  EXPECT_EQ(b.device_free_bytes(0), 8 * kGiB);
  b.device_free(0, p, 8 * kGiB, false);
}

TEST(SimMemory, VirtualAllocationsTouchNothingAndNeverOverlap) {
  SimBackend b(2, 16 * kGiB);
  const uint64_t before = test::resident_bytes();
  void* a = b.device_alloc(0, 12 * kGiB, true);
  void* c = b.device_alloc(0, 4 * kGiB, true);
  void* d = b.device_alloc(1, kMiB, true);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(c, nullptr);
  ASSERT_NE(d, nullptr);
  EXPECT_LT(test::resident_bytes() - std::min(test::resident_bytes(), before), 16 * kMiB);
  EXPECT_TRUE(VirtualAddressSpace::contains(a));
  EXPECT_TRUE(VirtualAddressSpace::contains(c));
  EXPECT_TRUE(VirtualAddressSpace::contains(d));
  const auto pa = reinterpret_cast<uintptr_t>(a), pc = reinterpret_cast<uintptr_t>(c);
  EXPECT_GE(pc, pa + 12 * kGiB);  // ranges are disjoint
  EXPECT_EQ(b.device_free_bytes(0), 0u);
  EXPECT_EQ(b.device_alloc(0, 1, true), nullptr);
  b.memset(0, a, 1, 12 * kGiB);  // virtual storages hold no bytes: a no-op, not a crash
  b.device_free(0, a, 12 * kGiB, true);
  void* e = b.device_alloc(0, kMiB, true);
  EXPECT_NE(e, a);  // never reused
  EXPECT_GE(reinterpret_cast<uintptr_t>(e), pc + 4 * kGiB);
  EXPECT_FALSE(VirtualAddressSpace::contains(&before));
}

TEST(SimMemory, PinnedAllocationsHaveTheirOwnAccounting) {
  SimBackend b(1, kMiB);
  void* p = b.pinned_alloc(4 * kMiB);  // not limited by device capacity
  ASSERT_NE(p, nullptr);
  std::memset(p, 0x5A, 4 * kMiB);
  EXPECT_EQ(b.pinned_bytes(), 4 * kMiB);
  EXPECT_EQ(b.device_free_bytes(0), kMiB);
  b.pinned_free(p, 4 * kMiB);
  EXPECT_EQ(b.pinned_bytes(), 0u);
}

TEST(SimMemory, MemsetFillsDeviceMemory) {
  SimBackend b(1, kMiB);
  void* p = b.device_alloc(0, 4096, false);
  b.memset(0, p, 0xEE, 4096);
  EXPECT_TRUE(test::all_bytes(p, 4096, 0xEE));
  EXPECT_EQ(b.now_ns(), 0u);
  b.device_free(0, p, 4096, false);
}

}  // namespace
}  // namespace ds

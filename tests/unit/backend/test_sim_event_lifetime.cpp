// Event lifetime (cudaEventDestroy): a destroyed simulated event is forgotten (a loop that records events
// forever stays bounded) and its id is never handed out again, so a stale id stays invalid; the pinned host
// allocator destroys the events it was handed once they are done.
#include <gtest/gtest.h>

#include "alloc/caching_host_allocator.h"
#include "backend/sim_backend.h"
#include "core/errors.h"

namespace ds {
namespace {

TEST(SimEventLifetime, DestroyedEventIsInvalidAndIdsAreNotReused) {
  SimBackend b(2);
  const EventId first = b.record_event(0, kDefaultStream);
  EXPECT_TRUE(b.event_done(first));
  b.destroy_event(first);
  EXPECT_THROW(b.event_done(first), Error);
  EXPECT_THROW(b.synchronize_event(first), Error);
  const EventId second = b.record_event(0, kDefaultStream);
  EXPECT_NE(second.id, first.id);
  EXPECT_TRUE(b.event_done(second));
  b.destroy_event(EventId{1, second.id});  // wrong device: not this event, nothing forgotten
  EXPECT_TRUE(b.event_done(second));
  b.destroy_event(first);  // twice: harmless
}

TEST(SimEventLifetime, HostAllocatorDestroysTheEventsItHolds) {
  SimBackend b(1);
  CachingHostAllocator alloc(b);
  HostAllocation a = alloc.allocate(4096);
  const EventId copy = b.record_event(0, kDefaultStream);
  alloc.record_event(a.ptr, copy);
  alloc.free(a.ptr);
  alloc.allocate(4096);  // processes finished events: the block is reused and its event destroyed
  EXPECT_THROW(b.event_done(copy), Error);

  const EventId stray = b.record_event(0, kDefaultStream);
  alloc.record_event(reinterpret_cast<void*>(0x10), stray);  // not a pinned block: handed over, destroyed
  EXPECT_THROW(b.event_done(stray), Error);
}

}  // namespace
}  // namespace ds

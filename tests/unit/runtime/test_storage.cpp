// Storage frees itself through the StorageDeleter its maker gave it (c10's DataPtr): a storage needs no
// Runtime, and the Runtime's deleter gives every kind of block back and logs the free.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/runtime.h"
#include "runtime/storage.h"

namespace {

struct Released {
  int calls = 0;
  uint64_t id = 0;
  std::string owner;
};

class RecordingDeleter : public ds::StorageDeleter {
 public:
  explicit RecordingDeleter(Released& out) : out_(out) {}
  void release(const ds::Storage& s) noexcept override {
    ++out_.calls;
    out_.id = s.id();
    out_.owner = s.owner();
  }

 private:
  Released& out_;
};

std::shared_ptr<ds::Runtime> sim_runtime() {
  ds::RuntimeOptions o;
  o.backend.backend = "sim";
  o.backend.sim_devices = 1;
  o.backend.sim_memory = 1ull << 30;
  return ds::Runtime::create(o);
}

}  // namespace

TEST(Storage, CallsItsDeleterOnceWhenTheLastViewDies) {
  Released released;
  auto s = std::make_shared<ds::Storage>(7, ds::Place::pinned(), 64, true, ds::StorageBytes{}, 3,
                                         std::make_unique<RecordingDeleter>(released), ds::Role::Tensor);
  s->set_owner("model.fc.weight");
  auto view = s;
  s.reset();
  EXPECT_EQ(released.calls, 0);
  view.reset();
  EXPECT_EQ(released.calls, 1);
  EXPECT_EQ(released.id, 7u);
  EXPECT_EQ(released.owner, "model.fc.weight");  // the storage is still whole when its deleter runs
}

TEST(Storage, RuntimeStoragesGiveEveryKindOfBlockBack) {
  auto rt = sim_runtime();
  std::vector<ds::StoragePtr> storages = {rt->allocate(ds::Place::cuda(0), 1000),
                                          rt->allocate(ds::Place::pinned(), 1000),
                                          rt->allocate(ds::Place::pageable(), 1000)};
  bool adopted_released = false;
  std::vector<char> numpy_buffer(256);
  storages.push_back(rt->adopt_host_memory(numpy_buffer.data(), numpy_buffer.size(), [&] { adopted_released = true; }));
  EXPECT_EQ(rt->live_storage_count(), 4u);
  EXPECT_GE(storages[0]->block_bytes(), 1000u);
  EXPECT_EQ(storages[0]->block_address(), reinterpret_cast<uint64_t>(storages[0]->data()));
  EXPECT_EQ(storages[2]->block_bytes(), 1000u);
  EXPECT_EQ(storages[3]->data(), numpy_buffer.data());
  for (auto& s : storages) s->set_owner("w" + std::to_string(s->id()));
  const uint64_t device_id = storages[0]->id();

  // The storages keep the runtime (and its allocators) alive after the last handle to it is dropped.
  std::weak_ptr<ds::Runtime> weak = rt;
  ds::Runtime* raw = rt.get();
  rt.reset();
  ASSERT_FALSE(weak.expired());
  storages.erase(storages.begin());  // the device block
  EXPECT_EQ(raw->device_allocator(0).stats().allocated, 0u);
  EXPECT_EQ(raw->live_storage_count(), 3u);
  const ds::Event& free_event = raw->log().events().back();
  EXPECT_EQ(free_event.kind, ds::EventKind::Free);
  EXPECT_EQ(free_event.storage_id, device_id);
  EXPECT_EQ(free_event.label, "w" + std::to_string(device_id));
  storages.erase(storages.begin());  // pinned
  EXPECT_EQ(raw->host_allocator().stats().allocated, 0u);
  storages.clear();
  EXPECT_TRUE(adopted_released);
  EXPECT_TRUE(weak.expired());
}

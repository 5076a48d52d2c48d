// Storage: bytes in one place, from one allocator, with an id; no shape (c10's StorageImpl).
// Tensors are views onto a storage. The storage returns its bytes to its allocator when the last view dies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "alloc/caching_device_allocator.h"
#include "alloc/caching_host_allocator.h"
#include "core/place.h"
#include "trace/snapshot.h"

namespace ds {

class Runtime;

class Storage {
 public:
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  uint64_t id() const { return id_; }
  Place place() const { return place_; }
  size_t nbytes() const { return nbytes_; }
  size_t block_bytes() const;  // what the allocator handed out (rounded)
  uint64_t block_address() const;  // allocator block address (also for virtual blocks), 0 for pageable
  bool is_virtual() const { return virtual_; }
  // Raw address in its place (a device address for real CUDA); null for virtual or empty storages.
  void* data() const { return data_; }
  Runtime& runtime() const { return *runtime_; }

  // Annotations for views (who owns it, what it is for); never affect behaviour.
  Role role() const { return role_; }
  void set_role(Role r) { role_ = r; }
  const std::string& owner() const { return owner_; }
  void set_owner(std::string owner) { owner_ = std::move(owner); }
  uint64_t moved_from() const { return moved_from_; }
  void set_moved_from(uint64_t id) { moved_from_ = id; }
  uint64_t created_seq() const { return created_seq_; }
  // The dtype and shape of the tensor that created it (shown on hover).
  const std::string& dtype_name() const { return dtype_name_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  void set_view_info(std::string dtype_name, std::vector<int64_t> shape) {
    dtype_name_ = std::move(dtype_name);
    shape_ = std::move(shape);
  }

 private:
  friend class Runtime;
  Storage() = default;

  std::shared_ptr<Runtime> runtime_;  // keeps the allocators alive while any storage lives
  uint64_t id_ = 0;
  Place place_;
  size_t nbytes_ = 0;
  bool virtual_ = false;
  void* data_ = nullptr;
  DeviceAllocation device_block_;  // when place is a device
  HostAllocation pinned_block_;    // when place is pinned host memory
  Role role_ = Role::Tensor;
  std::string owner_;
  uint64_t moved_from_ = 0;
  uint64_t created_seq_ = 0;
  std::string dtype_name_;
  std::vector<int64_t> shape_;
  std::function<void()> external_release_;  // adopted host memory (torch.from_numpy): given back, not freed
};

using StoragePtr = std::shared_ptr<Storage>;

}  // namespace ds

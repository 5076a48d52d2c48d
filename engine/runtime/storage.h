// Storage: bytes in one place, from one allocator, with an id; no shape (c10's StorageImpl).
// Tensors are views onto a storage. As c10's StorageImpl holds a DataPtr whose deleter frees the bytes,
// a Storage holds the StorageDeleter its maker gave it (Runtime's gives the block back to its allocator
// and logs the free) and calls it when the last view dies: the storage knows no allocator and no Runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/place.h"
#include "core/role.h"

namespace ds {

class Storage;

// Gives a storage's bytes back to where they came from. Called once, from ~Storage, with the storage
// still whole (its id, place and owner are what the free is logged with). Must not throw.
class StorageDeleter {
 public:
  virtual ~StorageDeleter() = default;
  virtual void release(const Storage& storage) noexcept = 0;
};

// Where a storage's bytes are, as its allocator handed them out.
struct StorageBytes {
  void* data = nullptr;        // raw address in its place (a device address for real CUDA); null if virtual or empty
  size_t block_bytes = 0;      // what the allocator handed out (rounded)
  uint64_t block_address = 0;  // allocator block address (also for virtual blocks)
};

class Storage : public std::enable_shared_from_this<Storage> {
 public:
  // `created_seq`: the event log's sequence number of its Alloc event.
  Storage(uint64_t id, Place place, size_t nbytes, bool is_virtual, StorageBytes bytes, uint64_t created_seq,
          std::unique_ptr<StorageDeleter> deleter, Role role)
      : id_(id), place_(place), nbytes_(nbytes), virtual_(is_virtual), bytes_(bytes), created_seq_(created_seq),
        deleter_(std::move(deleter)), role_(role) {}
  ~Storage() {
    if (deleter_) deleter_->release(*this);
  }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  uint64_t id() const { return id_; }
  Place place() const { return place_; }
  size_t nbytes() const { return nbytes_; }
  size_t block_bytes() const { return bytes_.block_bytes; }
  uint64_t block_address() const { return bytes_.block_address; }
  bool is_virtual() const { return virtual_; }
  // Raw address in its place (a device address for real CUDA); null for virtual or empty storages.
  void* data() const { return bytes_.data; }

  // Note [Growing a storage]: Tensor.resize_ past the end of a storage gives that storage new, larger bytes
  // while every view of it keeps viewing it (c10's StorageImpl::set_data_ptr: the old bytes are copied over
  // and freed). Swaps what a Storage holds - id, size, bytes, alloc event, deleter - with `fresh`, a storage
  // of the same place allocated for the purpose; the annotations below stay. `fresh`, dropped afterwards,
  // then frees the old bytes under the old id. Runtime::grow_storage does the whole step.
  void swap_bytes(Storage& fresh) {
    std::swap(id_, fresh.id_);
    std::swap(nbytes_, fresh.nbytes_);
    std::swap(virtual_, fresh.virtual_);
    std::swap(bytes_, fresh.bytes_);
    std::swap(created_seq_, fresh.created_seq_);
    std::swap(deleter_, fresh.deleter_);
  }

  // Note [Scratch allocations] (runtime.h): bytes outside the allocator, for a composite op's intermediates.
  bool is_scratch() const { return scratch_; }
  void mark_scratch() { scratch_ = true; }

  // Note [Live registry] (runtime.h): the links of the list of live storages its maker keeps. They are the
  // storage's own, so that joining and leaving the list allocates and hashes nothing; only the registry
  // touches them, under its lock (mutable: a storage leaves the list from its deleter, which sees it const).
  mutable Storage* registry_prev = nullptr;
  mutable Storage* registry_next = nullptr;

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
  uint64_t id_;
  Place place_;
  size_t nbytes_;
  bool virtual_;
  StorageBytes bytes_;
  uint64_t created_seq_;
  std::unique_ptr<StorageDeleter> deleter_;
  Role role_;
  bool scratch_ = false;
  std::string owner_;
  uint64_t moved_from_ = 0;
  std::string dtype_name_;
  std::vector<int64_t> shape_;
};

using StoragePtr = std::shared_ptr<Storage>;

}  // namespace ds

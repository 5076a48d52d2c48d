// TensorImpl: a view onto a Storage (offset, sizes, strides, dtype) plus the autograd fields the
// engine tracks (requires_grad, grad, version counter). Views, .data and .detach() share a storage.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/device.h"
#include "core/dtype.h"
#include "runtime/storage.h"

namespace ds {

class TensorImpl;
using TensorPtr = std::shared_ptr<TensorImpl>;
using Shape = std::vector<int64_t>;

Shape contiguous_strides(const Shape& sizes);
int64_t shape_numel(const Shape& sizes);

class TensorImpl {
 public:
  TensorImpl(StoragePtr storage, Shape sizes, Shape strides, int64_t offset, DType dtype);

  uint64_t id() const { return id_; }  // unique per TensorImpl, for views and logs
  const StoragePtr& storage() const { return storage_; }
  const Shape& sizes() const { return sizes_; }
  const Shape& strides() const { return strides_; }
  int64_t offset() const { return offset_; }  // in elements
  DType dtype() const { return dtype_; }
  int64_t numel() const { return shape_numel(sizes_); }
  int dim() const { return int(sizes_.size()); }
  size_t nbytes() const { return size_t(numel()) * itemsize(dtype_); }
  bool is_contiguous() const;
  Device device() const;   // cpu for pageable and pinned storage, cuda:i for device storage
  bool is_pinned() const;  // page-locked host memory (false for every non-CPU tensor)
  bool is_virtual() const { return storage_->is_virtual(); }
  // Address of element 0 in the storage's place (null for virtual/empty).
  void* data_ptr() const;

  // Autograd fields (the graph itself lives in the Python layer).
  bool requires_grad = false;
  bool is_parameter = false;  // a torch.nn.Parameter
  TensorPtr grad;             // .grad, converted with its parameter by Module::_apply

  // Version counter, shared with views, .data and .detach() (bumped by in-place writes).
  uint64_t version() const { return version_->load(); }
  void bump_version() { version_->fetch_add(1); }

  // `param.data = other`: this object now views other's storage (identity kept, storage replaced).
  void set_data(const TensorImpl& other);
  // A new TensorImpl viewing the same storage; shares the version counter (views, .data, .detach()).
  TensorPtr alias(Shape sizes, Shape strides, int64_t offset) const;
  // `.data`: the same view of the same storage with its own version counter (PyTorch's VariableHooks::data,
  // so in-place writes through `.data` are invisible to autograd's saved-tensor checks).
  TensorPtr alias_unversioned() const;

 private:
  uint64_t id_;
  StoragePtr storage_;
  Shape sizes_;
  Shape strides_;
  int64_t offset_;
  DType dtype_;
  std::shared_ptr<std::atomic<uint64_t>> version_;
};

}  // namespace ds

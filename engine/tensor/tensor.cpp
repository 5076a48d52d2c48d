// TensorImpl: shape arithmetic, device/pinned queries, identity-keeping set_data and aliasing views.
#include "tensor/tensor.h"

#include "core/errors.h"

namespace ds {
namespace {
std::atomic<uint64_t> next_tensor_id{1};
}

// Products wrap (unsigned arithmetic, no UB) for absurd shapes; ds::empty refuses those before any use.
Shape contiguous_strides(const Shape& sizes) {
  Shape strides(sizes.size());
  uint64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = int64_t(stride);
    stride *= uint64_t(std::max<int64_t>(sizes[i], 1));
  }
  return strides;
}

int64_t shape_numel(const Shape& sizes) {
  uint64_t n = 1;
  for (int64_t s : sizes) n *= uint64_t(s);
  return int64_t(n);
}

TensorImpl::TensorImpl(StoragePtr storage, Shape sizes, Shape strides, int64_t offset, DType dtype)
    : id_(next_tensor_id.fetch_add(1)),
      storage_(std::move(storage)),
      sizes_(std::move(sizes)),
      strides_(std::move(strides)),
      offset_(offset),
      dtype_(dtype),
      version_(std::make_shared<std::atomic<uint64_t>>(0)) {}

bool TensorImpl::is_contiguous() const {
  if (numel() == 0) return true;  // c10: an empty tensor is contiguous whatever its strides
  int64_t expected = 1;
  for (size_t i = sizes_.size(); i-- > 0;) {
    if (sizes_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= sizes_[i];
  }
  return true;
}

Device TensorImpl::device() const {
  const Place p = storage_->place();
  if (p.kind == MemoryKind::Device) return Device(DeviceType::CUDA, p.device);
  return Device(DeviceType::CPU);
}

bool TensorImpl::is_pinned() const { return storage_->place().kind == MemoryKind::Pinned; }

void* TensorImpl::data_ptr() const {
  if (!storage_->data()) return nullptr;
  return static_cast<char*>(storage_->data()) + offset_ * int64_t(itemsize(dtype_));
}

void TensorImpl::set_data(const TensorImpl& other) {
  // Note [set_data keeps identity]: `param.data = new` swaps what this object views; every
  // reference to this TensorImpl (and its Python wrapper) now sees the new storage.
  storage_ = other.storage_;
  sizes_ = other.sizes_;
  strides_ = other.strides_;
  offset_ = other.offset_;
  dtype_ = other.dtype_;
}

TensorPtr TensorImpl::alias_unversioned() const {
  return std::make_shared<TensorImpl>(storage_, sizes_, strides_, offset_, dtype_);
}

TensorPtr TensorImpl::alias(Shape sizes, Shape strides, int64_t offset) const {
  auto t = std::make_shared<TensorImpl>(storage_, std::move(sizes), std::move(strides), offset, dtype_);
  t->version_ = version_;
  return t;
}

}  // namespace ds

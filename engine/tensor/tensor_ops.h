// Creating, converting and copying tensors with PyTorch's rules (SEMANTICS §2): `to` returns self
// when nothing would change, index-less `cuda` resolves to the current device, non_blocking semantics.
#pragma once

#include <optional>
#include <string>

#include "core/device.h"
#include "core/dtype.h"
#include "runtime/copy_origin.h"
#include "tensor/tensor.h"

namespace ds {

// Note [D2H hazard]: `cuda_t.to("cpu", non_blocking=True)` allocates its result in pinned memory and
// returns before the copy has run. Reading it before torch.cuda.synchronize() (or a stream/event sync)
// shows whatever the pinned block held; the simulated devices reproduce this deterministically.

class Runtime;

struct ToOptions {
  std::optional<Device> device;
  std::optional<DType> dtype;
  bool non_blocking = false;
  bool copy = false;
  CopyOrigin origin;  // who the copy is for (transfer owner) and the role of what it allocates
};

// Inside devicescope.virtual_mode(): every device allocation is virtual (empty_strided_on, so all of them).
void set_virtual_device_allocations(bool on);
bool virtual_device_allocations();

// torch.empty(sizes, dtype, device, pin_memory); virtual_bytes: placed and accounted, never materialised.
// `role`: what the new storage is (Role::Activation for what a forward makes).
TensorPtr empty(Runtime& rt, const Shape& sizes, DType dtype, Device device, bool pin_memory = false,
                bool virtual_bytes = false, Role role = Role::Tensor);
// A fresh tensor filled with zeros (cudaMemset / memset).
TensorPtr zeros(Runtime& rt, const Shape& sizes, DType dtype, Device device, Role role = Role::Tensor);

// Tensor.to(...): returns `self` (the same pointer) when device (after resolving `cuda`), dtype and
// copy=false leave nothing to do; otherwise a new contiguous tensor on the target, `self` untouched.
// A device->host non_blocking copy lands in pinned memory and is not synchronised (Note [D2H hazard]).
TensorPtr to(Runtime& rt, const TensorPtr& self, const ToOptions& options);
// The copies below are recorded with `origin` (see CopyOrigin).
TensorPtr cuda(Runtime& rt, const TensorPtr& self, std::optional<int> device = std::nullopt, bool non_blocking = false,
               const CopyOrigin& origin = {});
TensorPtr cpu(Runtime& rt, const TensorPtr& self, const CopyOrigin& origin = {});
// Returns self when already pinned; else a new CPU tensor in page-locked memory. Never touches a GPU.
TensorPtr pin_memory(Runtime& rt, const TensorPtr& self, const CopyOrigin& origin = {});
// dst.copy_(src): in place, across devices and dtypes (dst may be a view). Bumps dst's version.
void copy_(Runtime& rt, const TensorPtr& dst, const TensorPtr& src, bool non_blocking = false,
           const CopyOrigin& origin = {});
// Self when already contiguous.
TensorPtr contiguous(Runtime& rt, const TensorPtr& self, const CopyOrigin& origin = {});
// Same device and dtype, new storage.
TensorPtr clone(Runtime& rt, const TensorPtr& self, const CopyOrigin& origin = {});

// Views: share storage and version counter.
TensorPtr as_strided(const TensorPtr& self, const Shape& sizes, const Shape& strides, int64_t offset);
TensorPtr detach(const TensorPtr& self);  // requires_grad = false

// Host-readable address of element 0 for reading values (printing, compute on the host):
// pageable/pinned memory as is (an unsynchronised async copy into pinned memory shows stale data, as on a
// real GPU); simulated device memory after the device's queued work completes (like a D2H copy would).
// Returns null for real device memory (copy to the host instead). Raises for virtual tensors.
const void* host_readable(Runtime& rt, const TensorPtr& self);
// Host-writable address for filling values (factories, in-place ops); same rules, null for real devices.
void* host_writable(Runtime& rt, const TensorPtr& self);

// Strided element-wise conversion on host-addressable memory (dtype cast + layout change).
void convert_strided(void* dst, DType dst_dtype, const Shape& sizes, const Shape& dst_strides, const void* src,
                     DType src_dtype, const Shape& src_strides);

}  // namespace ds

// Tensor creation, `to`/`cuda`/`cpu`/`pin_memory`/`copy_` with PyTorch's identity and non_blocking rules.
#include "tensor/tensor_ops.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>

#include "core/errors.h"
#include "runtime/runtime.h"

namespace ds {
namespace {

const char* kVirtualRead =
    "Cannot read the values of a virtual tensor: DeviceScope places, accounts and moves it, but it has no bytes";

Place place_for(Runtime& rt, const Device& resolved, bool pin_memory) {
  if (resolved.type() == DeviceType::Meta)
    raise(ErrorKind::NotImplementedError, "DeviceScope does not model the meta device");
  if (resolved.is_cuda()) {
    check(!pin_memory, "Only dense CPU tensors can be pinned");
    return Place::cuda(resolved.index());
  }
  return pin_memory ? Place::pinned() : Place::pageable();
}

// Non-overlapping and dense: a permutation of a contiguous layout (what preserve_format keeps).
bool is_dense(const TensorImpl& t) {
  if (t.numel() == 0) return true;  // c10: an empty tensor is contiguous, so non-overlapping and dense
  // The common case first, without allocating: a contiguous (row-major) layout is dense.
  int64_t expected = 1;
  bool contiguous = true;
  for (int64_t i = t.dim() - 1; i >= 0 && contiguous; --i) {
    if (t.sizes()[size_t(i)] == 0) contiguous = false;  // empty: decided below
    if (t.sizes()[size_t(i)] <= 1) continue;
    contiguous = t.strides()[size_t(i)] == expected;
    expected *= t.sizes()[size_t(i)];
  }
  if (contiguous) return true;
  // c10's compute_non_overlapping_and_dense: dims of size 0 or 1 say nothing about the layout
  if (t.dim() == 1) return t.sizes()[0] < 2 || t.strides()[0] == 1;
  std::vector<size_t> order(size_t(t.dim()));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return t.strides()[a] < t.strides()[b]; });
  expected = 1;
  for (size_t i : order) {
    if (t.sizes()[i] < 2) continue;
    if (t.strides()[i] != expected) return false;
    expected *= t.sizes()[i];
  }
  return true;
}

// ATen's infer_dense_strides: the dims ordered by stride (equal strides: the larger size outer; a stride-0
// dim keeps its place), then dense strides in that order, so a strided view's copy keeps its dim order.
Shape infer_dense_strides(const Shape& sizes, const Shape& strides) {
  const size_t nd = sizes.size();
  std::vector<size_t> perm(nd);
  for (size_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;  // perm[0]: the innermost dim
  auto should_swap = [&](size_t d0, size_t d1) {
    if (strides[d0] == 0 || strides[d1] == 0) return 0;
    if (strides[d0] != strides[d1]) return strides[d0] > strides[d1] ? 1 : -1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  };
  for (size_t i = 1; i < nd; ++i) {
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  Shape out(nd);
  int64_t cur = 1;
  for (size_t d : perm) {
    out[d] = cur;
    cur *= std::max<int64_t>(sizes[d], 1);
  }
  return out;
}

// memory_format=torch.preserve_format: dense tensors keep their strides, other strided ones get dense
// strides in their own dim order (empty_like / _to_copy in ATen).
Shape preserved_strides(const TensorImpl& t) { return is_dense(t) ? t.strides() : infer_dense_strides(t.sizes(), t.strides()); }

std::string shape_text(const Shape& sizes) {
  std::string dims;
  for (int64_t x : sizes) dims += (dims.empty() ? "" : ", ") + std::to_string(x);
  return "[" + dims + "]";
}

// Bytes a layout covers, refusing sizes whose arithmetic overflows 64 bits (c10's computeStorageNbytes).
size_t storage_nbytes(const Shape& sizes, const Shape& strides, DType dtype) {
  uint64_t span = 1;  // elements covered by the layout
  bool overflow = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return 0;
    uint64_t extent = 0;
    overflow |= __builtin_mul_overflow(uint64_t(sizes[i] - 1), uint64_t(strides[i]), &extent);
    overflow |= __builtin_add_overflow(span, extent, &span);
  }
  uint64_t bytes = 0;
  overflow |= __builtin_mul_overflow(span, uint64_t(itemsize(dtype)), &bytes);
  overflow |= bytes > uint64_t(INT64_MAX);
  check_lazy(!overflow, [&] { return "Storage size calculation overflowed with sizes=" + shape_text(sizes); });
  return size_t(bytes);
}

// Inside devicescope.virtual_mode() (a virtual step, issue 25) every device allocation is virtual: a real host
// tensor moved to the GPU, a kernel's buffers, a workspace. Nothing then lands in the device's real pool, so the
// virtual run's blocks share segments exactly as the real run's do. One flag per process, like the Python mode.
std::atomic<bool> g_virtual_device_allocations{false};

TensorPtr empty_strided_on(Runtime& rt, const Shape& sizes, const Shape& strides, DType dtype, Place place,
                           bool virtual_bytes, Role role) {
  if (!place.is_host() && g_virtual_device_allocations) virtual_bytes = true;
  StoragePtr storage = rt.allocate(place, storage_nbytes(sizes, strides, dtype), virtual_bytes, role);
  storage->set_view_info(dtype_name(dtype), sizes);
  return std::make_shared<TensorImpl>(std::move(storage), sizes, strides, 0, dtype);
}

bool same_dense_layout(const TensorImpl& a, const TensorImpl& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() && a.strides() == b.strides() && is_dense(a) && is_dense(b);
}

// Byte range [offset, offset + span) of a dense tensor inside its storage.
size_t dense_byte_offset(const TensorImpl& t) { return size_t(t.offset()) * itemsize(t.dtype()); }
size_t dense_byte_span(const TensorImpl& t) { return size_t(t.numel()) * itemsize(t.dtype()); }

// src broadcast to `sizes` (copy_ broadcasts its source): stride 0 on expanded dimensions.
Shape broadcast_src_strides(const TensorImpl& src, const Shape& sizes) {
  check_lazy(src.dim() <= int(sizes.size()), [&] {
    return "output with shape [" + std::to_string(sizes.size()) + " dims] doesn't match the broadcast shape";
  });
  Shape strides(sizes.size(), 0);
  const size_t lead = sizes.size() - size_t(src.dim());
  for (size_t i = 0; i < size_t(src.dim()); ++i) {
    const int64_t s = src.sizes()[i], d = sizes[lead + i];
    if (s == d) strides[lead + i] = src.strides()[i];
    else if (s == 1) strides[lead + i] = 0;
    else raise(ErrorKind::RuntimeError, "The size of tensor a (" + std::to_string(d) +
                                            ") must match the size of tensor b (" + std::to_string(s) +
                                            ") at non-singleton dimension " + std::to_string(lead + i));
  }
  return strides;
}

// Host-addressable view of `t`: itself when its memory is readable on the host, else (real GPU memory)
// its storage's bytes copied to pageable memory - a recorded transfer - viewed with the same layout.
TensorPtr host_view_of(Runtime& rt, const TensorPtr& t, const CopyOrigin& origin) {
  if (host_readable(rt, t)) return t;
  StoragePtr mirror = rt.allocate(Place::pageable(), t->storage()->nbytes(), false, origin.role);
  rt.copy_bytes(*mirror, 0, *t->storage(), 0, t->storage()->nbytes(), false, -1, origin);
  return std::make_shared<TensorImpl>(std::move(mirror), t->sizes(), t->strides(), t->offset(), t->dtype());
}

// dst and src in one place: convert on host addresses. Real GPU memory is converted through a host
// mirror of the destination's storage that is written back whole (DeviceScope computes on the host).
void copy_within_place(Runtime& rt, const TensorPtr& dst, const TensorPtr& src, const CopyOrigin& origin) {
  const TensorPtr readable = host_view_of(rt, src, origin);
  const Shape src_strides = broadcast_src_strides(*readable, dst->sizes());
  if (void* d = host_writable(rt, dst)) {
    convert_strided(d, dst->dtype(), dst->sizes(), dst->strides(), host_readable(rt, readable), readable->dtype(),
                    src_strides);
    return;
  }
  const TensorPtr mirror = host_view_of(rt, dst, origin);
  convert_strided(mirror->data_ptr(), dst->dtype(), dst->sizes(), dst->strides(), host_readable(rt, readable),
                  readable->dtype(), src_strides);
  rt.copy_bytes(*dst->storage(), 0, *mirror->storage(), 0, dst->storage()->nbytes(), false, -1, origin);
}

}  // namespace

void set_virtual_device_allocations(bool on) { g_virtual_device_allocations = on; }
bool virtual_device_allocations() { return g_virtual_device_allocations; }

TensorPtr empty(Runtime& rt, const Shape& sizes, DType dtype, Device device, bool pin_memory, bool virtual_bytes,
                Role role) {
  for (int64_t s : sizes)
    check_lazy(s >= 0, [&] { return "Trying to create tensor with negative dimension " + std::to_string(s) + ": " + shape_text(sizes); });
  const Place place = place_for(rt, rt.resolve(device), pin_memory);
  return empty_strided_on(rt, sizes, contiguous_strides(sizes), dtype, place, virtual_bytes, role);
}

TensorPtr zeros(Runtime& rt, const Shape& sizes, DType dtype, Device device, Role role) {
  TensorPtr t = empty(rt, sizes, dtype, device, false, false, role);
  if (t->is_virtual() || t->nbytes() == 0) return t;
  const Place p = t->storage()->place();
  if (p.kind == MemoryKind::Device) rt.backend().memset(p.device, t->data_ptr(), 0, t->nbytes());
  else std::memset(t->data_ptr(), 0, t->nbytes());
  return t;
}

namespace {
void copy_values(Runtime& rt, const TensorPtr& dst, const TensorPtr& src, bool non_blocking, const CopyOrigin& origin);
}  // namespace

TensorPtr to(Runtime& rt, const TensorPtr& self, const ToOptions& o) {
  const Device target = o.device ? rt.resolve(*o.device) : self->device();
  const DType dtype = o.dtype.value_or(self->dtype());
  // TensorConversions.cpp to_will_alias: nothing to change and no copy requested -> the same tensor.
  if (!o.copy && dtype == self->dtype() && target == self->device()) return self;

  // _to_copy: a non_blocking device->host copy lands in pinned memory so it can really be async.
  const bool pin_out = o.non_blocking && self->device().is_cuda() && target.is_cpu();
  const Place place = place_for(rt, target, pin_out);
  TensorPtr out = empty_strided_on(rt, self->sizes(), preserved_strides(*self), dtype, place, self->is_virtual(),
                                   o.origin.role);
  out->storage()->set_moved_from(self->storage()->id());
  // A moved parameter/buffer/gradient keeps its role; a copy of a pinned staging buffer is just a tensor;
  // the pinned landing buffer of a plain tensor's non_blocking D2H is pinned staging.
  Role role = self->storage()->role();
  if (role == Role::PinnedStaging) role = Role::Tensor;
  if (pin_out && (role == Role::Tensor || role == Role::Activation)) role = Role::PinnedStaging;
  out->storage()->set_role(role);
  out->storage()->set_owner(self->storage()->owner());
  copy_values(rt, out, self, o.non_blocking, o.origin);
  return out;
}

TensorPtr cuda(Runtime& rt, const TensorPtr& self, std::optional<int> device, bool non_blocking,
               const CopyOrigin& origin) {
  ToOptions o;
  o.device = device ? Device(DeviceType::CUDA, *device) : Device(DeviceType::CUDA);
  o.non_blocking = non_blocking;
  o.origin = origin;
  return to(rt, self, o);
}

TensorPtr cpu(Runtime& rt, const TensorPtr& self, const CopyOrigin& origin) {
  ToOptions o;
  o.device = Device(DeviceType::CPU);
  o.origin = origin;
  return to(rt, self, o);
}

TensorPtr pin_memory(Runtime& rt, const TensorPtr& self, const CopyOrigin& origin) {
  check_lazy(self->device().is_cpu(), [&] {
    return "cannot pin '" + std::string("torch.cuda.") + legacy_type_name(self->dtype()) + "' only dense CPU tensors can be pinned";
  });
  if (self->is_pinned()) return self;
  TensorPtr out = empty_strided_on(rt, self->sizes(), preserved_strides(*self), self->dtype(), Place::pinned(),
                                   self->is_virtual(), origin.role);
  out->storage()->set_role(Role::PinnedStaging);
  out->storage()->set_moved_from(self->storage()->id());
  copy_values(rt, out, self, false, origin);
  return out;
}

// Tensor.copy_: an in-place write, so dst's version counter moves (autograd's saved-tensor check sees it).
void copy_(Runtime& rt, const TensorPtr& dst, const TensorPtr& src, bool non_blocking, const CopyOrigin& origin) {
  check(!(src->is_virtual() && !dst->is_virtual()), kVirtualRead);
  dst->bump_version();
  copy_values(rt, dst, src, non_blocking, origin);
}

namespace {
// The copy itself. to / clone / contiguous / pin_memory fill their fresh result with it without a version bump:
// ATen's _to_copy and clone run copy_ below the autograd layer, so a new tensor starts at version 0 (x.float(),
// x.t().contiguous(), x.cuda() all report _version 0 in PyTorch).
void copy_values(Runtime& rt, const TensorPtr& dst, const TensorPtr& src, bool non_blocking, const CopyOrigin& origin) {
  check(!(src->is_virtual() && !dst->is_virtual()), kVirtualRead);
  if (dst->numel() == 0) return;
  const Place dp = dst->storage()->place(), sp = src->storage()->place();

  // Fast path: identical dense layouts move as one byte range (the only path that may stay async).
  if (same_dense_layout(*dst, *src)) {
    rt.copy_bytes(*dst->storage(), dense_byte_offset(*dst), *src->storage(), dense_byte_offset(*src),
                  dense_byte_span(*dst), non_blocking, -1, origin);
    return;
  }
  if (dst->is_virtual()) {  // virtual: account the transfer, no values
    rt.copy_bytes(*dst->storage(), 0, *src->storage(), 0, dst->nbytes(), non_blocking, -1, origin);
    return;
  }
  const bool same_place = dp.is_host() == sp.is_host() && (dp.is_host() || dp.device == sp.device);
  if (same_place) {
    copy_within_place(rt, dst, src, origin);
    return;
  }
  // Across places: like PyTorch, make the source contiguous in the destination dtype on its own side
  // (on the host when that side is a real GPU), copy the bytes, then lay them out on the destination
  // side. Temporaries force a blocking copy so no queued copy outlives the buffers it reads.
  TensorPtr staged_src = src;
  if (!(src->dtype() == dst->dtype() && src->sizes() == dst->sizes() && src->is_contiguous())) {
    const TensorPtr readable = host_view_of(rt, src, origin);
    const Place stage_place = readable == src ? sp : Place::pageable();
    staged_src = empty_strided_on(rt, dst->sizes(), contiguous_strides(dst->sizes()), dst->dtype(), stage_place, false,
                                  origin.role);
    convert_strided(host_writable(rt, staged_src), dst->dtype(), dst->sizes(), staged_src->strides(),
                    host_readable(rt, readable), src->dtype(), broadcast_src_strides(*readable, dst->sizes()));
    non_blocking = false;
  }
  if (dst->is_contiguous()) {
    rt.copy_bytes(*dst->storage(), dense_byte_offset(*dst), *staged_src->storage(), dense_byte_offset(*staged_src),
                  dst->nbytes(), non_blocking, -1, origin);
    return;
  }
  TensorPtr landing =
      empty_strided_on(rt, dst->sizes(), contiguous_strides(dst->sizes()), dst->dtype(), dp, false, origin.role);
  rt.copy_bytes(*landing->storage(), 0, *staged_src->storage(), dense_byte_offset(*staged_src), dst->nbytes(), false,
                -1, origin);
  copy_within_place(rt, dst, landing, origin);
}
}  // namespace

TensorPtr contiguous(Runtime& rt, const TensorPtr& self, const CopyOrigin& origin) {
  if (self->is_contiguous()) return self;
  TensorPtr out = empty_strided_on(rt, self->sizes(), contiguous_strides(self->sizes()), self->dtype(),
                                   self->storage()->place(), self->is_virtual(), origin.role);
  copy_values(rt, out, self, false, origin);
  return out;
}

TensorPtr clone(Runtime& rt, const TensorPtr& self, const CopyOrigin& origin) {
  TensorPtr out = empty_strided_on(rt, self->sizes(), preserved_strides(*self), self->dtype(),
                                   self->storage()->place(), self->is_virtual(), origin.role);
  copy_values(rt, out, self, false, origin);
  return out;
}

TensorPtr as_strided(const TensorPtr& self, const Shape& sizes, const Shape& strides, int64_t offset) {
  check(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  return self->alias(sizes, strides, offset);
}

TensorPtr detach(const TensorPtr& self) {
  TensorPtr t = self->alias(self->sizes(), self->strides(), self->offset());
  t->requires_grad = false;
  return t;
}

const void* host_readable(Runtime& rt, const TensorPtr& self) {
  // Pinned memory is where async copies land: a read before they do is marked on the copy.
  if (self->storage()->place().kind == MemoryKind::Pinned) rt.note_host_read(*self->storage());
  return host_writable(rt, self);
}

void* host_writable(Runtime& rt, const TensorPtr& self) {
  check(!self->is_virtual(), kVirtualRead);
  const Place p = self->storage()->place();
  if (p.kind != MemoryKind::Device) return self->data_ptr();  // pinned: no sync (Note [D2H hazard])
  if (!rt.simulated()) return nullptr;
  // Reading device memory orders after the device's queued work, as a D2H copy on its stream would.
  rt.settle_for_host_access(p.device);
  return self->data_ptr();
}

}  // namespace ds

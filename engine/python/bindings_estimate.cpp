// What `devicescope estimate` reads of the runtime (devicescope/_estimate_track.py): the device allocations and
// frees since a sequence number, with the allocator's figure after each (so a block's bytes are what c10 counts,
// rounding and unsplit remainders included) and the role a freed storage had; the roles of live storages.
#include <pybind11/stl.h>

#include "bindings_common.h"

namespace ds::python {

void bind_estimate(py::module_& m) {
  // Device Alloc/Free events from `first_seq` on, oldest first, as tuples
  // (seq, is_alloc, device, storage_id, allocated_after, role, label): role is int(ds::Role) the storage had when
  // freed (Tensor for an Alloc: its tag comes later), label its owner when freed. Scans back from the newest, so
  // a caller draining often pays for the new events only.
  m.def("estimate_events_since", [](uint64_t first_seq) {
    Runtime& r = rt();
    const auto& events = r.log().events();
    auto it = events.end();
    while (it != events.begin() && std::prev(it)->seq >= first_seq) --it;
    py::list out;
    for (; it != events.end(); ++it) {
      if (it->place.kind != MemoryKind::Device) continue;
      if (it->kind != EventKind::Alloc && it->kind != EventKind::Free) continue;
      out.append(py::make_tuple(it->seq, it->kind == EventKind::Alloc, it->place.device, it->storage_id,
                                it->allocated_after, int(it->role), it->label));
    }
    return out;
  });
  // {storage id: (int(ds::Role), owner)} of the live device storages: what the ones never freed ended up as.
  m.def("estimate_live_roles", [] {
    py::dict out;
    for (const StoragePtr& s : rt().live_storages())
      if (s->place().kind == MemoryKind::Device) out[py::int_(s->id())] = py::make_tuple(int(s->role()), s->owner());
    return out;
  });
  // UntypedStorage.resize_ (Runtime::resize_storage): FSDP's free_storage / alloc_storage of unsharded
  // parameters (torch/distributed/fsdp/_fully_shard.py); every view of the storage sees the change.
  m.def("resize_storage", [](const TensorPtr& t, size_t nbytes) { rt().resize_storage(t->storage(), nbytes); });
  // The event log's window (Note [Bounded event log]): estimate drains often, but says so if events were lost.
  m.def("estimate_first_kept_seq", [] {
    const auto& events = rt().log().events();
    return events.empty() ? rt().log().last_seq() + 1 : events.front().seq;
  });
}

}  // namespace ds::python

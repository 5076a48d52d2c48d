// Runtime::snapshot(): the read-only picture views draw (places, storages, segments, transfers, names).
#include <algorithm>
#include <unordered_map>

#include "runtime/runtime.h"

namespace ds {


Snapshot Runtime::snapshot(const ObjectGraph& objects) const {
  Snapshot snap;
  auto* self = const_cast<Runtime*>(this);  // allocator stats are logically const
  snap.seq = log_.last_seq();
  snap.time_ns = backend_->now_ns();
  snap.backend = backend_->name();
  snap.simulated = backend_->caps().simulated;
  snap.link = backend_->link().name;

  PlaceInfo pageable{Place::pageable(), "host (pageable)", "ordinary CPU memory", pageable_bytes_, pageable_bytes_, 0, false};
  const HostAllocatorStats hs = host_allocator_->stats();
  PlaceInfo pinned{Place::pinned(), "host (pinned)", "page-locked CPU memory (caching host allocator)", hs.allocated,
                   hs.reserved, 0, snap.simulated};
  snap.places = {pageable, pinned};
  for (int i = 0; i < backend_->device_count(); ++i) {
    const DeviceProps p = backend_->props(i);
    const DeviceAllocatorStats st = self->device_allocators_[size_t(i)]->stats();
    snap.places.push_back({Place::cuda(i), "cuda:" + std::to_string(i), p.name, st.allocated, st.reserved,
                           p.total_bytes, p.simulated});
    for (SegmentInfo& seg : self->device_allocators_[size_t(i)]->segments()) snap.segments.push_back(std::move(seg));
  }
  for (SegmentInfo& seg : host_allocator_->segments()) snap.segments.push_back(std::move(seg));

  // Which names keep each storage alive: the Python layer's paths when it gave them (they follow
  // lists, dicts and objects: "saved[0]"), else the names pointing straight at a tensor and module rows.
  std::unordered_map<uint64_t, std::vector<std::string>> holders;
  if (!objects.holders.empty()) {
    for (const StorageHolders& h : objects.holders) holders[h.storage_id] = h.names;
  } else {
    std::unordered_map<uint64_t, const ObjectNode*> nodes;
    for (const ObjectNode& n : objects.nodes) nodes[n.id] = &n;
    for (const ObjectEdge& e : objects.edges) {
      auto from = nodes.find(e.from), to = nodes.find(e.to);
      if (from == nodes.end() || to == nodes.end()) continue;
      if (from->second->kind == ObjectKind::Name && to->second->storage_id)
        holders[to->second->storage_id].push_back(from->second->label);
    }
    for (const ModuleEntry& m : objects.modules)
      if (m.storage_id) holders[m.storage_id].push_back(m.path);
  }

  for (const StoragePtr& s : live_storages()) {
    StorageInfo info;
    info.id = s->id();
    info.place = s->place();
    info.nbytes = s->nbytes();
    info.block_bytes = s->block_bytes();
    info.address = s->block_address();
    info.virtual_bytes = s->is_virtual();
    info.role = s->role();
    info.owner = s->owner();
    info.dtype = s->dtype_name();
    info.shape = s->shape();
    info.created_seq = s->created_seq();
    info.moved_from = s->moved_from();
    if (auto h = holders.find(info.id); h != holders.end()) info.holders = h->second;
    // A plain tensor has no owner of its own: the first name holding it is what a user calls it.
    if (info.owner.empty() && !info.holders.empty()) info.owner = info.holders.front();
    // Segment blocks only know addresses; tag them with their storage for hover and colouring.
    snap.storages.push_back(std::move(info));
  }
  // A destination of a copy still in flight holds the bytes from before the copy until a sync point
  // folds it (Note [Host reads of in-flight copies]).
  if (log_.has_pending()) {
    std::vector<uint64_t> pending = log_.in_flight_destinations();
    std::sort(pending.begin(), pending.end());
    for (StorageInfo& info : snap.storages) info.in_flight = std::binary_search(pending.begin(), pending.end(), info.id);
  }
  std::sort(snap.storages.begin(), snap.storages.end(),
            [](const StorageInfo& a, const StorageInfo& b) { return a.id < b.id; });
  std::unordered_map<uint64_t, uint64_t> by_address;
  for (const StorageInfo& s : snap.storages)
    if (s.address) by_address[s.address] = s.id;
  for (SegmentInfo& seg : snap.segments)
    for (BlockInfo& b : seg.blocks)
      if (b.allocated)
        if (auto it = by_address.find(b.address); it != by_address.end()) b.storage_id = it->second;

  snap.transfers.assign(log_.transfers().begin(), log_.transfers().end());
  snap.events_dropped = log_.totals().events_dropped;
  snap.transfers_dropped = log_.totals().transfers_dropped;
  snap.window_note = log_.window_note();
  snap.objects = objects;
  return snap;
}

}  // namespace ds

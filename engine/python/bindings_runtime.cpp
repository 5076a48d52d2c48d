// Runtime-level bindings: devices, the current device, the engine hooks (owner hints, module moves,
// roles) and the object graph the names builder hands to the views.
#include <pybind11/stl.h>

#include "bindings_common.h"
#include "copy_origin.h"
#include "core/errors.h"
#include "trace/atomic_file.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_roles.h"
#include "trace/transfer_fields.h"

namespace ds::python {
namespace {

// A role as the torch package spells it ("optimizer_state"; the exports' "optimizer-state" too).
Role role_from_python(const std::string& name) {
  if (const auto r = role_from_name(name)) return *r;
  raise(ErrorKind::ValueError, "unknown DeviceScope role '" + name + "'");
}

py::object field_to_py(const TransferField& f, const TransferRecord& r) {
  const FieldValue v = f.get(r);
  switch (f.kind) {
    case FieldKind::U64: return py::int_(v.u);
    case FieldKind::I32: return py::int_(v.i);
    case FieldKind::Double:
    case FieldKind::Rate: return py::float_(v.d);
    case FieldKind::Bool: return py::bool_(v.b);
    case FieldKind::String: return py::str(v.s.data(), v.s.size());
    case FieldKind::PlaceText: return py::str(v.place.str());
    case FieldKind::RouteText: return py::str(route_name(v.route));
  }
  return py::none();
}

}  // namespace

void bind_runtime(py::module_& m) {
  m.def("backend_name", [] { return rt().backend().name(); });
  m.def("backend_simulated", [] { return rt().backend().caps().simulated; });
  m.def("backend_note", [] { return rt().backend_note(); });
  m.def("device_count", [] { return rt().device_count(); });
  m.def("current_device", [] { return rt().current_device(); });
  m.def("set_device", [](int device) { rt().set_current_device(device); });
  m.def("check_cuda_device", [](int device) { rt().check_cuda_device(device); });
  // Resolves an index-less cuda to the current device; returns (type, index or None).
  m.def("resolve_device", [](py::handle device) {
    Device d;
    if (!device_from_py(device, d)) raise(ErrorKind::TypeError, "expected a device");
    const Device r = rt().resolve(d);
    return py::make_tuple(device_type_name(r.type()), r.has_index() ? py::object(py::int_(r.index())) : py::none());
  });
  // torch.device("...") parsing with PyTorch's errors: (type, index or None).
  m.def("parse_device", [](const std::string& text) {
    const Device d = Device::parse(text);
    return py::make_tuple(device_type_name(d.type()), d.has_index() ? py::object(py::int_(d.index())) : py::none());
  });
  m.def("device_from_type_and_index", [](const std::string& type, int64_t index) {
    const Device d = Device::from_type_and_index(type, index);
    return py::make_tuple(device_type_name(d.type()), py::int_(d.index()));
  });
  m.def("device_properties", [](int device) {
    rt().check_cuda_device(device);
    const DeviceProps p = rt().backend().props(device);
    py::dict d;
    d["name"] = p.name;
    d["total_memory"] = p.total_bytes;
    d["link"] = p.link;
    d["simulated"] = p.simulated;
    d["major"] = p.major;  // compute capability (sim: the link profile's architecture)
    d["minor"] = p.minor;
    return d;
  });

  m.def("synchronize", [](int device) {
    if (device < 0) rt().synchronize();
    else rt().synchronize_device(device);
  });
  m.def("poll", [] { rt().poll(); });
  // Note [Scratch allocations] (runtime.h): torch/_scratch.py's scope around a composite op's intermediates.
  m.def("scratch_enter", [] { Runtime::enter_scratch(); });
  m.def("scratch_exit", [] { Runtime::exit_scratch(); });
  m.def("scratch_depth", [] { return Runtime::scratch_depth(); });
  m.def("now_ns", [] { return rt().backend().now_ns(); });
  // torch.utils.benchmark on simulated devices: the id of the newest transfer recorded (0: none yet), and the
  // host time measured for the copies after `after_id` that the modelled clock does not see (pin_memory's
  // memcpy and other host-to-host transfers: simulated == false), newest scanned first, so a short timed
  // block costs little however long the run. Returns (nanoseconds, copies counted).
  m.def("last_transfer_id", [] {
    const auto& ts = rt().log().transfers();
    return ts.empty() ? uint64_t(0) : ts.back().id;
  });
  m.def("host_copy_ns_after", [](uint64_t after_id) {
    const auto& ts = rt().log().transfers();
    double ns = 0;
    uint64_t copies = 0;
    for (auto it = ts.rbegin(); it != ts.rend() && it->id > after_id; ++it) {
      if (!it->simulated && it->complete) {
        ns += it->measured_ns;
        ++copies;
      }
    }
    return py::make_tuple(ns, copies);
  });

  // Engine hooks (torch._devicescope_hooks): names and roles for the views, never behaviour.
  m.def("note_module_move", [](bool begin, const std::string& module, const std::string& target) {
    rt().note_module_move(begin, module, target);
  });
  m.def("note", [](const std::string& text) { rt().note(text); });
  m.def("tag", [](const TensorPtr& impl, const std::string& role, const std::string& owner) {
    const Role r = role_from_python(role);
    impl->storage()->set_role(r);
    if (!owner.empty()) impl->storage()->set_owner(owner);
  });
  // The owner of copies and the role of new storages are the caller's context, passed with each call
  // (copy_origin.h); the hooks keep them in these two ContextVars, the role as int(ds::Role).
  m.def("register_copy_origin", [](py::handle owner_var, py::handle role_var) {
    register_copy_origin(owner_var, role_var);
  });
  m.def("role_code", [](const std::string& role) { return int(role_from_python(role)); });
  m.def("role_names", [] {  // every role as tag() takes it, in enum order (torch._devicescope_hooks.ROLES)
    py::tuple out(std::size(kRoles));
    for (size_t i = 0; i < std::size(kRoles); ++i) out[i] = py::str(kRoles[i].python_name);
    return out;
  });
  m.def("copy_origin", [] {  // (owner, role name) as the engine sees them from this thread (tests)
    const CopyOrigin o = current_copy_origin();
    return py::make_tuple(o.owner, role_name(o.role));
  });

  m.def("live_storage_count", [] { return rt().live_storage_count(); });
  m.def("event_count", [] { return rt().log().events().size(); });
  m.def("transfer_count", [] { return rt().log().transfers().size(); });
  // The bounded log's totals (Note [Bounded event log]): what was recorded and what left the window.
  m.def("log_totals", [] {
    const LogTotals& t = rt().log().totals();
    py::dict d;
    d["events"] = t.events;
    d["events_dropped"] = t.events_dropped;
    d["transfers"] = t.transfers;
    d["transfers_dropped"] = t.transfers_dropped;
    d["transfer_bytes"] = t.transfer_bytes;
    d["event_window"] = rt().log().limits().events;
    d["transfer_window"] = rt().log().limits().transfers;
    d["note"] = rt().log().window_note();
    return d;
  });
  // The transfers recorded so far, as dicts keyed by kTransferFields' names (tests and the lessons read them).
  m.def("transfers", [] {
    rt().poll();
    py::list out;
    for (const TransferRecord& r : rt().log().transfers()) {
      py::dict d;
      for (const TransferField& f : kTransferFields) d[py::str(f.name.data(), f.name.size())] = field_to_py(f, r);
      out.append(std::move(d));
    }
    return out;
  });
  // torch.profiler reads what the runtime recorded while it was active: the events from `first_seq` on, as
  // (seq, kind, time_ns, place, storage_id, bytes, transfer_id, label) tuples (newest scanned first, so a
  // short window costs little however long the run).
  m.def("events_since", [](uint64_t first_seq) {
    Runtime& r = rt();
    r.poll();
    const auto& events = r.log().events();
    auto it = events.end();
    while (it != events.begin() && std::prev(it)->seq >= first_seq) --it;
    py::list out;
    for (; it != events.end(); ++it)
      out.append(py::make_tuple(it->seq, event_kind_name(it->kind), it->time_ns, it->place.str(), it->storage_id,
                                it->bytes, it->transfer_id, it->label));
    return out;
  });
  // torch.cuda.memory_stats / memory_summary: the caching allocator's segments on a device, each as
  // (size, small_pool, [(block size, allocated), ...]) in address order.
  m.def("memory_segments", [](int device) {
    py::list out;
    for (const SegmentInfo& seg : rt().device_allocator(device).segments()) {
      py::list blocks;
      for (const BlockInfo& b : seg.blocks) blocks.append(py::make_tuple(b.size, b.allocated));
      out.append(py::make_tuple(seg.size, seg.small_pool, blocks));
    }
    return out;
  });
  m.def("next_event_seq", [] {
    const auto& events = rt().log().events();
    return events.empty() ? uint64_t{0} : events.back().seq + 1;
  });
  // prof.export_chrome_trace(path): the same Perfetto file `devicescope run --trace` writes, holding the
  // events and transfers from the profiled window on.
  m.def("write_chrome_trace", [](const std::string& path, uint64_t first_seq, uint64_t first_transfer_id) {
    Runtime& r = rt();
    for (int i = 0; i < r.device_count(); ++i) r.backend().synchronize_device(i);
    r.poll();
    std::deque<Event> events;
    for (const Event& e : r.log().events())
      if (e.seq >= first_seq) events.push_back(e);
    std::deque<TransferRecord> transfers;
    for (const TransferRecord& t : r.log().transfers())
      if (t.id >= first_transfer_id) transfers.push_back(t);
    TraceMeta meta;
    meta.backend = r.backend().name();
    meta.simulated = r.backend().caps().simulated;
    meta.link = r.backend().link().name;
    meta.version = "torch.profiler";
    meta.machine = r.device_count() > 0 ? r.backend().props(0).name : "host";
    // A profiled window longer than the bounded log's (Note [Bounded event log]): its file says what it lacks.
    const auto& kept_events = r.log().events();
    const uint64_t first_kept_seq = kept_events.empty() ? r.log().last_seq() + 1 : kept_events.front().seq;
    if (r.log().totals().events_dropped && first_seq < first_kept_seq) meta.events_dropped = first_kept_seq - std::max<uint64_t>(first_seq, 1);
    const auto& kept_transfers = r.log().transfers();
    const uint64_t first_kept_id = kept_transfers.empty() ? 0 : kept_transfers.front().id;
    if (r.log().totals().transfers_dropped && first_kept_id && first_transfer_id < first_kept_id)
      meta.transfers_dropped = first_kept_id - std::max<uint64_t>(first_transfer_id, 1);
    StorageRoles live_roles;  // roles as `devicescope run --trace` writes them
    for (const StoragePtr& s : r.live_storages()) live_roles[s->id()] = s->role();
    const StorageRoles roles = export_storage_roles(events, live_roles);
    write_file_atomically(path, [&](std::ostream& out) { write_chrome_trace(events, transfers, meta, out, roles); });
  });
}

}  // namespace ds::python

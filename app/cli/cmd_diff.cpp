// devicescope diff A B [--json]: what was allocated, freed and moved between two moments, by owner, with
// byte totals. A and B are two PyTorch memory snapshots, two DeviceScope recordings, or two moments of one
// file: FILE@t:MICROSECONDS (a time of its trace), FILE@e:N (after its first N trace entries, or a
// recording's first N events), FILE alone (its end). Nothing in the files is run. Exit 2 on a file or
// moment it refuses.
//
// A moment FILE@e:N is the one `inspect` names "at e:N" (N entries / events done; 0..the trace's length, else
// refused). Within one file allocations are matched by the entry / event that made them; across two files (two
// runs) by allocation identity: place, owner, size and order among that owner's (moment_diff.h). A snapshot's
// block awaiting free is not live (PyTorch's memory_allocated() does not count it).
//
// JSON keys: a, b ({file, moment, live_bytes}); allocated_bytes, freed_bytes; places, every place live at either
// moment: [{place, live_bytes_a, live_bytes_b, allocated_bytes, freed_bytes}] (live_bytes_b - live_bytes_a ==
// allocated_bytes - freed_bytes); owners, the changed ones, largest change first: [{owner, place, bytes_a, bytes_b,
// allocated, freed, blocks_allocated, blocks_freed}]; moved (same recording): copies made between the two
// moments [{route, owner, bytes, copies}].
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/file_report.h"
#include "core/format.h"
#include "snapshot/memory_snapshot.h"
#include "snapshot/moment_diff.h"
#include "snapshot/snapshot_moments.h"
#include "trace/load_trace.h"
#include "trace/trace_text.h"

namespace ds::cli {
namespace {

using nlohmann::json;

struct DiffArgs {
  std::string a, b;
  bool json = false;
};

// "FILE@t:123", "FILE@e:45" or "FILE".
struct Moment {
  std::string file;
  char unit = 0;  // 't', 'e' or 0 (the end)
  int64_t value = 0;
  std::string text() const { return unit ? std::string(1, unit) + ":" + std::to_string(value) : "end"; }
};

Moment parse_moment(const std::string& spec) {
  static const std::regex kMoment("^(.*)@([te]):(-?[0-9]{1,18})$");
  std::smatch m;
  if (std::regex_match(spec, m, kMoment)) return {m[1].str(), m[2].str()[0], std::stoll(m[3].str())};
  // "run.json@x:3": a file that exists, then something that is not a moment (rather than "cannot open" the whole).
  const size_t at = spec.rfind('@');
  struct stat st {};
  if (at != std::string::npos && ::stat(spec.c_str(), &st) != 0 && ::stat(spec.substr(0, at).c_str(), &st) == 0)
    throw Error(ErrorKind::ValueError, "'" + spec.substr(at) + "' is not a moment of " + spec.substr(0, at) +
                                           ": use FILE@t:MICROSECONDS, FILE@e:ENTRIES or FILE (its end)");
  return {spec, 0, 0};
}

// How far into a recording a moment is: the number of its events (alloc, free, copy, ...) done by then.
size_t recording_events_at(const LoadedTrace& t, const Moment& m) {
  if (m.unit == 'e') {
    if (m.value < 0 || uint64_t(m.value) > t.events.size())
      throw Error(ErrorKind::ValueError, m.file + "@e:" + std::to_string(m.value) + ": the recording has " +
                                             std::to_string(t.events.size()) + " events (e:0 .. e:" +
                                             std::to_string(t.events.size()) + "); a moment counts events done");
    return size_t(m.value);
  }
  if (m.unit == 0) return t.events.size();
  const uint64_t until = uint64_t(m.value) * 1000;
  size_t n = 0;
  while (n < t.events.size() && t.events[n].time_ns <= until) ++n;
  return n;
}

// A recording's live storages after its first `events` events, in allocation order. A storage's name is its
// allocation's label, else the owner of the copy that filled it (a move allocates before it knows whose the
// bytes are). Keyed by storage id: the identity within one run.
std::vector<LiveAllocation> recording_live(const LoadedTrace& t, size_t events) {
  std::unordered_map<uint64_t, const std::string*> filled_by;
  for (const TransferRecord& r : t.transfers)
    if (!r.owner.empty()) filled_by.emplace(r.dst_storage, &r.owner);
  std::map<uint64_t, std::pair<size_t, LiveAllocation>> live;  // storage id -> (event index, allocation)
  for (size_t i = 0; i < events; ++i) {
    const Event& e = t.events[i];
    if (e.kind == EventKind::Alloc) {
      std::string owner = e.label;
      if (owner.empty())
        if (auto it = filled_by.find(e.storage_id); it != filled_by.end()) owner = *it->second;
      live[e.storage_id] = {i, {std::to_string(e.storage_id), owner.empty() ? "<unnamed>" : owner, e.place.str(), e.bytes}};
    } else if (e.kind == EventKind::Free) {
      live.erase(e.storage_id);
    }
  }
  std::vector<std::pair<size_t, LiveAllocation>> ordered;
  for (auto& [id, a] : live) ordered.push_back(std::move(a));
  std::sort(ordered.begin(), ordered.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<LiveAllocation> out;
  for (auto& [i, a] : ordered) out.push_back(std::move(a));
  return out;
}

json diff(const Moment& a, const Moment& b) {
  for (const Moment* m : {&a, &b}) {
    check_readable(m->file);
    if (m->unit == 't' && m->value < 0)
      throw Error(ErrorKind::ValueError, m->file + "@t:" + std::to_string(m->value) + ": a time of the trace cannot be negative");
  }
  const bool pa = starts_like_pickle(a.file), pb = starts_like_pickle(b.file);
  if (pa != pb)
    throw Error(ErrorKind::ValueError, "'" + (pa ? a.file : b.file) + "' is a PyTorch memory snapshot and '" + (pa ? b.file : a.file) +
                                           "' is not: compare two PyTorch snapshots or two DeviceScope recordings, not one of each");
  MomentDiff d;
  const bool same = a.file == b.file;
  if (pa) {
    const snapshot::MemorySnapshot sa = snapshot::load_memory_snapshot(a.file);
    const snapshot::MemorySnapshot sb = same ? snapshot::MemorySnapshot{} : snapshot::load_memory_snapshot(b.file);
    const snapshot::MemorySnapshot& second = same ? sa : sb;
    snapshot::check_moment(sa, a.unit, a.value, a.file);
    snapshot::check_moment(second, b.unit, b.value, b.file);
    d = diff_live(snapshot::live_allocations(sa, a.unit, a.value, same), snapshot::live_allocations(second, b.unit, b.value, same));
  } else {
    const LoadedTrace ta = load_trace(a.file);
    const LoadedTrace tb = same ? LoadedTrace{} : load_trace(b.file);
    const LoadedTrace& second = same ? ta : tb;
    const size_t ea = recording_events_at(ta, a), eb = recording_events_at(second, b);
    std::vector<LiveAllocation> la = recording_live(ta, ea), lb = recording_live(second, eb);
    if (!same) key_by_allocation_identity(la), key_by_allocation_identity(lb);  // two runs: ids mean nothing across them
    d = diff_live(la, lb);
    if (same) {  // the copies made between the two moments: their copy events lie in between
      std::unordered_map<uint64_t, const TransferRecord*> by_id;
      for (const TransferRecord& r : ta.transfers) by_id[r.id] = &r;
      std::map<std::pair<std::string, std::string>, RouteBytes> moved;
      for (size_t i = std::min(ea, eb); i < std::max(ea, eb); ++i) {
        const Event& e = ta.events[i];
        auto it = e.kind == EventKind::Copy ? by_id.find(e.transfer_id) : by_id.end();
        if (it == by_id.end()) continue;
        const TransferRecord& r = *it->second;
        const std::string route = r.src.str() + " -> " + r.dst.str();
        RouteBytes& m = moved[{route, r.owner}];
        m.route = route;
        m.owner = r.owner.empty() ? "<unnamed>" : r.owner;
        m.bytes += r.bytes;
        ++m.copies;
      }
      for (auto& [k, m] : moved) d.moved.push_back(m);
      std::sort(d.moved.begin(), d.moved.end(), [](const RouteBytes& x, const RouteBytes& y) { return x.bytes > y.bytes; });
    }
  }
  json r = moment_diff_json(d);
  r["a"] = {{"file", a.file}, {"moment", a.text()}, {"live_bytes", d.total_a}};
  r["b"] = {{"file", b.file}, {"moment", b.text()}, {"live_bytes", d.total_b}};
  r.erase("live_bytes_a");
  r.erase("live_bytes_b");
  return r;
}

void print_text(const json& r) {
  auto bytes = [](const json& v) { return format_bytes(v.get<uint64_t>()); };
  for (const char* side : {"a", "b"})
    std::cout << side << ": " << r[side]["file"].get<std::string>() << " at " << r[side]["moment"].get<std::string>() << ", "
              << bytes(r[side]["live_bytes"]) << " live\n";
  std::cout << "between them: allocated " << bytes(r["allocated_bytes"]) << ", freed " << bytes(r["freed_bytes"]) << "\n";
  for (const json& p : r["places"])  // per place: b - a == allocated - freed
    std::cout << "  " << p["place"].get<std::string>() << ": " << bytes(p["live_bytes_a"]) << " -> " << bytes(p["live_bytes_b"])
              << " live (allocated " << bytes(p["allocated_bytes"]) << ", freed " << bytes(p["freed_bytes"]) << ")\n";
  if (r["owners"].empty()) std::cout << "  no owner's memory changed\n";
  for (const json& o : r["owners"]) {
    std::cout << "  " << o["place"].get<std::string>() << "  " << o["owner"].get<std::string>() << ": " << bytes(o["bytes_a"])
              << " -> " << bytes(o["bytes_b"]);
    if (o["allocated"].get<uint64_t>()) std::cout << "  (+" << bytes(o["allocated"]) << " in " << o["blocks_allocated"].get<uint64_t>() << " allocations)";
    if (o["freed"].get<uint64_t>()) std::cout << "  (-" << bytes(o["freed"]) << " in " << o["blocks_freed"].get<uint64_t>() << " frees)";
    std::cout << "\n";
  }
  if (!r["moved"].empty()) std::cout << "copies in between:\n";
  for (const json& m : r["moved"])
    std::cout << "  " << m["route"].get<std::string>() << "  " << m["owner"].get<std::string>() << ": " << bytes(m["bytes"])
              << " in " << m["copies"].get<uint64_t>() << " copies\n";
}

}  // namespace

Command diff_command() {
  auto args = std::make_shared<DiffArgs>();
  Command c;
  c.setup = [args](CLI::App& app, BackendFlags&) {
    CLI::App* sub = app.add_subcommand("diff", "what was allocated, freed and moved between two moments (snapshots or recordings)");
    sub->add_option("A", args->a, "the first moment: FILE, FILE@t:MICROSECONDS or FILE@e:ENTRIES")->required();
    sub->add_option("B", args->b, "the second moment (the same forms; the same FILE for two moments of one run)")->required();
    sub->add_flag("--json", args->json, "print the comparison as JSON (keys in cmd_diff.cpp and the README)");
    return sub;
  };
  c.run = [args]() {
    return print_report("diff", "", args->json, [&] { return diff(parse_moment(args->a), parse_moment(args->b)); }, print_text);
  };
  return c;
}

}  // namespace ds::cli

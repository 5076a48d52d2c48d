// devicescope diff A B [--json]: what was allocated, freed and moved between two moments, by owner, with
// byte totals. A and B are two PyTorch memory snapshots, two DeviceScope recordings, or two moments of one
// file: FILE@t:MICROSECONDS (a time of its trace), FILE@e:N (after its first N trace entries, or a
// recording's first N events), FILE alone (its end). Nothing in the files is run. Exit 2 on a file or
// moment it refuses.
//
// JSON keys: a, b ({file, moment, live_bytes}); allocated_bytes, freed_bytes; owners, the changed ones,
// largest change first: [{owner, place, bytes_a, bytes_b, allocated, freed, blocks_allocated,
// blocks_freed}]; moved (recordings): copies made between the two moments [{route, owner, bytes, copies}].
#include <algorithm>
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
  return {spec, 0, 0};
}

// How far into a recording a moment is: the number of its events (alloc, free, copy, ...) done by then.
size_t recording_events_at(const LoadedTrace& t, const Moment& m) {
  if (m.unit == 'e') return size_t(std::clamp<int64_t>(m.value, 0, int64_t(t.events.size())));
  if (m.unit == 0) return t.events.size();
  const uint64_t until = uint64_t(std::max<int64_t>(m.value, 0)) * 1000;
  size_t n = 0;
  while (n < t.events.size() && t.events[n].time_ns <= until) ++n;
  return n;
}

// A recording's live storages after its first `events` events. A storage's name is its allocation's label,
// else the owner of the copy that filled it (a move allocates before it knows whose the bytes are).
std::vector<LiveAllocation> recording_live(const LoadedTrace& t, size_t events) {
  std::unordered_map<uint64_t, const std::string*> filled_by;
  for (const TransferRecord& r : t.transfers)
    if (!r.owner.empty()) filled_by.emplace(r.dst_storage, &r.owner);
  std::map<uint64_t, LiveAllocation> live;
  for (size_t i = 0; i < events; ++i) {
    const Event& e = t.events[i];
    if (e.kind == EventKind::Alloc) {
      std::string owner = e.label;
      if (owner.empty())
        if (auto it = filled_by.find(e.storage_id); it != filled_by.end()) owner = *it->second;
      live[e.storage_id] = {std::to_string(e.storage_id), owner.empty() ? "<unnamed>" : owner, e.place.str(), e.bytes};
    } else if (e.kind == EventKind::Free) {
      live.erase(e.storage_id);
    }
  }
  std::vector<LiveAllocation> out;
  for (auto& [id, a] : live) out.push_back(a);
  return out;
}

json diff(const Moment& a, const Moment& b) {
  const bool pa = starts_like_pickle(a.file), pb = starts_like_pickle(b.file);
  if (pa != pb) throw Error(ErrorKind::ValueError, "compare two PyTorch snapshots or two DeviceScope recordings, not one of each");
  MomentDiff d;
  if (pa) {
    const snapshot::MemorySnapshot sa = snapshot::load_memory_snapshot(a.file);
    const bool same = a.file == b.file;
    const snapshot::MemorySnapshot sb = same ? snapshot::MemorySnapshot{} : snapshot::load_memory_snapshot(b.file);
    d = diff_live(snapshot::live_allocations(sa, a.unit, a.value, same), snapshot::live_allocations(same ? sa : sb, b.unit, b.value, same));
  } else {
    const LoadedTrace ta = load_trace(a.file);
    const LoadedTrace tb = a.file == b.file ? LoadedTrace{} : load_trace(b.file);
    const LoadedTrace& second = a.file == b.file ? ta : tb;
    const size_t ea = recording_events_at(ta, a), eb = recording_events_at(second, b);
    d = diff_live(recording_live(ta, ea), recording_live(second, eb));
    if (a.file == b.file) {  // the copies made between the two moments: their copy events lie in between
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
    sub->add_option("a", args->a, "the first moment: FILE, FILE@t:MICROSECONDS or FILE@e:ENTRIES")->required();
    sub->add_option("b", args->b, "the second moment (the same forms; the same FILE for two moments of one run)")->required();
    sub->add_flag("--json", args->json, "print the comparison as JSON (keys in cmd_diff.cpp and the README)");
    return sub;
  };
  c.run = [args]() {
    return print_report("diff", "", args->json, [&] { return diff(parse_moment(args->a), parse_moment(args->b)); }, print_text);
  };
  return c;
}

}  // namespace ds::cli

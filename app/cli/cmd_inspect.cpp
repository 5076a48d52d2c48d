// `devicescope inspect FILE [--json]`: a headless summary of a file the app opens - a PyTorch memory
// snapshot (torch.cuda.memory._dump_snapshot pickle, 2.x or 1.x form), a DeviceScope recording
// (`run --trace` Chrome trace JSON, `run --csv` transfers CSV) or a bench sweep JSON. Exit 2 with
// the loader's message on a file it refuses; opening a snapshot never runs code (snapshot/pickle_reader.h).
//
// JSON keys (scripts read them; keep in step with the README):
//   file             the path given
//   kind             "pytorch-snapshot" | "devicescope-trace" | "devicescope-csv" | "devicescope-bench"
//   format           "pickle-2.x" | "pickle-1.x" | "chrome-trace" | "csv" | "bench-json"
//   devices          [{device ("cuda:0", "pinned", ...), segments (snapshot only, else null),
//                      live_blocks, allocated_bytes, reserved_bytes (now: at the snapshot / the end of the recording;
//                      snapshot: active_allocated blocks only, as memory_allocated() counts),
//                      snapshot only: awaiting_free_blocks, awaiting_free_bytes (active_pending_free: not
//                      allocated), private_pool_bytes, trace_entries,
//                      peak_allocated_bytes, peak_reserved_bytes (null when unknown: no trace, as in 1.x files),
//                      peak_allocated_at, peak_reserved_at: {"entry": N, the moment FILE@e:N of diff - N trace
//                      entries (recording: events) done -, snapshot "time_us" (null at e:0), recording "seq",
//                      "time_ns"}; null when unknown}]
//   top_owners       up to ten [{owner, bytes, blocks}], largest first. Snapshot: live active_allocated blocks
//                    by innermost user frame "file:line name" (stack_owner: "<C++ only: ...>" for stacks without
//                    a Python frame); recording: storages live at the moment the total live bytes peaked, by
//                    owner name ("<unnamed>" when none)
//   top_owners_at    the moment top_owners shows: {"moment": "end" (snapshot) | "peak" (recording), "entry": N}
//   snapshot only:   annotations (external_annotations entries), user_metadata and compile_contexts (distinct
//                    texts in the trace, at most 20 each)
//   events           number of events (snapshot: trace entries); event_counts {kind or action: n}
//   transfers        number of transfers (0 for a snapshot); transfer_bytes
//   run              recordings made by `devicescope record`: {script, script_args, exit_status, ended_by}
//   snapshot only:   distinct_frames, distinct_stacks, other_actions (unknown trace actions)
//   bench only:      points, backend, simulated
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "sweep/sweep_io.h"
#include "cli/commands.h"
#include "cli/file_report.h"
#include "core/format.h"
#include "snapshot/memory_snapshot.h"
#include "snapshot/snapshot_moments.h"
#include "snapshot/snapshot_summary.h"
#include "trace/load_trace.h"

namespace ds::cli {
namespace {

using nlohmann::json;

struct InspectArgs {
  std::string path;
  bool json = false;
};

json snapshot_report(const std::string& path) {
  const snapshot::MemorySnapshot s = snapshot::load_memory_snapshot(path);
  const snapshot::SnapshotSummary sum = snapshot::summarize_snapshot(s);
  json out = {{"file", path}, {"kind", "pytorch-snapshot"}, {"format", sum.format_major == 1 ? "pickle-1.x" : "pickle-2.x"}};
  // The moment of a peak: entries done (diff's FILE@e:N), with the time of the entry that reached it.
  auto at = [](bool known, size_t entries, int64_t time_us) -> json {
    if (!known) return nullptr;
    return {{"entry", entries}, {"time_us", entries ? json(time_us) : json(nullptr)}};
  };
  auto known_or_null = [](bool known, uint64_t v) -> json { return known ? json(v) : json(nullptr); };
  json devices = json::array();
  for (const snapshot::DeviceSummary& d : sum.devices)
    devices.push_back({{"device", d.device == snapshot::kHostDevice ? std::string("pinned") : "cuda:" + std::to_string(d.device)},
                       {"segments", d.segments}, {"live_blocks", d.live_blocks}, {"allocated_bytes", d.allocated_bytes},
                       {"awaiting_free_blocks", d.awaiting_free_blocks}, {"awaiting_free_bytes", d.awaiting_free_bytes},
                       {"reserved_bytes", d.reserved_bytes}, {"private_pool_bytes", d.private_pool_bytes},
                       {"trace_entries", d.trace_entries},
                       {"peak_allocated_bytes", known_or_null(d.peak_known, d.peak_allocated)},
                       {"peak_reserved_bytes", known_or_null(d.peak_known, d.peak_reserved)},
                       {"peak_allocated_at", at(d.peak_known, d.peak_allocated_entries, d.peak_allocated_time_us)},
                       {"peak_reserved_at", at(d.peak_known, d.peak_reserved_entries, d.peak_reserved_time_us)}});
  out["devices"] = devices;
  json owners = json::array();
  for (const snapshot::OwnerBytes& o : sum.top_owners) owners.push_back({{"owner", o.owner}, {"bytes", o.bytes}, {"blocks", o.blocks}});
  out["top_owners"] = owners;
  out["top_owners_at"] = {{"moment", "end"}, {"entry", snapshot::longest_trace(s)}};
  out["events"] = sum.trace_entries;
  json counts = json::object();
  for (int a = 0; a < snapshot::kTraceActionCount; ++a)
    if (sum.action_counts[size_t(a)]) counts[snapshot::trace_action_name(snapshot::TraceAction(a))] = sum.action_counts[size_t(a)];
  out["event_counts"] = counts;
  out["transfers"] = 0;
  out["transfer_bytes"] = 0;
  out["distinct_frames"] = sum.distinct_frames;
  out["distinct_stacks"] = sum.distinct_stacks;
  out["other_actions"] = s.other_actions;
  out["annotations"] = sum.annotations;
  out["user_metadata"] = sum.user_metadata;
  out["compile_contexts"] = sum.compile_contexts;
  return out;
}

struct PlaceFigures {
  uint64_t live_blocks = 0, allocated = 0, reserved = 0, peak_allocated = 0, peak_reserved = 0;
  json peak_allocated_at = nullptr, peak_reserved_at = nullptr;
};

json recording_report(const std::string& path, const LoadedTrace& t) {
  json out = {{"file", path}, {"kind", t.format == "csv" ? "devicescope-csv" : "devicescope-trace"}, {"format", t.format}};
  std::map<std::string, PlaceFigures> places;
  struct Live { uint64_t bytes; std::string place; const std::string* label; };
  std::unordered_map<uint64_t, Live> live;
  uint64_t live_total = 0, best_total = 0;
  std::unordered_map<uint64_t, Live> at_best;
  std::map<std::string, uint64_t> counts;
  json best_at = nullptr;
  for (size_t index = 0; index < t.events.size(); ++index) {
    const Event& e = t.events[index];
    ++counts[event_kind_name(e.kind)];
    if (e.kind != EventKind::Alloc && e.kind != EventKind::Free) continue;
    PlaceFigures& p = places[e.place.str()];
    if (e.kind == EventKind::Alloc) {
      live[e.storage_id] = {e.bytes, e.place.str(), &e.label};
      live_total += e.bytes;
      ++p.live_blocks;
    } else if (auto it = live.find(e.storage_id); it != live.end()) {
      live_total -= it->second.bytes;
      live.erase(it);
      if (p.live_blocks) --p.live_blocks;
    }
    p.allocated = e.allocated_after;
    p.reserved = e.reserved_after;
    if (e.allocated_after > p.peak_allocated) {
      p.peak_allocated = e.allocated_after;
      p.peak_allocated_at = {{"entry", index + 1}, {"seq", e.seq}, {"time_ns", e.time_ns}};
    }
    if (e.reserved_after > p.peak_reserved) {
      p.peak_reserved = e.reserved_after;
      p.peak_reserved_at = {{"entry", index + 1}, {"seq", e.seq}, {"time_ns", e.time_ns}};
    }
    if (live_total > best_total) {  // a copy per new peak: recordings are small next to snapshots
      best_total = live_total;
      at_best = live;
      best_at = {{"entry", index + 1}, {"seq", e.seq}, {"time_ns", e.time_ns}};
    }
  }
  json devices = json::array();
  for (const auto& [name, p] : places)
    devices.push_back({{"device", name}, {"segments", nullptr}, {"live_blocks", p.live_blocks},
                       {"allocated_bytes", p.allocated}, {"reserved_bytes", p.reserved},
                       {"peak_allocated_bytes", p.peak_allocated}, {"peak_reserved_bytes", p.peak_reserved},
                       {"peak_allocated_at", p.peak_allocated_at}, {"peak_reserved_at", p.peak_reserved_at}});
  out["devices"] = devices;
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_owner;
  for (const auto& [id, l] : at_best) {
    auto& o = by_owner[l.label->empty() ? "<unnamed>" : *l.label];
    o.first += l.bytes;
    ++o.second;
  }
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> owners(by_owner.begin(), by_owner.end());
  std::sort(owners.begin(), owners.end(), [](const auto& a, const auto& b) {
    return a.second.first != b.second.first ? a.second.first > b.second.first : a.first < b.first;
  });
  if (owners.size() > 10) owners.resize(10);
  json top = json::array();
  for (const auto& [name, o] : owners) top.push_back({{"owner", name}, {"bytes", o.first}, {"blocks", o.second}});
  out["top_owners"] = top;
  out["top_owners_at"] = {{"moment", "peak"}, {"entry", best_at.is_null() ? json(0) : best_at["entry"]}};
  out["events"] = t.events.size();
  out["event_counts"] = counts;
  uint64_t bytes = 0;
  for (const TransferRecord& r : t.transfers) bytes += r.bytes;
  out["transfers"] = t.transfers.size();
  out["transfer_bytes"] = bytes;
  // devicescope record's facts about the run: the script, its arguments and how it ended
  if (!t.run_json.empty()) out["run"] = json::parse(t.run_json, nullptr, false);
  return out;
}

json bench_report(const std::string& path, const SweepResult& r) {
  return {{"file", path}, {"kind", "devicescope-bench"}, {"format", "bench-json"}, {"devices", json::array()},
          {"top_owners", json::array()}, {"events", 0}, {"event_counts", json::object()},
          {"transfers", 0}, {"transfer_bytes", 0}, {"points", r.points.size()}, {"backend", r.backend},
          {"simulated", r.simulated}};
}

bool starts_like_bench(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(size_t(in.gcount()));
  return head.find("\"traceEvents\"") == std::string::npos && head.find("\"points\"") != std::string::npos;
}

json inspect(const std::string& path) {
  check_readable(path);  // "cannot open 'x': No such file or directory", as diff says it
  if (starts_like_pickle(path)) return snapshot_report(path);
  if (starts_like_bench(path)) return bench_report(path, load_sweep_json(path));
  return recording_report(path, load_trace(path));
}

void print_text(const json& r) {
  std::cout << r["file"].get<std::string>() << ": " << r["kind"].get<std::string>() << " (" << r["format"].get<std::string>() << ")\n";
  auto bytes = [](const json& v) { return format_bytes(v.get<uint64_t>()); };
  // One numbering with diff: "e:N" is the moment after N trace entries (or recorded events).
  auto when = [](const json& at) -> std::string {
    if (at.is_null()) return "";
    std::string out = " at e:" + std::to_string(at["entry"].get<uint64_t>());
    if (at.contains("time_us") && !at["time_us"].is_null()) out += " (t=" + std::to_string(at["time_us"].get<int64_t>()) + " us)";
    else if (at.contains("time_us")) out += " (before the trace's first entry)";
    if (at.contains("time_ns")) out += " (t=" + std::to_string(at["time_ns"].get<uint64_t>()) + " ns)";
    return out;
  };
  if (r.contains("run") && r["run"].is_object()) {
    const json& run = r["run"];
    std::cout << "  recorded run: " << run.value("script", std::string("?"));
    if (run.contains("script_args") && run["script_args"].is_array())
      for (const json& a : run["script_args"]) std::cout << " " << (a.is_string() ? a.get<std::string>() : a.dump());
    if (run.contains("exit_status")) std::cout << "; exit status " << run["exit_status"].dump();
    const std::string ended = run.value("ended_by", std::string());
    if (!ended.empty()) std::cout << " (" << ended << ")";
    std::cout << "\n";
  }
  for (const json& d : r["devices"]) {
    std::cout << "  " << d["device"].get<std::string>() << ":";
    if (!d["segments"].is_null()) std::cout << " " << d["segments"].get<uint64_t>() << " segments,";
    std::cout << " " << d["live_blocks"].get<uint64_t>() << " live blocks, allocated " << bytes(d["allocated_bytes"])
              << ", reserved " << bytes(d["reserved_bytes"]);
    if (d.value("awaiting_free_blocks", uint64_t(0)))
      std::cout << "; " << d["awaiting_free_blocks"].get<uint64_t>() << " blocks awaiting free (" << bytes(d["awaiting_free_bytes"]) << ", not allocated)";
    if (d.value("private_pool_bytes", uint64_t(0))) std::cout << "; private pools " << bytes(d["private_pool_bytes"]);
    std::cout << "\n";
    if (d["peak_allocated_bytes"].is_null()) {
      std::cout << "    peak allocated n/a, peak reserved n/a: the file has no allocator trace, and the snapshot alone does not say what came before it\n";
      continue;
    }
    std::cout << "    peak allocated " << bytes(d["peak_allocated_bytes"]) << when(d["peak_allocated_at"])
              << "; peak reserved " << bytes(d["peak_reserved_bytes"]) << when(d["peak_reserved_at"]) << "\n";
  }
  if (!r["top_owners"].empty()) {
    const json& at = r["top_owners_at"];
    const std::string e = "e:" + std::to_string(at["entry"].get<uint64_t>());
    std::cout << (at["moment"] == "end" ? "  largest owners at the snapshot's moment (its end, " + e + "):\n"
                                        : "  largest owners at the peak of live bytes (" + e + "):\n");
  }
  for (const json& o : r["top_owners"])
    std::cout << "    " << bytes(o["bytes"]) << "  " << o["blocks"].get<uint64_t>() << " blocks  " << o["owner"].get<std::string>() << "\n";
  std::cout << "  events: " << r["events"].get<uint64_t>();
  for (const auto& [k, v] : r["event_counts"].items()) std::cout << "  " << k << "=" << v.get<uint64_t>();
  std::cout << "\n  transfers: " << r["transfers"].get<uint64_t>() << " (" << bytes(r["transfer_bytes"]) << ")\n";
  if (r.value("annotations", uint64_t(0))) std::cout << "  annotations: " << r["annotations"].get<uint64_t>() << "\n";
  for (const char* key : {"user_metadata", "compile_contexts"})
    if (r.contains(key) && !r[key].empty()) {
      std::cout << "  " << (std::string(key) == "user_metadata" ? "user metadata" : "compile contexts") << ":";
      for (const json& m : r[key]) std::cout << " " << m.dump();
      std::cout << "\n";
    }
  if (r.contains("points")) std::cout << "  bench points: " << r["points"].get<uint64_t>() << ", backend " << r["backend"].get<std::string>() << "\n";
}

}  // namespace

Command inspect_command() {
  auto args = std::make_shared<InspectArgs>();
  Command c;
  c.setup = [args](CLI::App& app, BackendFlags&) {
    CLI::App* sub = app.add_subcommand("inspect", "summarize a PyTorch memory snapshot or a DeviceScope recording / bench file");
    sub->add_option("file", args->path, "the file: a torch.cuda.memory._dump_snapshot pickle, a run --trace/--csv file or a bench --json file")->required();
    sub->add_flag("--json", args->json, "print the summary as JSON (keys documented in cmd_inspect.cpp and the README)");
    return sub;
  };
  c.run = [args]() {
    return print_report("inspect", args->path, args->json, [&] { return inspect(args->path); }, print_text);
  };
  return c;
}

}  // namespace ds::cli

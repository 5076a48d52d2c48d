// Chrome trace export: parses as JSON, processes/threads/lanes, slices, counters, host events.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "trace/export_chrome_trace.h"
#include "trace_fixtures.h"

using ds::Event;
using ds::EventKind;
using ds::Place;
using ds::TransferRecord;
using json = nlohmann::json;

namespace {

ds::TraceMeta sim_meta() { return {"sim", true, "pcie4-x16", "0.1.0", "test machine"}; }

json export_json(const std::deque<Event>& events, const std::deque<TransferRecord>& transfers,
                 const ds::TraceMeta& meta = sim_meta()) {
  std::ostringstream out;
  ds::write_chrome_trace(events, transfers, meta, out);
  return json::parse(out.str());  // throws (fails the test) if the output is not JSON
}

std::vector<json> with_ph(const json& doc, const std::string& ph) {
  std::vector<json> out;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == ph) out.push_back(e);
  return out;
}

// "pid/tid" -> thread name, and pid -> process name.
std::map<std::pair<int, int>, std::string> thread_names(const json& doc) {
  std::map<std::pair<int, int>, std::string> names;
  for (const json& e : with_ph(doc, "M"))
    if (e["name"] == "thread_name") names[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
  return names;
}
std::map<int, std::string> process_names(const json& doc) {
  std::map<int, std::string> names;
  for (const json& e : with_ph(doc, "M"))
    if (e["name"] == "process_name") names[e["pid"].get<int>()] = e["args"]["name"];
  return names;
}

}  // namespace

TEST(ChromeTrace, EmptyRecordingIsValid) {
  const json doc = export_json({}, {});
  EXPECT_EQ(doc["displayTimeUnit"], "ns");
  EXPECT_TRUE(doc["traceEvents"].is_array());
  EXPECT_EQ(doc["metadata"]["producer"], "DeviceScope");
  EXPECT_EQ(doc["metadata"]["transfer_count"], 0);
  EXPECT_EQ(doc["devicescopeEvents"], json::array());
  EXPECT_EQ(process_names(doc), (std::map<int, std::string>{{1, "host (SIMULATED devices)"}}));
}

TEST(ChromeTrace, MetadataSaysWhereItCameFrom) {
  const json doc = export_json({}, {}, {"cuda", false, "PCIe Gen5 x16", "0.1.0", "Linux x86_64, NVIDIA H100"});
  const json& md = doc["metadata"];
  EXPECT_EQ(md["format"], "devicescope-chrome-trace");
  EXPECT_EQ(md["format_version"], 1);
  EXPECT_EQ(md["devicescope_version"], "0.1.0");
  EXPECT_EQ(md["backend"], "cuda");
  EXPECT_EQ(md["simulated"], false);
  EXPECT_EQ(md["timings"], "measured");
  EXPECT_EQ(md["link_profile"], "PCIe Gen5 x16");
  EXPECT_EQ(md["machine"], "Linux x86_64, NVIDIA H100");
  EXPECT_EQ(process_names(doc).at(1), "host");
}

TEST(ChromeTrace, TransferSlices) {
  TransferRecord t = trace_test::transfer(1, Place::pinned(), Place::cuda(0), 4096, 1500, 2524, "model.fc.weight");
  t.non_blocking = true;
  t.async = true;
  t.measured_ns = 12.5;
  TransferRecord back = trace_test::transfer(2, Place::cuda(1), Place::pageable(), 8, 5000, 6000);
  back.stream_device = 1;
  back.route = ds::Route::StagedPinned;
  const json doc = export_json({}, {t, back});

  const auto slices = with_ph(doc, "X");
  ASSERT_EQ(slices.size(), 2u);
  const json& s = slices[0];
  EXPECT_EQ(s["name"], "H2D model.fc.weight");
  EXPECT_EQ(s["cat"], "transfer");
  EXPECT_EQ(s["pid"], 100);
  EXPECT_DOUBLE_EQ(s["ts"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(s["dur"].get<double>(), 1.024);
  const json& a = s["args"];
  EXPECT_EQ(a["bytes"], 4096);
  EXPECT_DOUBLE_EQ(a["GB/s"].get<double>(), 4.0);
  EXPECT_EQ(a["route"], "direct");
  EXPECT_EQ(a["src"], "pinned");
  EXPECT_EQ(a["dst"], "cuda:0");
  EXPECT_EQ(a["owner"], "model.fc.weight");
  EXPECT_EQ(a["simulated"], true);
  EXPECT_EQ(a["non_blocking"], true);
  EXPECT_EQ(a["measured_ns"], 12.5);

  EXPECT_EQ(slices[1]["name"], "D2H");
  EXPECT_EQ(slices[1]["pid"], 101);  // drawn on the device whose stream ordered it
  EXPECT_EQ(slices[1]["args"]["route"], "staged-pinned");

  const auto procs = process_names(doc);
  EXPECT_EQ(procs.at(100), "cuda:0 SIMULATED (pcie4-x16)");
  EXPECT_EQ(procs.at(101), "cuda:1 SIMULATED (pcie4-x16)");
  const auto threads = thread_names(doc);
  EXPECT_EQ(threads.at({100, s["tid"].get<int>()}), "stream 0 H2D");
  EXPECT_EQ(threads.at({101, slices[1]["tid"].get<int>()}), "stream 0 D2H");
  EXPECT_EQ(threads.at({1, 1}), "python");
}

TEST(ChromeTrace, OverlappingCopiesGetTheirOwnLane) {
  // 1 and 2 overlap on stream 0 H2D; 3 starts when 1 has ended (touching is not overlapping);
  // 4 is D2H at the same time (own track by direction); 5 is H2D on another stream.
  std::deque<TransferRecord> ts = {
      trace_test::transfer(1, Place::pinned(), Place::cuda(0), 1, 0, 1000),
      trace_test::transfer(2, Place::pinned(), Place::cuda(0), 1, 500, 1500),
      trace_test::transfer(3, Place::pinned(), Place::cuda(0), 1, 1000, 1200),
      trace_test::transfer(4, Place::cuda(0), Place::pinned(), 1, 0, 1000),
      trace_test::transfer(5, Place::pinned(), Place::cuda(0), 1, 0, 1000),
  };
  ts[4].stream = 3;
  const json doc = export_json({}, ts);
  std::map<uint64_t, int> tid;
  for (const json& s : with_ph(doc, "X")) tid[s["args"]["id"].get<uint64_t>()] = s["tid"].get<int>();
  ASSERT_EQ(tid.size(), 5u);
  EXPECT_NE(tid[1], tid[2]);
  EXPECT_EQ(tid[3], tid[1]);
  EXPECT_EQ(std::set<int>({tid[1], tid[2], tid[4], tid[5]}).size(), 4u);
  const auto threads = thread_names(doc);
  EXPECT_EQ(threads.at({100, tid[1]}), "stream 0 H2D");
  EXPECT_EQ(threads.at({100, tid[2]}), "stream 0 H2D lane 2");
  EXPECT_EQ(threads.at({100, tid[4]}), "stream 0 D2H");
  EXPECT_EQ(threads.at({100, tid[5]}), "stream 3 H2D");
  // Tracks are numbered from 1000 in (process, stream, direction, lane) order.
  EXPECT_EQ(tid[1], 1000);
  EXPECT_EQ(tid[2], 1001);
  EXPECT_EQ(tid[4], 1002);
  EXPECT_EQ(tid[5], 1003);
}

TEST(ChromeTrace, NoTwoSlicesOverlapOnOneTrack) {
  // Many random async copies: whatever lanes are chosen, slices on one (pid, tid) must not overlap.
  std::deque<TransferRecord> ts;
  uint64_t seed = 12345;
  auto rnd = [&] { return (seed = seed * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  for (uint64_t i = 1; i <= 500; ++i) {
    const uint64_t start = rnd() % 100000, len = 1 + rnd() % 3000;
    ts.push_back(trace_test::transfer(i, Place::pinned(), Place::cuda(int(rnd() % 2)), 1, start, start + len));
    ts.back().stream_device = ts.back().dst.device;
    ts.back().stream = int(rnd() % 2);
  }
  const json doc = export_json({}, ts);
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
  for (const json& s : with_ph(doc, "X")) {
    const double b = s["args"]["start_ns"].get<double>(), e = s["args"]["end_ns"].get<double>();
    tracks[{s["pid"].get<int>(), s["tid"].get<int>()}].push_back({b, e});
  }
  size_t n = 0;
  for (auto& [key, v] : tracks) {
    std::sort(v.begin(), v.end());
    for (size_t i = 1; i < v.size(); ++i) EXPECT_LE(v[i - 1].second, v[i].first);
    n += v.size();
  }
  EXPECT_EQ(n, 500u);
  EXPECT_GT(tracks.size(), 4u);  // overlaps really happened
  // Perfetto identifies threads by tid alone: no tid may appear under two pids.
  std::map<int, int> pid_of_tid;
  for (const json& e : doc["traceEvents"]) {
    if (!e.contains("tid")) continue;
    auto [it, fresh] = pid_of_tid.emplace(e["tid"].get<int>(), e["pid"].get<int>());
    EXPECT_EQ(it->second, e["pid"].get<int>()) << "tid " << e["tid"] << " in two processes";
  }
}

TEST(ChromeTrace, AllocatorCounters) {
  Event a = trace_test::event(1, EventKind::Alloc, 2000, Place::cuda(0), "w");
  a.bytes = 512;
  a.allocated_after = 512;
  a.reserved_after = 2097152;
  Event f = trace_test::event(2, EventKind::Free, 3500, Place::cuda(0));
  f.allocated_after = 0;
  f.reserved_after = 2097152;
  Event p = trace_test::event(3, EventKind::Alloc, 4000, Place::pinned());
  p.allocated_after = 1024;
  p.reserved_after = 4096;
  const json doc = export_json({a, f, p}, {});
  const auto counters = with_ph(doc, "C");
  ASSERT_EQ(counters.size(), 6u);
  EXPECT_EQ(counters[0]["name"], "allocated");
  EXPECT_EQ(counters[0]["pid"], 100);
  EXPECT_EQ(counters[0]["tid"], 100);
  EXPECT_DOUBLE_EQ(counters[0]["ts"].get<double>(), 2.0);
  EXPECT_EQ(counters[0]["args"], json({{"bytes", 512}}));
  EXPECT_EQ(counters[1]["name"], "reserved");
  EXPECT_EQ(counters[1]["args"]["bytes"], 2097152);
  EXPECT_EQ(counters[2]["args"]["bytes"], 0);
  EXPECT_DOUBLE_EQ(counters[2]["ts"].get<double>(), 3.5);
  EXPECT_EQ(counters[4]["name"], "pinned allocated");
  EXPECT_EQ(counters[4]["pid"], 1);
  EXPECT_EQ(counters[5]["name"], "pinned reserved");
  EXPECT_EQ(counters[5]["args"]["bytes"], 4096);
  EXPECT_EQ(process_names(doc).at(100), "cuda:0 SIMULATED (pcie4-x16)");  // known from its events
}

TEST(ChromeTrace, ModuleMovesAndSyncsOnThePythonTrack) {
  std::deque<Event> es = {
      trace_test::event(1, EventKind::ModuleMoveBegin, 100, Place::cuda(0), "model.to(cuda:0)"),
      trace_test::event(2, EventKind::Sync, 150, Place::cuda(0)),
      trace_test::event(3, EventKind::ModuleMoveEnd, 200, Place::cuda(0), "model.to(cuda:0)"),
      trace_test::event(4, EventKind::Note, 300, Place::pageable(), "hello"),
      trace_test::event(5, EventKind::Copy, 300, Place::cuda(0)),  // drawn by its transfer, not here
  };
  const json doc = export_json(es, {});
  const auto b = with_ph(doc, "B"), e = with_ph(doc, "E"), i = with_ph(doc, "i");
  ASSERT_EQ(b.size(), 1u);
  ASSERT_EQ(e.size(), 1u);
  ASSERT_EQ(i.size(), 2u);
  EXPECT_EQ(b[0]["name"], "model.to(cuda:0)");
  EXPECT_EQ(b[0]["pid"], 1);
  EXPECT_EQ(b[0]["tid"], 1);
  EXPECT_DOUBLE_EQ(b[0]["ts"].get<double>(), 0.1);
  EXPECT_EQ(e[0]["tid"], 1);
  EXPECT_DOUBLE_EQ(e[0]["ts"].get<double>(), 0.2);
  EXPECT_EQ(i[0]["name"], "sync cuda:0");
  EXPECT_EQ(i[0]["s"], "t");
  EXPECT_EQ(i[1]["name"], "hello");
  // Every event is also in the table load_trace reads.
  ASSERT_EQ(doc["devicescopeEvents"].size(), 5u);
  EXPECT_EQ(doc["devicescopeEvents"][0],
            json::parse(R"j([1,"module-move-begin",100,"cuda:0",0,0,0,"model.to(cuda:0)",0,0])j"));
  EXPECT_EQ(doc["metadata"]["event_columns"],
            json::parse(R"(["seq","kind","time_ns","place","storage_id","bytes","transfer_id","label",
                             "allocated_after","reserved_after"])"));
}

TEST(ChromeTrace, OddStringsStayValidJson) {
  const std::string owner = std::string("q\"b\\s\nt\tc\x01 ") + "\xC3\xA9\xE2\x82\xAC" + "bad\xFF" + "end\xC3";
  TransferRecord t = trace_test::transfer(1, Place::pinned(), Place::cuda(0), 1, 0, 1, owner);
  const json doc = export_json({trace_test::event(1, EventKind::Note, 0, Place::pageable(), owner)}, {t});
  const std::string fixed = std::string("q\"b\\s\nt\tc\x01 ") + "\xC3\xA9\xE2\x82\xAC" + "bad\xEF\xBF\xBD" +
                            "end\xEF\xBF\xBD";
  EXPECT_EQ(with_ph(doc, "X")[0]["args"]["owner"], fixed);
  EXPECT_EQ(doc["devicescopeEvents"][0][7], fixed);
}

TEST(ChromeTrace, KeyOrderPerfettoNeeds) {
  // displayTimeUnit first in the file; every timed event starts with "ph" and "ts" (see the Note).
  Event a = trace_test::event(1, EventKind::Alloc, 1, Place::cuda(0));
  std::ostringstream out;
  ds::write_chrome_trace({a, trace_test::event(2, EventKind::Note, 2, Place::pageable(), "n\x01")},
                         {trace_test::transfer(1, Place::pinned(), Place::cuda(0), 1, 0, 1, "o\x02")}, sim_meta(), out);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[\n", 0), 0u);
  std::istringstream lines(text.substr(text.find('[') + 2, text.find("\n],\n") - text.find('[') - 2));
  int timed = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"ph\":\"M\"") != std::string::npos) continue;
    EXPECT_TRUE(line.rfind("{\"ph\":\"", 0) == 0 && line.find("\"ts\":") == 10) << line;
    ++timed;
  }
  EXPECT_EQ(timed, 4);  // the slice, two counters, the note
}

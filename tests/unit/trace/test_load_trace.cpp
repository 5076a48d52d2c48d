// load_trace / load_transfers_csv: exact round trips, and refusals with clear messages for
// empty, truncated, corrupt and foreign files (never a crash).
#include <gtest/gtest.h>

#include <deque>
#include <sstream>

#include "core/errors.h"
#include "trace/atomic_file.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_csv.h"
#include "trace/load_trace.h"
#include "trace_fixtures.h"

using ds::Event;
using ds::EventKind;
using ds::Place;
using ds::TransferRecord;

namespace {

struct Recording {
  std::deque<Event> events;
  std::deque<TransferRecord> transfers;
  ds::TraceMeta meta{"cuda", false, "PCIe Gen5 x16", "0.1.0", "Linux x86_64, NVIDIA H100 80GB HBM3"};
};

Recording sample() {
  Recording r;
  TransferRecord a = trace_test::transfer(1, Place::pinned(), Place::cuda(0), 4096, 1500, 2524, "model.fc.weight");
  a.enqueue_ns = 1400;
  a.non_blocking = a.async = true;
  a.measured_ns = 1023.4567;
  a.src_storage = 3;
  a.dst_storage = 4;
  a.simulated = false;
  TransferRecord b = trace_test::transfer(2, Place::pageable(), Place::cuda(1), 123456789, 3000, 0, "x,\"y\"\nz é");
  b.complete = false;
  b.route = ds::Route::StagedPinned;
  b.stream_device = 1;
  b.stream = 7;
  TransferRecord c = trace_test::transfer(3, Place::cuda(1), Place::cuda(0), 1ull << 40, 18000000000000ull,
                                          18000000000001ull, "");
  c.route = ds::Route::Peer;
  c.measured_ns = 1e-300;
  r.transfers = {a, b, c};

  Event alloc = trace_test::event(1, EventKind::Alloc, 1000, Place::cuda(0), "model.fc.weight");
  alloc.storage_id = 4;
  alloc.bytes = 4096;
  alloc.allocated_after = 4096;
  alloc.reserved_after = 2 << 20;
  Event copy = trace_test::event(2, EventKind::Copy, 1400, Place::cuda(0), "model.fc.weight");
  copy.transfer_id = 1;
  copy.bytes = 4096;
  Event done = trace_test::event(3, EventKind::CopyDone, 2524, Place::cuda(0), "model.fc.weight");
  done.transfer_id = 1;
  Event free = trace_test::event(5, EventKind::Free, 9000, Place::pinned());  // seq gaps survive
  free.reserved_after = 1 << 20;
  r.events = {alloc,
              copy,
              done,
              trace_test::event(4, EventKind::ModuleMoveBegin, 500, Place::cuda(1), "model"),
              free,
              trace_test::event(6, EventKind::Sync, 9500, Place::cuda(1)),
              trace_test::event(7, EventKind::ModuleMoveEnd, 9600, Place::cuda(1), "model"),
              trace_test::event(8, EventKind::Note, 9700, Place::pageable(), "tab\there \"quoted\"")};
  return r;
}

std::string chrome_text(const Recording& r) {
  std::ostringstream out;
  ds::write_chrome_trace(r.events, r.transfers, r.meta, out);
  return out.str();
}

// The message of the ds::Error that `f` raises (and checks its kind).
template <typename F>
std::string error_of(F f, ds::ErrorKind kind = ds::ErrorKind::ValueError) {
  try {
    f();
  } catch (const ds::Error& e) {
    EXPECT_EQ(int(e.kind()), int(kind)) << e.what();
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST(LoadTrace, ChromeTraceRoundTrip) {
  trace_test::TempDir dir;
  const Recording r = sample();
  const std::string path = dir.file("run.json");
  ds::write_file_atomically(path, [&](std::ostream& os) { ds::write_chrome_trace(r.events, r.transfers, r.meta, os); });
  const ds::LoadedTrace t = ds::load_trace(path);
  EXPECT_EQ(t.format, "chrome-trace");
  EXPECT_EQ(t.meta, r.meta);
  ASSERT_EQ(t.transfers.size(), r.transfers.size());
  for (size_t i = 0; i < r.transfers.size(); ++i) trace_test::expect_same(t.transfers[i], r.transfers[i]);
  ASSERT_EQ(t.events.size(), r.events.size());
  for (size_t i = 0; i < r.events.size(); ++i) trace_test::expect_same(t.events[i], r.events[i]);
}

TEST(LoadTrace, EmptyRecordingRoundTrip) {
  trace_test::TempDir dir;
  Recording r;
  r.meta = {"sim", true, "pcie4-x16", "0.1.0", ""};
  trace_test::write_text(dir.file("e.json"), chrome_text(r));
  const ds::LoadedTrace t = ds::load_trace(dir.file("e.json"));
  EXPECT_EQ(t.meta, r.meta);
  EXPECT_TRUE(t.transfers.empty());
  EXPECT_TRUE(t.events.empty());
}

TEST(LoadTrace, CsvRoundTrip) {
  trace_test::TempDir dir;
  const Recording r = sample();
  const std::string path = dir.file("transfers.csv");
  ds::write_file_atomically(path, [&](std::ostream& os) { ds::write_transfers_csv(r.transfers, os); });
  const auto loaded = ds::load_transfers_csv(path);
  ASSERT_EQ(loaded.size(), r.transfers.size());
  for (size_t i = 0; i < loaded.size(); ++i) trace_test::expect_same(loaded[i], r.transfers[i]);

  const ds::LoadedTrace t = ds::load_trace(path);  // detected from the header
  EXPECT_EQ(t.format, "csv");
  EXPECT_TRUE(t.meta.simulated);  // transfer 2 and 3 are simulated
  EXPECT_TRUE(t.events.empty());
  ASSERT_EQ(t.transfers.size(), 3u);
  trace_test::expect_same(t.transfers[1], r.transfers[1]);
}

TEST(LoadTrace, CsvWithCrlfLineEnds) {
  std::string text = std::string(ds::kTransfersCsvHeader) +
                     "\r\n1,pinned,cuda:0,8,direct,false,false,0,0,1,2,3,1,8.000,0,true,true,0,0,\"a\r\nb\"\r\n";
  const auto ts = ds::parse_transfers_csv(text.data(), text.size(), "t.csv");
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].owner, "a\r\nb");
  EXPECT_EQ(ts[0].end_ns, 3u);
}

TEST(LoadTrace, RefusesEmptyAndBlankFiles) {
  trace_test::TempDir dir;
  const std::string p = dir.file("empty.json");
  trace_test::write_text(p, "");
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }), p + ": not a DeviceScope trace: the file is empty");
  EXPECT_EQ(error_of([&] { ds::load_transfers_csv(p); }), p + ": not a DeviceScope trace: the file is empty");
  trace_test::write_text(p, " \n\t\n");
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }), p + ": not a DeviceScope trace: the file holds only white space");
}

TEST(LoadTrace, RefusesEveryTruncation) {
  const std::string full = chrome_text(sample());
  size_t end = full.find_last_not_of(" \n");
  ASSERT_NE(end, std::string::npos);
  for (size_t n = 0; n <= end; ++n) {
    const std::string msg = error_of([&] { ds::parse_chrome_trace(full.data(), n, "cut.json"); });
    ASSERT_EQ(msg.rfind("cut.json: not a DeviceScope trace: ", 0), 0u) << "cut at " << n << ": " << msg;
  }
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(full.data(), full.size() / 2, "cut.json"); }),
            "cut.json: not a DeviceScope trace: the JSON ends early after " + std::to_string(full.size() / 2) +
                " bytes (truncated file?)");
}

TEST(LoadTrace, RefusesTruncatedFileOnDisk) {
  trace_test::TempDir dir;
  const std::string full = chrome_text(sample());
  const std::string p = dir.file("cut.json");
  trace_test::write_text(p, full.substr(0, 1000));
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }),
            p + ": not a DeviceScope trace: the JSON ends early after 1000 bytes (truncated file?)");
}

TEST(LoadTrace, RefusesCorruptJson) {
  std::string text = chrome_text(sample());
  const size_t at = text.find("\"bytes\":4096");
  ASSERT_NE(at, std::string::npos);
  text[at + 9] = '#';
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "bad.json"); }),
            "bad.json: not a DeviceScope trace: invalid JSON at byte " + std::to_string(at + 9) +
                ": expected ',' or '}' after an object member");
}

TEST(LoadTrace, RefusesWrongValues) {
  const std::string good = chrome_text(sample());
  // The first slice is traceEvents[14]: 4 host metadata events, 2 per device (cuda:0, cuda:1),
  // 2 per copy track (stream 0 H2D and P2P on cuda:0, stream 7 H2D on cuda:1).
  std::string text = good;
  text.replace(text.find("\"bytes\":4096"), 12, "\"bytes\":\"4k\"");
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "v.json"); }),
            "v.json: not a DeviceScope trace: traceEvents[14]: 'bytes' is missing or not a non-negative integer");
  text = good;
  text.replace(text.find("\"route\":\"direct\""), 16, "\"route\":\"teleport\"");
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "v.json"); }),
            "v.json: not a DeviceScope trace: traceEvents[14]: 'route' is missing or not a route (direct, "
            "staged-pinned, peer)");
  text = good;
  text.replace(text.find("\"dst\":\"cuda:0\""), 14, "\"dst\":\"cuda:x\"");
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "v.json"); }),
            "v.json: not a DeviceScope trace: traceEvents[14]: 'dst' is missing or not a place (pageable, pinned, "
            "cuda:N)");
  text = good;
  text.replace(text.find("[1,\"alloc\""), 10, "[1,\"alloq\"");
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "v.json"); }),
            "v.json: not a DeviceScope trace: devicescopeEvents[0]: unknown event kind 'alloq'");
  text = good;
  text.replace(text.find("[1,\"alloc\""), 3, "[-1,");
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "v.json"); }),
            "v.json: not a DeviceScope trace: devicescopeEvents[0]: seq is not a non-negative integer");
}

TEST(LoadTrace, RefusesCountsThatDoNotMatch) {
  std::string text = chrome_text(sample());
  text.replace(text.find("\"transfer_count\":3"), 18, "\"transfer_count\":5");
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "n.json"); }),
            "n.json: not a DeviceScope trace: metadata says 5 transfers but the file has 3");
  text = chrome_text(sample());
  text.replace(text.find("\"event_count\":8"), 15, "\"event_count\":9");
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "n.json"); }),
            "n.json: not a DeviceScope trace: metadata says 9 events but the file has 8");
}

TEST(LoadTrace, RefusesNewerFormat) {
  std::string text = chrome_text(sample());
  text.replace(text.find("\"format_version\":1"), 18, "\"format_version\":7");
  EXPECT_EQ(error_of([&] { ds::parse_chrome_trace(text.data(), text.size(), "f.json"); }),
            "f.json: not a DeviceScope trace: written by a newer DeviceScope (format_version 7, this build reads up "
            "to 1)");
}

TEST(LoadTrace, RefusesFilesFromOtherPrograms) {
  trace_test::TempDir dir;
  const std::string p = dir.file("other.json");
  const std::string foreign = p + ": not a DeviceScope trace: no DeviceScope metadata (a JSON file or Chrome trace "
                                  "written by another program?)";
  trace_test::write_text(p, R"({"traceEvents":[{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}]})");
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }), foreign);
  trace_test::write_text(p, R"({"traceEvents":[],"metadata":{"producer":"Other"}})");
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }), foreign);
  trace_test::write_text(p, R"([{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}])");
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }),
            p + ": not a DeviceScope trace: a JSON array, not a DeviceScope Chrome trace (no metadata)");
  trace_test::write_text(p, "hello world\n");
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }),
            p + ": not a DeviceScope trace: neither Chrome trace JSON nor a DeviceScope transfers CSV (it starts "
                "with \"hello world?\")");
  trace_test::write_text(p, std::string("\x89PNG\r\n\x1a\n\0\0", 10));
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }),
            p + ": not a DeviceScope trace: neither Chrome trace JSON nor a DeviceScope transfers CSV (it starts "
                "with \"?PNG??????\")");
  trace_test::write_text(p, "id,src,dst\n1,2,3\n");
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }),
            p + ": not a DeviceScope trace: the first line has no column 'bytes' (DeviceScope's transfers CSV "
                "header is " + std::string(ds::kTransfersCsvHeader) + ")");
  trace_test::write_text(p, "name,size\nx,1\n");
  EXPECT_EQ(error_of([&] { ds::load_transfers_csv(p); }),
            p + ": not a DeviceScope trace: the first line is not DeviceScope's transfers CSV header (" +
                std::string(ds::kTransfersCsvHeader) + ")");
}

TEST(LoadTrace, RefusesGarbageWithoutCrashing) {
  // Random bytes, random JSON-looking soup, and random single-byte edits of a real trace.
  const std::string good = chrome_text(sample());
  uint64_t seed = 99;
  auto rnd = [&] { return (seed = seed * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  const std::string soup = "{}[],:\"0123456789.-+eEtruefalsnl \\";
  for (int round = 0; round < 300; ++round) {
    std::string text;
    if (round < 100) {
      for (int i = 0; i < 200; ++i) text.push_back(char(rnd() & 0xff));
    } else if (round < 200) {
      text = "{";
      for (int i = 0; i < 200; ++i) text.push_back(soup[rnd() % soup.size()]);
    } else {
      text = good;
      text[rnd() % text.size()] = soup[rnd() % soup.size()];
    }
    try {
      ds::parse_chrome_trace(text.data(), text.size(), "g.json");
    } catch (const ds::Error& e) {
      EXPECT_EQ(int(e.kind()), int(ds::ErrorKind::ValueError)) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("g.json: not a DeviceScope trace: ", 0), 0u) << e.what();
    }
    try {
      ds::parse_transfers_csv(text.data(), text.size(), "g.csv");
    } catch (const ds::Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("g.csv: not a DeviceScope trace: ", 0), 0u) << e.what();
    }
  }
}

TEST(LoadTrace, RefusesBadCsv) {
  const std::string h = std::string(ds::kTransfersCsvHeader) + "\n";
  const std::string row = "1,pinned,cuda:0,8,direct,false,false,0,0,1,2,3,1,8.000,0,true,true,0,0,owner\n";
  auto err = [](const std::string& text) {
    return error_of([&] { ds::parse_transfers_csv(text.data(), text.size(), "t.csv"); });
  };
  EXPECT_EQ(err(h + row + row.substr(0, 30)),
            "t.csv: not a DeviceScope trace: line 3: expected 20 fields, found 6 (truncated file?)");
  EXPECT_EQ(err(h + row.substr(0, row.size() - 3)),
            "t.csv: not a DeviceScope trace: line 2: the last line has no line break (truncated file?)");
  EXPECT_EQ(err(h + row + "2,pinned,cuda:0,8,direct,false,false,0,0,1,2,3,1,8.000,0,true,true,0,0,\"open"),
            "t.csv: not a DeviceScope trace: line 3: a quoted field is not closed (truncated file?)");
  std::string bad = row;
  bad.replace(bad.find(",8,"), 3, ",-8,");
  EXPECT_EQ(err(h + bad), "t.csv: not a DeviceScope trace: line 2: column bytes is '-8', not an integer");
  bad = row;
  bad.replace(bad.find("true,true"), 4, "yes");
  EXPECT_EQ(err(h + bad), "t.csv: not a DeviceScope trace: line 2: column simulated is 'yes', not true or false");
  EXPECT_EQ(err(h + "1,2\n"), "t.csv: not a DeviceScope trace: line 2: expected 20 fields, found 2");
  const std::string blank_line = h + row + "\n" + "2" + row.substr(1);  // blank lines are skipped
  EXPECT_EQ(ds::parse_transfers_csv(blank_line.data(), blank_line.size(), "t.csv").size(), 2u);
}

TEST(LoadTrace, UnreadablePathsAreRuntimeErrors) {
  trace_test::TempDir dir;
  const std::string p = dir.file("nope.json");
  EXPECT_EQ(error_of([&] { ds::load_trace(p); }, ds::ErrorKind::RuntimeError),
            "cannot read " + p + ": No such file or directory");
  EXPECT_EQ(error_of([&] { ds::load_trace(dir.path()); }, ds::ErrorKind::RuntimeError),
            "cannot read " + dir.path() + ": Is a directory");
}

// Recordings that parse but cannot be true are refused, naming the line or event: a transfer id twice,
// a copy that ends before it starts (shown as "18446744073709.710 s" before), NaN/inf timings, a
// duplicated traceEvents key or args key.
#include <gtest/gtest.h>

#include <deque>
#include <sstream>

#include "core/errors.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_csv.h"
#include "trace/load_trace.h"
#include "trace_fixtures.h"

using ds::Place;
using ds::TransferRecord;

namespace {

std::string csv_error(const std::string& body) {
  const std::string text = std::string(ds::kTransfersCsvHeader) + "\n" + body;
  try {
    ds::parse_transfers_csv(text.data(), text.size(), "t.csv");
  } catch (const ds::Error& e) {
    EXPECT_EQ(int(e.kind()), int(ds::ErrorKind::ValueError));
    return e.what();
  }
  return "<no error>";
}

std::string trace_error(const std::string& text) {
  try {
    ds::parse_chrome_trace(text.data(), text.size(), "t.json");
  } catch (const ds::Error& e) {
    EXPECT_EQ(int(e.kind()), int(ds::ErrorKind::ValueError));
    return e.what();
  }
  return "<no error>";
}

std::string trace_of(const std::deque<TransferRecord>& transfers) {
  std::ostringstream out;
  ds::write_chrome_trace({}, transfers, ds::TraceMeta{"sim", true, "pcie4-x16", "0.1.0", "test"}, out);
  return out.str();
}

// id,src,dst,bytes,route,non_blocking,async,stream_device,stream,enqueue_ns,start_ns,end_ns,duration_ns,gbps,
// measured_ns,simulated,complete,src_storage,dst_storage,owner
std::string row(int id, int start = 2, int end = 3, const std::string& measured = "0", const std::string& gbps = "8.000") {
  return std::to_string(id) + ",pinned,cuda:0,8,direct,false,false,0,0,1," + std::to_string(start) + "," +
         std::to_string(end) + ",1," + gbps + "," + measured + ",true,true,0,0,owner\n";
}

void replace_once(std::string& s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
}

}  // namespace

TEST(LoadGarbage, CsvDuplicateIds) {
  EXPECT_EQ(csv_error(row(1) + row(2) + row(1)),
            "t.csv: not a DeviceScope trace: transfer id 1 appears twice (lines 2 and 4)");
  EXPECT_EQ(csv_error(row(5) + row(3) + row(4) + row(3) + row(5)),  // the first repeat in file order
            "t.csv: not a DeviceScope trace: transfer id 3 appears twice (lines 3 and 5)");
  EXPECT_EQ(csv_error(row(1) + row(2)), "<no error>");
}

TEST(LoadGarbage, CsvEndBeforeStart) {
  EXPECT_EQ(csv_error(row(1) + row(2, 50, 40)),
            "t.csv: not a DeviceScope trace: line 3 (transfer 2): end_ns 40 is before start_ns 50");
  // A copy still in flight has no end yet.
  EXPECT_EQ(csv_error("1,pinned,cuda:0,8,direct,true,true,0,0,1,2,0,0,0.000,0,true,false,0,0,\n"), "<no error>");
}

TEST(LoadGarbage, CsvNonFiniteOrNegativeTimings) {
  EXPECT_EQ(csv_error(row(1, 2, 3, "nan")),
            "t.csv: not a DeviceScope trace: line 2: column measured_ns is 'nan', not a finite number");
  EXPECT_EQ(csv_error(row(1, 2, 3, "-inf")),
            "t.csv: not a DeviceScope trace: line 2: column measured_ns is '-inf', not a finite number");
  EXPECT_EQ(csv_error(row(1, 2, 3, "0", "inf")),
            "t.csv: not a DeviceScope trace: line 2: column gbps is 'inf', not a finite number");
  EXPECT_EQ(csv_error(row(1, 2, 3, "-4.5")),
            "t.csv: not a DeviceScope trace: line 2 (transfer 1): measured_ns is negative");
}

TEST(LoadGarbage, TraceDuplicateIds) {
  const auto a = trace_test::transfer(7, Place::pinned(), Place::cuda(0), 8, 10, 20);
  const auto b = trace_test::transfer(7, Place::cuda(0), Place::pinned(), 8, 30, 40);
  const auto c = trace_test::transfer(8, Place::pinned(), Place::cuda(1), 8, 50, 60);
  const std::string msg = trace_error(trace_of({a, c, b}));
  EXPECT_EQ(msg.rfind("t.json: not a DeviceScope trace: transfer id 7 appears twice (traceEvents[", 0), 0u) << msg;
  EXPECT_EQ(trace_error(trace_of({a, c})), "<no error>");
}

TEST(LoadGarbage, TraceEndBeforeStart) {
  const auto bad = trace_test::transfer(3, Place::pinned(), Place::cuda(0), 8, 50, 40);
  const std::string msg = trace_error(trace_of({bad}));
  EXPECT_NE(msg.find("] (transfer 3): end_ns 40 is before start_ns 50"), std::string::npos) << msg;
}

TEST(LoadGarbage, TraceDuplicatedKeys) {
  const std::string good = trace_of({trace_test::transfer(1, Place::pinned(), Place::cuda(0), 8, 10, 20)});
  std::string twice = good;
  replace_once(twice, "\"traceEvents\":[", "\"traceEvents\":[],\n\"traceEvents\":[");
  EXPECT_EQ(trace_error(twice), "t.json: not a DeviceScope trace: the key 'traceEvents' appears twice");
  std::string meta_twice = good;
  replace_once(meta_twice, "\"metadata\":{", "\"metadata\":{},\"metadata\":{");
  EXPECT_EQ(trace_error(meta_twice), "t.json: not a DeviceScope trace: the key 'metadata' appears twice");
  std::string arg_twice = good;
  replace_once(arg_twice, "\"args\":{\"id\":1,", "\"args\":{\"id\":1,\"id\":2,");
  const std::string msg = trace_error(arg_twice);
  EXPECT_NE(msg.find("]: args has 'id' twice"), std::string::npos) << msg;
}

TEST(LoadGarbage, TraceNonFiniteTimings) {
  std::string text = trace_of({trace_test::transfer(1, Place::pinned(), Place::cuda(0), 8, 10, 20)});
  replace_once(text, "\"measured_ns\":0", "\"measured_ns\":1e999");  // JSON has no inf; this is how one sneaks in
  const std::string msg = trace_error(text);
  EXPECT_NE(msg.find("]: 'measured_ns' is missing or not a number"), std::string::npos) << msg;
}

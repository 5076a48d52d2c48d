// Transfers CSV: exact header and rows for hand-built records, RFC 4180 quoting.
#include <gtest/gtest.h>

#include <deque>
#include <sstream>

#include "trace/export_csv.h"
#include "trace_fixtures.h"

using ds::Place;
using ds::Route;
using ds::TransferRecord;

namespace {
std::string csv(const std::deque<TransferRecord>& ts) {
  std::ostringstream out;
  ds::write_transfers_csv(ts, out);
  return out.str();
}
const std::string kHeader =
    "id,src,dst,bytes,route,non_blocking,async,stream_device,stream,enqueue_ns,start_ns,end_ns,duration_ns,gbps,"
    "measured_ns,simulated,complete,src_storage,dst_storage,owner\n";
}  // namespace

TEST(TransfersCsv, HeaderOnlyWhenEmpty) { EXPECT_EQ(csv({}), kHeader); }

TEST(TransfersCsv, ExactRows) {
  TransferRecord a = trace_test::transfer(1, Place::pinned(), Place::cuda(0), 4096, 1500, 2524, "model.fc.weight");
  a.enqueue_ns = 1000;
  a.non_blocking = true;
  a.async = true;
  a.measured_ns = 987.25;
  a.src_storage = 3;
  a.dst_storage = 4;

  TransferRecord b = trace_test::transfer(2, Place::pageable(), Place::cuda(1), 1000000, 3000, 0, "a,\"b\"");
  b.complete = false;
  b.route = Route::StagedPinned;
  b.stream_device = 1;
  b.stream = 2;
  b.enqueue_ns = 2900;
  b.simulated = false;

  TransferRecord c = trace_test::transfer(3, Place::cuda(0), Place::cuda(1), 3, 0, 3, "line\nbreak");
  c.route = Route::Peer;
  c.measured_ns = 0.1;

  EXPECT_EQ(csv({a, b, c}),
            kHeader +
                "1,pinned,cuda:0,4096,direct,true,true,0,0,1000,1500,2524,1024,4.000,987.25,true,true,3,4,"
                "model.fc.weight\n"
                "2,pageable,cuda:1,1000000,staged-pinned,false,false,1,2,2900,3000,0,0,0.000,0,false,false,0,0,"
                "\"a,\"\"b\"\"\"\n"
                "3,cuda:0,cuda:1,3,peer,false,false,0,0,0,0,3,3,1.000,0.1,true,true,0,0,\"line\nbreak\"\n");
}

TEST(TransfersCsv, GbpsIsBytesPerNanosecond) {
  TransferRecord t = trace_test::transfer(9, Place::cuda(0), Place::pinned(), 25'000'000'000ull, 0, 1'000'000'000);
  const std::string out = csv({t});
  EXPECT_NE(out.find(",1000000000,25.000,0,"), std::string::npos) << out;
}

TEST(TransfersCsv, FieldQuoting) {
  EXPECT_EQ(ds::csv_field("plain.name"), "plain.name");
  EXPECT_EQ(ds::csv_field(""), "");
  EXPECT_EQ(ds::csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(ds::csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(ds::csv_field("cr\rlf"), "\"cr\rlf\"");
}

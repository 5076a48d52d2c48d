// kTransferFields drives both formats: every stored field survives a CSV and a Chrome trace round trip,
// and the CSV is read by column name (reordered and extra columns load; a missing column is named).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.h"
#include "trace/export_chrome_trace.h"
#include "trace/export_csv.h"
#include "trace/load_trace.h"
#include "trace/transfer_fields.h"
#include "trace_fixtures.h"

using ds::FieldKind;
using ds::FieldValue;
using ds::Place;
using ds::TransferField;
using ds::TransferRecord;

namespace {

std::string csv_of(const std::deque<TransferRecord>& ts) {
  std::ostringstream os;
  ds::write_transfers_csv(ts, os);
  return os.str();
}

std::deque<TransferRecord> csv_round_trip(const std::deque<TransferRecord>& ts) {
  const std::string text = csv_of(ts);
  return ds::parse_transfers_csv(text.data(), text.size(), "t.csv");
}

std::deque<TransferRecord> chrome_round_trip(const std::deque<TransferRecord>& ts) {
  std::ostringstream os;
  ds::write_chrome_trace({}, ts, ds::TraceMeta{"sim", true, "link", "0.1.0", "machine"}, os);
  const std::string text = os.str();
  return ds::parse_chrome_trace(text.data(), text.size(), "t.json").transfers;
}

// Values that base() does not hold (booleans are flipped by the caller), and that a valid copy may hold.
FieldValue unusual() {
  FieldValue v;
  v.u = 77;
  v.i = 5;
  v.d = 12.25;
  v.b = true;
  v.s = "model.layers[3].weight";
  v.place = Place::cuda(2);
  v.route = ds::Route::Peer;
  return v;
}

bool same_value(FieldKind kind, const FieldValue& a, const FieldValue& b) {
  switch (kind) {
    case FieldKind::U64: return a.u == b.u;
    case FieldKind::I32: return a.i == b.i;
    case FieldKind::Double:
    case FieldKind::Rate: return a.d == b.d;
    case FieldKind::Bool: return a.b == b.b;
    case FieldKind::String: return a.s == b.s;
    case FieldKind::PlaceText: return a.place == b.place;
    case FieldKind::RouteText: return a.route == b.route;
  }
  return false;
}

// A complete copy with id 1, valid for the loaders' checks whatever one field is then set to.
TransferRecord base() {
  TransferRecord t = trace_test::transfer(1, Place::pinned(), Place::cuda(0), 4096, 100, 200, "x");
  t.enqueue_ns = 50;
  return t;
}

}  // namespace

TEST(TransferFields, EveryStoredFieldSurvivesBothFormats) {
  for (const TransferField& f : ds::kTransferFields) {
    if (!f.stored()) continue;
    TransferRecord t = base();
    const FieldValue before = f.get(t);
    FieldValue v = unusual();
    v.b = !before.b;
    f.set(t, v);
    if (f.name == "end_ns") t.start_ns = 60;  // a complete copy ends after it starts
    ASSERT_FALSE(same_value(f.kind, before, f.get(t))) << f.name << ": the test value is the record's own";
    const std::deque<TransferRecord> one = {t};
    for (const auto& loaded : {csv_round_trip(one), chrome_round_trip(one)}) {
      ASSERT_EQ(loaded.size(), 1u);
      EXPECT_TRUE(same_value(f.kind, f.get(loaded[0]), f.get(t))) << f.name;
      trace_test::expect_same(loaded[0], t);
    }
  }
}

TEST(TransferFields, HeaderAndChromeArgsComeFromTheTable) {
  std::string joined;
  for (const TransferField& f : ds::kTransferFields) joined += (joined.empty() ? "" : ",") + std::string(f.name);
  EXPECT_EQ(ds::kTransfersCsvHeader, joined);
  EXPECT_EQ(csv_of({}), joined + "\n");
  // The args of a slice are written in chrome_position order, "GB/s" standing for gbps.
  std::ostringstream os;
  ds::write_chrome_trace({}, {base()}, ds::TraceMeta{}, os);
  const std::string text = os.str();
  size_t at = text.find("\"args\":{\"id\":");
  ASSERT_NE(at, std::string::npos);
  for (const TransferField* f : ds::kChromeTraceArgs) {
    const size_t next = text.find("\"" + std::string(f->key_in_chrome_trace()) + "\":", at);
    ASSERT_NE(next, std::string::npos) << f->name;
    at = next;
  }
  EXPECT_EQ(text.find("\"duration_ns\""), std::string::npos);
}

TEST(TransferFields, CsvColumnsAreReadByName) {
  TransferRecord a = base();
  a.owner = "with, a comma";
  TransferRecord b = base();
  b.id = 2;
  b.route = ds::Route::StagedPinned;
  b.stream = 3;
  b.measured_ns = 0.5;
  const std::deque<TransferRecord> ts = {a, b};
  // Split each line of the file DeviceScope writes: owner is the last column and the only one quoted.
  const std::string text = csv_of(ts);
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cells;
    for (size_t i = 0; i + 1 < ds::kTransferFieldCount; ++i) {
      const size_t comma = line.find(',');
      cells.push_back(line.substr(0, comma));
      line.erase(0, comma + 1);
    }
    cells.push_back(line);
    rows.push_back(cells);
  }
  auto write = [&](const std::vector<size_t>& order, const std::string& extra_header, const std::string& extra) {
    std::string out;
    for (size_t r = 0; r < rows.size(); ++r) {
      std::string line = extra_header.empty() ? "" : (r == 0 ? extra_header : extra) + ",";
      for (size_t k = 0; k < order.size(); ++k) line += (k ? "," : "") + rows[r][order[k]];
      out += line + "\n";
    }
    return out;
  };
  std::vector<size_t> reversed(ds::kTransferFieldCount);
  for (size_t i = 0; i < reversed.size(); ++i) reversed[i] = reversed.size() - 1 - i;

  // Reversed columns, and an extra column in front (a spreadsheet's note), load as the same records,
  // through load_trace's format detection too.
  trace_test::TempDir dir;
  for (const std::string& extra : {std::string(), std::string("note")}) {
    const std::string p = dir.file("reordered" + extra + ".csv");
    trace_test::write_text(p, write(reversed, extra, "\"a, b\""));
    for (const auto& loaded : {ds::load_transfers_csv(p), ds::load_trace(p).transfers}) {
      ASSERT_EQ(loaded.size(), 2u) << extra;
      trace_test::expect_same(loaded[0], a);
      trace_test::expect_same(loaded[1], b);
    }
  }

  auto error_of = [](const std::string& csv) -> std::string {
    try {
      ds::parse_transfers_csv(csv.data(), csv.size(), "t.csv");
    } catch (const ds::Error& e) {
      return e.what();
    }
    return "<no error>";
  };
  auto without = [&](std::string_view name) {
    std::vector<size_t> order;
    for (size_t i = 0; i < ds::kTransferFieldCount; ++i)
      if (ds::kTransferFields[i].name != name) order.push_back(i);
    return order;
  };
  // Derived columns may be left out; a stored one may not, and the message names it.
  const std::string no_derived = write(without("gbps"), "", "");
  EXPECT_EQ(ds::parse_transfers_csv(no_derived.data(), no_derived.size(), "t.csv").size(), 2u);
  EXPECT_EQ(error_of(write(without("end_ns"), "", "")),
            "t.csv: not a DeviceScope trace: the first line has no column 'end_ns' (DeviceScope's transfers CSV "
            "header is " + std::string(ds::kTransfersCsvHeader) + ")");
  std::vector<size_t> twice = reversed;
  twice.push_back(twice.back());
  EXPECT_EQ(error_of(write(twice, "", "")), "t.csv: not a DeviceScope trace: the first line names the column 'id' twice");
  // A bad value is reported under its own column's name wherever the column stands.
  std::string bad = write(reversed, "", "");
  bad.replace(bad.find(",pinned,"), 8, ",pinnned,");
  EXPECT_EQ(error_of(bad), "t.csv: not a DeviceScope trace: line 2: column src is 'pinnned', not a place (pageable, "
                           "pinned, cuda:N)");
}

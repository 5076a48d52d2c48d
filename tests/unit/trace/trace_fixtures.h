// Shared helpers for the trace tests: hand-built records, field-by-field comparison, a temp dir.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "trace/records.h"

namespace trace_test {

inline ds::TransferRecord transfer(uint64_t id, ds::Place src, ds::Place dst, uint64_t bytes, uint64_t start,
                                   uint64_t end, std::string owner = "") {
  ds::TransferRecord t;
  t.id = id;
  t.src = src;
  t.dst = dst;
  t.bytes = bytes;
  t.enqueue_ns = start;
  t.start_ns = start;
  t.end_ns = end;
  t.complete = true;
  t.simulated = true;
  t.owner = std::move(owner);
  return t;
}

inline ds::Event event(uint64_t seq, ds::EventKind kind, uint64_t time, ds::Place place, std::string label = "") {
  ds::Event e;
  e.seq = seq;
  e.kind = kind;
  e.time_ns = time;
  e.place = place;
  e.label = std::move(label);
  return e;
}

inline void expect_same(const ds::TransferRecord& a, const ds::TransferRecord& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.src, b.src) << a.src.str() << " vs " << b.src.str();
  EXPECT_EQ(a.dst, b.dst) << a.dst.str() << " vs " << b.dst.str();
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.route, b.route);
  EXPECT_EQ(a.non_blocking, b.non_blocking);
  EXPECT_EQ(a.async, b.async);
  EXPECT_EQ(a.stream_device, b.stream_device);
  EXPECT_EQ(a.stream, b.stream);
  EXPECT_EQ(a.enqueue_ns, b.enqueue_ns);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(a.measured_ns, b.measured_ns);  // exact: written as the shortest round-trip decimal
  EXPECT_EQ(a.simulated, b.simulated);
  EXPECT_EQ(a.complete, b.complete);
  EXPECT_EQ(a.src_storage, b.src_storage);
  EXPECT_EQ(a.dst_storage, b.dst_storage);
  EXPECT_EQ(a.owner, b.owner);
  EXPECT_EQ(a.backend_ticket, b.backend_ticket);
}

inline void expect_same(const ds::Event& a, const ds::Event& b) {
  EXPECT_EQ(a.seq, b.seq);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.time_ns, b.time_ns);
  EXPECT_EQ(a.place, b.place);
  EXPECT_EQ(a.storage_id, b.storage_id);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.transfer_id, b.transfer_id);
  EXPECT_EQ(a.label, b.label);
  EXPECT_EQ(a.allocated_after, b.allocated_after);
  EXPECT_EQ(a.reserved_after, b.reserved_after);
}

// A fresh directory under the test temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "ds_trace_test.XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace trace_test

// load_sweep_json refuses impossible values, naming the field: negative bytes (which wrapped to 2^64-5),
// negative or non-number timings; and refuses what is not a bench file from its first bytes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "sweep/sweep_io.h"
#include "core/errors.h"
#include "trace/load_progress.h"

namespace {

const std::string kPoint =
    R"({"route":"h2d","memory":"pinned","mode":"sync","bytes":4096,"samples_ns":[10,12],"median_ns":11,)"
    R"("p10_ns":10,"p90_ns":12,"gbps":372.3,"simulated":true})";
const std::string kPin =
    R"({"bytes":4096,"pin_ns":100,"pin_gbps":40.9,"measured":false,"saving_ns":-3,"reuses_to_repay":0})";

std::string bench(const std::string& point, const std::string& pin = kPin) {
  return R"({"format":"devicescope-bench","backend":"sim","link":"x","simulated":true,"points":[)" + point +
         R"(],"pinning":[)" + pin + "]}";
}

std::string path_with(const std::string& text) {
  const std::string p = ::testing::TempDir() + "/garbage_bench.json";
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string load_error(const std::string& text, ds::LoadProgress* progress = nullptr) {
  const std::string p = path_with(text);
  std::string msg = "<no error>";
  try {
    ds::load_sweep_json(p, progress);
  } catch (const ds::Error& e) {
    EXPECT_EQ(int(e.kind()), int(ds::ErrorKind::ValueError)) << e.what();
    msg = e.what();
    msg.replace(0, p.size(), "B");
  }
  ::unlink(p.c_str());
  return msg;
}

std::string with(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

}  // namespace

TEST(SweepJsonGarbage, ValidFileLoads) {
  EXPECT_EQ(load_error(bench(kPoint)), "<no error>");  // saving_ns may be negative: pinning can cost more
}

TEST(SweepJsonGarbage, NegativeBytesAreRefused) {
  EXPECT_EQ(load_error(bench(with(kPoint, "\"bytes\":4096", "\"bytes\":-5"))),
            "B: not a DeviceScope bench file: points[0].bytes is -5, not a non-negative integer");
  EXPECT_EQ(load_error(bench(kPoint, with(kPin, "\"bytes\":4096", "\"bytes\":-5"))),
            "B: not a DeviceScope bench file: pinning[0].bytes is -5, not a non-negative integer");
  EXPECT_EQ(load_error(bench(with(kPoint, "\"bytes\":4096", "\"bytes\":4096.5"))),
            "B: not a DeviceScope bench file: points[0].bytes is 4096.5, not a non-negative integer");
}

TEST(SweepJsonGarbage, NegativeOrWrongTimingsAreRefused) {
  EXPECT_EQ(load_error(bench(with(kPoint, "[10,12]", "[10,-12]"))),
            "B: not a DeviceScope bench file: points[0].samples_ns[1] is -12, not a finite non-negative number");
  EXPECT_EQ(load_error(bench(with(kPoint, "\"median_ns\":11", "\"median_ns\":\"11\""))),
            "B: not a DeviceScope bench file: points[0].median_ns is \"11\", not a finite non-negative number");
  EXPECT_EQ(load_error(bench(with(kPoint, "\"gbps\":372.3", "\"gbps\":-1"))),
            "B: not a DeviceScope bench file: points[0].gbps is -1, not a finite non-negative number");
  EXPECT_EQ(load_error(bench(kPoint, with(kPin, "\"pin_ns\":100", "\"pin_ns\":-100"))),
            "B: not a DeviceScope bench file: pinning[0].pin_ns is -100, not a finite non-negative number");
}

TEST(SweepJsonGarbage, NotABenchFileIsRefusedFromItsHead) {
  const std::string p = ::testing::TempDir() + "/nul_bench.json";
  { std::ofstream(p, std::ios::binary) << ""; }
  ASSERT_EQ(::truncate(p.c_str(), off_t(1) << 31), 0);  // 2 GiB of NULs, sparse
  ds::LoadProgress progress;
  try {
    ds::load_sweep_json(p, &progress);
    ADD_FAILURE() << "accepted";
  } catch (const ds::Error& e) {
    EXPECT_EQ(std::string(e.what()), p + ": not a DeviceScope bench file: missing \"format\": \"devicescope-bench\"");
  }
  EXPECT_EQ(progress.bytes_read.load(), 0u);
  ::unlink(p.c_str());
  EXPECT_EQ(load_error(""), "B: not a DeviceScope bench file: the file is empty");
}

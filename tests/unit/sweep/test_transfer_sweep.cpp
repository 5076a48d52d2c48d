// The transfer sweep on simulated devices: modelled figures, option parsing, cancel, JSON round trip.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "backend/link_profile.h"
#include "sweep/sweep_io.h"
#include "sweep/transfer_sweep.h"
#include "core/errors.h"

using namespace ds;

namespace {
std::shared_ptr<Runtime> sim(int devices = 2) {
  RuntimeOptions o;
  o.backend.backend = "sim";
  o.backend.sim_devices = devices;
  o.backend.sim_memory = 1ull << 30;
  return Runtime::create(o);
}
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}
}  // namespace

TEST(SweepOptions, SizeLists) {
  EXPECT_EQ(parse_size_list("4KiB:16KiB"), (std::vector<uint64_t>{4096, 8192, 16384}));
  EXPECT_EQ(parse_size_list("1MiB:64MiB:x4"), (std::vector<uint64_t>{1 << 20, 4 << 20, 16 << 20, 64 << 20}));
  EXPECT_EQ(parse_size_list("4KiB,1MiB"), (std::vector<uint64_t>{4096, 1 << 20}));
  EXPECT_EQ(error_of([] { parse_size_list("1GiB:4KiB"); }),
            "invalid size range '1GiB:4KiB' (expected LOW:HIGH, e.g. 4KiB:1GiB)");
  EXPECT_EQ(error_of([] { parse_size_list("4KiB:1MiB:y2"); }), "invalid size step 'y2' (expected e.g. x2 or x4)");
  EXPECT_NE(error_of([] { parse_size_list("lots"); }).find("invalid size 'lots'"), std::string::npos);
  EXPECT_EQ(error_of([] { parse_choice_list("h2d,x", {"h2d", "d2h"}, "route"); }),
            "unknown route 'x' (choose from h2d, d2h)");
}

TEST(Sweep, SimulatedFiguresFollowTheLinkModel) {
  auto rt = sim();
  SweepOptions o;
  o.sizes = {1 << 20};
  o.routes = {"h2d", "p2p"};
  o.repeat = 3;
  SweepResult r = run_sweep(*rt, o);
  EXPECT_TRUE(r.simulated);
  EXPECT_EQ(r.backend, "sim");
  // h2d x {pinned, pageable} x {sync, async} + p2p x {sync, async}
  ASSERT_EQ(r.points.size(), 6u);
  const LinkProfile& link = rt->backend().link();
  for (const SweepPoint& p : r.points) {
    EXPECT_EQ(p.samples_ns.size(), 3u);
    EXPECT_TRUE(p.simulated);
    const RouteRate& rate = p.route == "p2p" ? link.p2p : p.memory == "pinned" ? link.h2d_pinned : link.h2d_pageable;
    EXPECT_DOUBLE_EQ(p.median_ns, double(LinkProfile::duration_ns(rate, 1 << 20))) << p.route << " " << p.memory;
    EXPECT_EQ(p.p10_ns, p.p90_ns);  // the model is deterministic: no spread
    EXPECT_EQ(p.raw_ns, 0);         // no raw CUDA baseline without a GPU
  }
  ASSERT_EQ(r.pinning.size(), 1u);
  EXPECT_GT(r.pinning[0].saving_ns, 0);  // pinned H2D is faster than pageable
  EXPECT_GE(r.pinning[0].reuses_to_repay, 1);
}

TEST(Sweep, SkipsPeerCopiesOnOneDeviceAndRefusesNoDevices) {
  auto one = sim(1);
  SweepOptions o;
  o.sizes = {4096};
  o.routes = {"p2p", "d2d"};
  o.modes = {"sync"};
  SweepResult r = run_sweep(*one, o);
  ASSERT_EQ(r.points.size(), 1u);
  EXPECT_EQ(r.points[0].route, "d2d");
  auto none = sim(0);
  EXPECT_NE(error_of([&] { run_sweep(*none, o); }).find("no CUDA devices"), std::string::npos);
}

TEST(Sweep, CancelKeepsWhatWasMeasured) {
  auto rt = sim();
  SweepOptions o;
  o.sizes = {4096, 8192, 16384};
  o.routes = {"h2d"};
  int calls = 0;
  SweepResult r = run_sweep(*rt, o, [&](double, const std::string&) { return ++calls <= 2; });
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.points.size(), 2u);
}

TEST(SweepIo, JsonRoundTripAndCorruptFiles) {
  auto rt = sim();
  SweepOptions o;
  o.sizes = {4096};
  o.routes = {"d2h"};
  SweepResult r = run_sweep(*rt, o);
  const std::string path = ::testing::TempDir() + "/sweep.json";
  {
    std::ofstream out(path);
    write_sweep_json(r, out);
  }
  SweepResult back = load_sweep_json(path);
  ASSERT_EQ(back.points.size(), r.points.size());
  EXPECT_EQ(back.points[0].median_ns, r.points[0].median_ns);
  EXPECT_EQ(back.points[0].samples_ns, r.points[0].samples_ns);
  EXPECT_EQ(back.simulated, true);

  std::stringstream csv;
  write_sweep_csv(r, csv);
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, "route,memory,mode,bytes,median_ns,p10_ns,p90_ns,host_ns,gbps,link_gbps,raw_ns,vs_raw,simulated,backend,link");

  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  {
    std::ofstream out(path);
    out << text.substr(0, text.size() / 2);  // truncated
  }
  EXPECT_NE(error_of([&] { load_sweep_json(path); }).find(": not a DeviceScope bench file: invalid JSON"),
            std::string::npos);
  {
    std::ofstream out(path);
    out << "{\"traceEvents\": []}";
  }
  EXPECT_NE(error_of([&] { load_sweep_json(path); }).find("missing \"format\""), std::string::npos);
  std::remove(path.c_str());
}

// Link profiles: the shipped names, the duration arithmetic (latency + bytes / bandwidth), errors.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/link_profile.h"
#include "core/errors.h"

namespace ds {
namespace {

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kGiB = 1ull << 30;

TEST(LinkProfile, ShipsThreeProfilesDefaultFirst) {
  const auto& all = link_profiles();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].name, "pcie4-x16");
  EXPECT_EQ(all[1].name, "pcie5-x16");
  EXPECT_EQ(all[2].name, "nvlink-c2c");
  for (const LinkProfile& p : all) {
    EXPECT_FALSE(p.description.empty()) << p.name;
    EXPECT_FALSE(p.source.empty()) << p.name;
    // Pageable memory is staged by the driver: never faster than pinned.
    EXPECT_LT(p.h2d_pageable.bandwidth_gbs, p.h2d_pinned.bandwidth_gbs) << p.name;
    EXPECT_LT(p.d2h_pageable.bandwidth_gbs, p.d2h_pinned.bandwidth_gbs) << p.name;
    EXPECT_GT(p.d2d.bandwidth_gbs, p.h2d_pinned.bandwidth_gbs) << p.name;
  }
}

TEST(LinkProfile, DurationIsLatencyPlusBytesOverBandwidth) {
  const LinkProfile& p = find_link_profile("pcie4-x16");
  EXPECT_EQ(LinkProfile::duration_ns(p.h2d_pinned, 0), 8000u);             // latency only
  EXPECT_EQ(LinkProfile::duration_ns(p.h2d_pinned, kMiB), 49943u);         // 8000 + 41943.04
  EXPECT_EQ(LinkProfile::duration_ns(p.h2d_pinned, 64 * kMiB), 2692355u);  // 8000 + 2684354.56
  EXPECT_EQ(LinkProfile::duration_ns(p.d2h_pinned, kMiB), 48330u);
  EXPECT_EQ(LinkProfile::duration_ns(p.h2d_pageable, kMiB), 99381u);
  EXPECT_EQ(LinkProfile::duration_ns(p.d2h_pageable, kMiB), 116858u);
  EXPECT_EQ(LinkProfile::duration_ns(p.d2d, kMiB), 5498u);
  EXPECT_EQ(LinkProfile::duration_ns(p.p2p, kMiB), 57663u);
}

TEST(LinkProfile, FasterLinksTakeLess) {
  EXPECT_EQ(LinkProfile::duration_ns(find_link_profile("pcie5-x16").h2d_pinned, kGiB), 19892108u);
  EXPECT_EQ(LinkProfile::duration_ns(find_link_profile("pcie5-x16").d2h_pinned, kMiB), 28165u);
  EXPECT_EQ(LinkProfile::duration_ns(find_link_profile("nvlink-c2c").h2d_pinned, kGiB), 2624882u);
  EXPECT_EQ(LinkProfile::duration_ns(find_link_profile("nvlink-c2c").d2d, 64 * kMiB), 41283u);
  EXPECT_EQ(LinkProfile::duration_ns(find_link_profile("nvlink-c2c").p2p, kMiB), 10759u);
}

TEST(LinkProfile, ZeroBandwidthMeansLatencyOnly) {
  EXPECT_EQ(LinkProfile::duration_ns(RouteRate{2.5, 0}, 123456), 2500u);
}

TEST(LinkProfile, UnknownNameRaisesValueErrorListingNames) {
  try {
    find_link_profile("pcie3-x16");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ValueError);
    EXPECT_STREQ(e.what(), "unknown link profile 'pcie3-x16' (known: pcie4-x16, pcie5-x16, nvlink-c2c)");
  }
}

TEST(Route, Names) {
  EXPECT_STREQ(route_name(Route::Direct), "direct");
  EXPECT_STREQ(route_name(Route::StagedPinned), "staged-pinned");
  EXPECT_STREQ(route_name(Route::Peer), "peer");
}

}  // namespace
}  // namespace ds

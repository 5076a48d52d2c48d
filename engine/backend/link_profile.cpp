// The shipped link profiles (typical published transfer figures) and the copy-duration arithmetic.
#include "backend/link_profile.h"

#include <cmath>

#include "core/errors.h"

namespace ds {

// Note [Link profile figures]
// These are TYPICAL figures, not guarantees: what commonly published runs of NVIDIA's
// bandwidthTest (CUDA samples, 1_Utilities/bandwidthTest) and nvbandwidth
// (github.com/NVIDIA/nvbandwidth; NVIDIA developer blog "NVbandwidth", 2025) report for
// large (>= 32 MiB) copies on each class of machine. Real systems vary by +-20% with the
// CPU, NUMA placement, IOMMU settings and driver.
// - Bandwidth is bytes moved per second (1 GB/s = 1e9 B/s), one direction at a time.
// - Device-to-device is the on-device copy rate (bytes copied per second). bandwidthTest's
//   "Device to Device" line counts read + write, i.e. twice this figure.
// - Latency is the fixed cost of one copy as a program sees it (API call to completion of a
//   tiny copy): a few microseconds for the copy engine, more when the driver stages pageable
//   memory through its own pinned bounce buffer.
// - Pageable figures are the least certain: they are bounded by the host's memcpy into the
//   staging buffer, so they depend on the CPU far more than on the link.
namespace {

std::vector<LinkProfile> make_profiles() {
  std::vector<LinkProfile> v;

  LinkProfile pcie4;
  pcie4.name = "pcie4-x16";
  pcie4.description = "PCIe 4.0 x16 host link, A100-class GPU (HBM2e), peer copies over PCIe";
  // PCIe 4.0 x16 is 31.5 GB/s raw per direction; bandwidthTest with pinned memory typically
  // shows ~24-26 GB/s H2D/D2H, pageable ~10-13 GB/s. A100 40GB bandwidthTest D2D ~1.4 TB/s
  // (read+write) -> ~700 GB/s copied. p2pBandwidthLatencyTest over a PCIe 4 switch: ~20-25 GB/s.
  pcie4.h2d_pinned = {8.0, 25.0};
  pcie4.d2h_pinned = {8.0, 26.0};
  pcie4.sm_major = 8, pcie4.sm_minor = 0;  // A100: compute capability 8.0
  pcie4.h2d_pageable = {12.0, 12.0};
  pcie4.d2h_pageable = {12.0, 10.0};
  pcie4.d2d = {4.0, 700.0};
  pcie4.p2p = {10.0, 22.0};
  pcie4.source =
      "typical CUDA bandwidthTest / p2pBandwidthLatencyTest results on PCIe 4.0 x16 A100 systems "
      "(pinned ~25 GB/s of 31.5 GB/s raw)";
  v.push_back(pcie4);

  LinkProfile pcie5;
  pcie5.name = "pcie5-x16";
  pcie5.description = "PCIe 5.0 x16 host link, H100-class GPU (HBM3), peer copies over PCIe";
  // PCIe 5.0 x16 is 63 GB/s raw per direction; nvbandwidth host_to_device_memcpy_ce typically
  // reports ~50-55 GB/s (NVIDIA's NVbandwidth blog shows 55.63 GB/s), pageable ~18-22 GB/s.
  // H100 SXM HBM3 (3.35 TB/s): D2D copies ~1.5 TB/s copied. Peer over PCIe 5 (no NVLink): ~45 GB/s.
  pcie5.h2d_pinned = {8.0, 54.0};
  pcie5.d2h_pinned = {8.0, 52.0};
  pcie5.sm_major = 9, pcie5.sm_minor = 0;  // H100: compute capability 9.0
  pcie5.h2d_pageable = {12.0, 20.0};
  pcie5.d2h_pageable = {12.0, 18.0};
  pcie5.d2d = {4.0, 1500.0};
  pcie5.p2p = {10.0, 45.0};
  pcie5.source =
      "typical nvbandwidth / bandwidthTest results on PCIe 5.0 x16 H100 systems "
      "(pinned ~50-55 GB/s of 63 GB/s raw)";
  v.push_back(pcie5);

  LinkProfile c2c;
  c2c.name = "nvlink-c2c";
  c2c.description = "NVLink-C2C (Grace Hopper GH200): 450 GB/s per direction to the Grace CPU";
  // NVLink-C2C is 900 GB/s total, 450 GB/s per direction (GH200 datasheet); nvbandwidth CE
  // copies with pinned memory typically reach ~380-420 GB/s. Pageable memory is reachable by
  // the GPU through ATS, but driver-staged cudaMemcpy from pageable memory stays well below
  // that (~100 GB/s typical, CPU-bound). HBM3 (4 TB/s): ~1.8 TB/s copied. Peer: NVLink 4
  // between superchips, ~380 GB/s per direction measured of 450 GB/s.
  c2c.h2d_pinned = {6.0, 410.0};
  c2c.d2h_pinned = {6.0, 400.0};
  c2c.sm_major = 9, c2c.sm_minor = 0;  // GH200's Hopper GPU: compute capability 9.0
  c2c.h2d_pageable = {10.0, 100.0};
  c2c.d2h_pageable = {10.0, 100.0};
  c2c.d2d = {4.0, 1800.0};
  c2c.p2p = {8.0, 380.0};
  c2c.source =
      "NVIDIA GH200 datasheet (NVLink-C2C 900 GB/s bidirectional) and typical nvbandwidth "
      "results on GH200 (~400 GB/s per direction)";
  v.push_back(c2c);
  return v;
}

}  // namespace

const std::vector<LinkProfile>& link_profiles() {
  static const std::vector<LinkProfile> profiles = make_profiles();  // immutable table
  return profiles;
}

const LinkProfile& find_link_profile(const std::string& name) {
  std::string known;
  for (const LinkProfile& p : link_profiles()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  raise(ErrorKind::ValueError, "unknown link profile '" + name + "' (known: " + known + ")");
}

uint64_t LinkProfile::duration_ns(const RouteRate& rate, uint64_t bytes) {
  // 1 GB/s = 1 byte per ns, so bytes / bandwidth_gbs is already in ns. Rounded to the nearest ns.
  double ns = rate.latency_us * 1000.0;
  if (rate.bandwidth_gbs > 0) ns += double(bytes) / rate.bandwidth_gbs;
  return uint64_t(std::llround(ns));
}

}  // namespace ds

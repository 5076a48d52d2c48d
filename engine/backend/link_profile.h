// Link profiles: latency and bandwidth per transfer route, used to model simulated copies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ds {

struct RouteRate {
  double latency_us = 0;     // fixed cost per copy
  double bandwidth_gbs = 0;  // sustained GB/s (1e9 bytes per second)
};

struct LinkProfile {
  std::string name;         // "pcie4-x16"
  std::string description;  // one line for `devicescope devices`
  RouteRate h2d_pinned, d2h_pinned, h2d_pageable, d2h_pageable, d2d, p2p;
  std::string source;       // where the figures come from (public measurements)
  // The GPU architecture of the profile's class of machine (compute capability major.minor): what the
  // simulated devices report to torch.cuda.get_device_capability, and what sizes the cuBLAS workspace
  // (alloc/blas_workspace.h).
  int sm_major = 8, sm_minor = 0;
  std::string arch() const { return "sm_" + std::to_string(sm_major) + std::to_string(sm_minor); }  // "sm_90"

  // Modelled duration of a copy of `bytes` over `rate`, in nanoseconds.
  static uint64_t duration_ns(const RouteRate& rate, uint64_t bytes);
};

const std::vector<LinkProfile>& link_profiles();           // every shipped profile
const LinkProfile& find_link_profile(const std::string& name);  // raises ValueError listing the names

}  // namespace ds

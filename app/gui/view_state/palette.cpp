// The DeviceScope palette: role colours readable on the dark theme and distinct for common colour-blindness.
#include "gui/view_state/palette.h"

#include <cstdio>
#include <cstdlib>

namespace ds::gui {

std::string color_hex(uint32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff);
  return buf;
}

uint32_t role_color(Role r) {
  switch (r) {
    case Role::Parameter: return rgba(0x4c, 0x9a, 0xff);
    case Role::Buffer: return rgba(0x2e, 0xc4, 0xb6);
    case Role::Gradient: return rgba(0xff, 0x9f, 0x43);
    case Role::PlainAttribute: return rgba(0xf3, 0x68, 0xe0);
    case Role::OptimizerState: return rgba(0xa2, 0x9b, 0xfe);
    case Role::Activation: return rgba(0xf6, 0xd1, 0x5c);
    case Role::Workspace: return rgba(0xe8, 0x5d, 0x75);  // rose: library scratch, no other role's hue
    // tan: held by the allocator for no tensor the recorder saw; warm like workspace, but not its rose
    case Role::AllocatorOnly: return rgba(0xc8, 0x9b, 0x6e);
    case Role::PinnedStaging: return rgba(0x7b, 0xd3, 0x89);
    case Role::Tensor: return rgba(0xa3, 0xb1, 0xc2);
  }
  return kUnknownBlock;
}

uint32_t device_color(const std::string& device) {
  if (device.rfind("cuda", 0) == 0) {
    static const uint32_t gpus[] = {rgba(0x76, 0xb9, 0x00), rgba(0xf5, 0xa6, 0x23), rgba(0xc0, 0x6c, 0xf0),
                                    rgba(0x4a, 0xb8, 0xe8), rgba(0xe8, 0x6a, 0x5a), rgba(0xd4, 0xd0, 0x4a)};
    const size_t colon = device.find(':');
    const int index = colon == std::string::npos ? 0 : std::atoi(device.c_str() + colon + 1);
    return gpus[size_t(index) % 6];
  }
  if (device.find("pinned") != std::string::npos) return rgba(0x50, 0xd8, 0xc0);
  return rgba(0x9a, 0xa4, 0xb0);
}

uint32_t place_color(Place p) {
  if (p.kind == MemoryKind::Pinned) return device_color("pinned");
  if (p.kind == MemoryKind::Pageable) return device_color("cpu");
  return device_color("cuda:" + std::to_string(p.device));
}

uint32_t route_color(RouteHue r) {
  switch (r) {
    case RouteHue::H2DPinned: return rgba(0x4c, 0x9a, 0xff);    // blue
    case RouteHue::H2DPageable: return rgba(0xc7, 0x7d, 0xff);  // violet
    case RouteHue::D2HPinned: return rgba(0xff, 0x9f, 0x43);    // orange
    case RouteHue::D2HPageable: return rgba(0xe8, 0xe0, 0x5a);  // yellow
    case RouteHue::D2D: return rgba(0x4e, 0xd1, 0x8a);          // green
    case RouteHue::H2H: return rgba(0xa0, 0xa8, 0xb4);          // grey: never crosses a device link
  }
  return 0xffffffff;
}

RouteHue route_of(Place src, Place dst) {
  const bool h2d = src.is_host() && !dst.is_host();
  const bool d2h = !src.is_host() && dst.is_host();
  if (h2d) return src.kind == MemoryKind::Pinned ? RouteHue::H2DPinned : RouteHue::H2DPageable;
  if (d2h) return dst.kind == MemoryKind::Pinned ? RouteHue::D2HPinned : RouteHue::D2HPageable;
  return src.is_host() ? RouteHue::H2H : RouteHue::D2D;
}

uint32_t transfer_color(Place src, Place dst) { return route_color(route_of(src, dst)); }

}  // namespace ds::gui

// Colours the views share, packed like ImGui's IM_COL32 (0xAABBGGRR), so the GL-free view models can
// name them (and write them to the view-model JSON) without including ImGui.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>

#include "core/place.h"
#include "core/role.h"
#include "trace/snapshot.h"

namespace ds::gui {

constexpr uint32_t rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
  return uint32_t(r) | (uint32_t(g) << 8) | (uint32_t(b) << 16) | (uint32_t(a) << 24);
}
std::string color_hex(uint32_t c);  // "#4c9aff"

inline constexpr Role kAllRoles[] = {Role::Parameter,     Role::Buffer,        Role::Gradient,  Role::PlainAttribute,
                                     Role::OptimizerState, Role::Activation,    Role::Workspace, Role::AllocatorOnly,
                                     Role::PinnedStaging, Role::Tensor};
static_assert(std::size(kAllRoles) == std::size(kRoles), "every role has a place in the legend");

uint32_t role_color(Role r);
// The legend's wording of a role is ds::role_label (core/role.h).

// Memory map furniture.
// A cached free block (reserved, not allocated): the shader fills it darker and outlines it lighter than
// this, light enough to stand out from the pane's near-black; the legend's swatch and the block's size
// label use the same look.
inline constexpr uint32_t kSegmentFrame = rgba(0x50, 0x60, 0x78);
inline constexpr uint32_t kFreeBlockFill = rgba(0x30, 0x3a, 0x48);
inline constexpr uint32_t kFreeBlockOutline = rgba(0x80, 0x9a, 0xc0);
inline constexpr uint32_t kFreeBlockText = rgba(0xb8, 0xc6, 0xd8);
inline constexpr uint32_t kUnknownBlock = rgba(0x6b, 0x74, 0x80);    // allocated block with no storage known
inline constexpr uint32_t kFoldedBlocks = rgba(0x8a, 0x94, 0xa6);

// Places and devices: badges, timeline lanes.
uint32_t device_color(const std::string& device);  // "cpu", "cuda:1", "cpu (pinned)"
uint32_t place_color(Place p);

// Copy routes: one hue per route in every view (timeline lanes, the transfer table, the bandwidth plot,
// the presenter's strip, the bench), Okabe-Ito-like and brightened for the dark theme.
enum class RouteHue { H2DPinned, H2DPageable, D2HPinned, D2HPageable, D2D, H2H };
uint32_t route_color(RouteHue r);
RouteHue route_of(Place src, Place dst);
uint32_t transfer_color(Place src, Place dst);  // route_color(route_of(src, dst))

}  // namespace ds::gui

// One instance of the instanced quad renderer (app/render/quad_batch.h): a rectangle in pixels relative
// to its pane, a colour and style flags. View models produce these; the renderer uploads them as-is.
#pragma once

#include <cstdint>

namespace ds::gui {

enum QuadFlags : uint32_t {
  kQuadFrame = 1u << 0,      // a segment frame: darker fill with a lighter outline
  kQuadFolded = 1u << 1,     // several items narrower than a few pixels merged into one: hatched
  kQuadHighlight = 1u << 2,  // hovered / selected: bright outline
  kQuadDim = 1u << 3,        // faded (e.g. not matching a filter)
  kQuadInFlight = 1u << 4,   // an async copy not finished yet: striped
  kQuadOpenLeft = 1u << 5,   // continues from the previous row: no edge on the left
  kQuadOpenRight = 1u << 6,  // continues on the next row: no edge on the right
};

struct Quad {
  float x = 0, y = 0, w = 0, h = 0;
  uint32_t color = 0;  // 0xAABBGGRR
  uint32_t flags = 0;
};
static_assert(sizeof(Quad) == 24);

}  // namespace ds::gui

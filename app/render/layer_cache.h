// LayerCache: a window whose drawing did not change since the last frame is shown from an image of it
// instead of being rasterized again (issue 24: with a 5M-entry snapshot open, llvmpipe spent ~22 ms a frame
// on the same ~9,000 triangles: text, the names graph, the owners table, a thousand memory blocks).
//
// After ImGui::Render(), apply() groups the draw lists by root window (a child's list is named
// "Parent/child"), hashes each group's vertices, indices and commands, and:
//   - a group that changed draws directly, as before (an animation or a hover costs nothing extra);
//   - a group that stayed the same for a frame is rendered once into its own texture, over the clear
//     colour it would have been drawn on, and from then on its lists are replaced by one opaque copy of
//     that texture, pixel for pixel the same picture.
// Only groups that are cheaper to copy than to draw are cached, and only where nothing drawn before them
// overlaps (popups and tooltips over other windows are drawn directly).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <imgui.h>

namespace ds::render {

class LayerCache {
 public:
  LayerCache();
  ~LayerCache();
  LayerCache(const LayerCache&) = delete;
  LayerCache& operator=(const LayerCache&) = delete;

  // Call between ImGui::Render() and rendering `dd` (with the framebuffer that will be drawn to bound).
  // `clear` is the colour the frame is cleared to (the windows' background).
  void apply(ImDrawData* dd, const float clear[3]);

  struct Stats {
    int groups = 0, copied = 0, rendered = 0;  // in the last apply(): groups seen, shown from an image, images made
  };
  const Stats& stats() const { return stats_; }
  void clear();  // frees the images (while the GL context is current)

  struct Entry;  // one group's image and what it was made from

 private:
  bool ensure_image(int w, int h);  // the image the groups are drawn into: as large as the frame

  std::vector<std::unique_ptr<Entry>> entries_;
  unsigned tex_ = 0, fbo_ = 0;
  int tex_w_ = 0, tex_h_ = 0;
  Stats stats_;
  bool disabled_ = false;  // DEVICESCOPE_NO_LAYER_CACHE=1: draw everything every frame (for comparisons)
};

// Bumped whenever a texture's pixels change (ImageTexture::upload): cached images that drew it are redrawn.
void note_texture_changed();

// The draw data the current draw callbacks render for (the frame's, or a cached group's while its image is
// made): QuadBatch places its quads with it.
const ImDrawData* current_draw_data();

// The app's one cache (draw_frame applies it), and its clean-up before the GL context goes.
LayerCache& frame_layer_cache();
void shutdown_layer_programs();

}  // namespace ds::render

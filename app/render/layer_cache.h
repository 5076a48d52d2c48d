// LayerCache: a window whose drawing did not change since the last frame is shown from an image of it
// instead of being rasterized again (issue 24: with a 5M-entry snapshot open, llvmpipe spent ~22 ms a frame
// on the same ~9,000 triangles: text, the names graph, the owners table, a thousand memory blocks).
//
// After ImGui::Render(), apply() groups the draw lists by root window (a child's list is named
// "Parent/child"), hashes each group's vertices, indices and commands, and:
//   - a group that changed draws directly, as before, and right after it is drawn its rectangle of the
//     frame is copied into a frame-sized image (an animation costs one memory copy a frame more);
//   - a group that is the same as when its image was taken has its lists replaced by one copy of that
//     rectangle back into the frame: the very pixels it was drawn as.
// The copies are glBlitFramebuffer of whole rows in the buffers' own row order, which llvmpipe does as a
// memory copy (under 2 ns a pixel, all of a frame's CPU time counted; drawing a textured pixel costs 6-9
// ns: bench_gui_frames with a 5M-entry snapshot, ~1.5 Mpx copied, 4-6 ms of CPU a frame against 17-19 ms
// when the copies are drawn). Only groups that cost more to draw than to copy are cached, and only where
// nothing drawn before them overlaps (popups and tooltips over other windows are drawn directly).
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

  // Call between ImGui::Render() and rendering `dd` (with the framebuffer that will be drawn to bound; the
  // frame must be cleared before `dd` is rendered).
  void apply(ImDrawData* dd);

  struct Stats {
    int groups = 0, copied = 0, captured = 0;  // in the last apply(): groups seen, shown from an image, images taken
  };
  const Stats& stats() const { return stats_; }
  void clear();  // frees the images (while the GL context is current)
  // Off: every window drawn every frame (DEVICESCOPE_NO_LAYER_CACHE=1 starts it off); for comparisons.
  void set_enabled(bool on) { disabled_ = !on; }

  struct Entry;  // one group's image and what it was made from

 private:
  bool ensure_image(int w, int h);  // the image the groups are copied into: as large as the frame
  static void copy_callback(const ImDrawList*, const ImDrawCmd* cmd);  // the image's rectangle into the frame
  static void capture_callback(const ImDrawList*, const ImDrawCmd* cmd);  // the frame's rectangle into the image

  std::vector<std::unique_ptr<Entry>> entries_;
  unsigned tex_ = 0, fbo_ = 0;
  int tex_w_ = 0, tex_h_ = 0;
  Stats stats_;
  bool disabled_ = false;  // DEVICESCOPE_NO_LAYER_CACHE=1: draw everything every frame (for comparisons)
};

// Bumped whenever a texture's pixels change (ImageTexture::upload): cached images that drew it are redrawn.
void note_texture_changed();

// The draw data the current draw callbacks render for (the frame's): QuadBatch places its quads with it.
const ImDrawData* current_draw_data();

// The app's one cache (draw_frame applies it), and its clean-up before the GL context goes.
LayerCache& frame_layer_cache();
void shutdown_layer_programs();

}  // namespace ds::render

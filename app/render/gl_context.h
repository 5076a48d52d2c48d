// The OpenGL side of the app outside ImGui's own backend: loading GL, clearing, offscreen targets for
// exact-size screenshots, reading pixels back. Every GL call of the app lives in app/render/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ds::render {

using GlProc = void (*)();
using GlLoader = GlProc (*)(const char* name);

// Loads OpenGL 3.3 core through glad. Returns false (and why) when the context cannot do 3.3.
bool load_gl(GlLoader loader, std::string* why);
std::string gl_renderer();  // "llvmpipe (LLVM 15.0.6, 256 bits)"

// Starts a frame on the bound framebuffer: viewport and clear colour.
void begin_frame(int width, int height, float r, float g, float b);
void finish();  // glFinish: frame timing measures the GPU work too

// A colour framebuffer of an exact size (screenshots do not depend on the window or the screen).
class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;
  bool create(int width, int height, std::string* why);
  void bind();
  void unbind();
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  unsigned fbo_ = 0, color_ = 0;
  int width_ = 0, height_ = 0;
};

// Pixels of the bound framebuffer, RGBA8, top row first.
std::vector<uint8_t> read_pixels(int width, int height);

}  // namespace ds::render

// A texture made from pixels the app computes (Memory over time's stacked area): uploaded when they change,
// drawn by ImGui as an image (ImTextureID is the GL texture name, as imgui_impl_opengl3 expects).
#pragma once

#include <cstdint>

namespace ds::render {

class ImageTexture {
 public:
  ImageTexture() = default;
  ~ImageTexture();
  ImageTexture(const ImageTexture&) = delete;
  ImageTexture& operator=(const ImageTexture&) = delete;
  // RGBA8, top row first, `width` x `height` (replaces what was there; nearest filtering: one texel a pixel).
  void upload(int width, int height, const uint32_t* pixels);
  void* id() const { return reinterpret_cast<void*>(uintptr_t(tex_)); }
  bool empty() const { return tex_ == 0; }

 private:
  unsigned tex_ = 0;
};

}  // namespace ds::render

// ImageTexture: glTexImage2D of the app's pixels (GL's first row is the bottom one: ImGui's UVs put v=0 at
// the top, so the rows go up as they are, top first, and are drawn the right way up).
#include "render/image_texture.h"

#include <glad/gl.h>

#include "render/layer_cache.h"

namespace ds::render {

ImageTexture::~ImageTexture() {
  if (tex_) glDeleteTextures(1, &tex_);
}

void ImageTexture::upload(int width, int height, const uint32_t* pixels) {
  if (!tex_) glGenTextures(1, &tex_);
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glBindTexture(GL_TEXTURE_2D, tex_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  glBindTexture(GL_TEXTURE_2D, GLuint(previous));
  note_texture_changed();  // cached window images that show it are made again
}

}  // namespace ds::render

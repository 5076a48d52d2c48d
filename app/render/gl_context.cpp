// GL loading, frame start, offscreen targets and pixel read-back.
#include "render/gl_context.h"

#include <glad/gl.h>

#include <cstring>

namespace ds::render {

bool load_gl(GlLoader loader, std::string* why) {
  const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
  if (version == 0) {
    if (why) *why = "could not load OpenGL functions";
    return false;
  }
  if (GLAD_VERSION_MAJOR(version) < 3 || (GLAD_VERSION_MAJOR(version) == 3 && GLAD_VERSION_MINOR(version) < 3)) {
    if (why) *why = "OpenGL 3.3 is needed, the driver offers " + std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                    std::to_string(GLAD_VERSION_MINOR(version));
    return false;
  }
  return true;
}

std::string gl_renderer() {
  const GLubyte* r = glGetString(GL_RENDERER);
  return r ? reinterpret_cast<const char*>(r) : "unknown";
}

void begin_frame(int width, int height, float r, float g, float b) {
  glViewport(0, 0, width, height);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

void finish() { glFinish(); }

OffscreenTarget::~OffscreenTarget() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (color_) glDeleteTextures(1, &color_);
}

bool OffscreenTarget::create(int width, int height, std::string* why) {
  width_ = width;
  height_ = height;
  glGenTextures(1, &color_);
  glBindTexture(GL_TEXTURE_2D, color_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_, 0);
  const bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!ok && why) *why = "the driver cannot render into a " + std::to_string(width) + "x" + std::to_string(height) + " image";
  return ok;
}

void OffscreenTarget::bind() { glBindFramebuffer(GL_FRAMEBUFFER, fbo_); }
void OffscreenTarget::unbind() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

std::vector<uint8_t> read_pixels(int width, int height) {
  std::vector<uint8_t> px(size_t(width) * size_t(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  // GL's first row is the bottom one.
  const size_t stride = size_t(width) * 4;
  std::vector<uint8_t> row(stride);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* a = px.data() + size_t(y) * stride;
    uint8_t* b = px.data() + size_t(height - 1 - y) * stride;
    std::memcpy(row.data(), a, stride);
    std::memcpy(a, b, stride);
    std::memcpy(b, row.data(), stride);
  }
  for (size_t i = 3; i < px.size(); i += 4) px[i] = 255;  // an opaque image whatever the blend left
  return px;
}

}  // namespace ds::render

// Instanced quad batches and the two shader programs from shaders/ (embedded at build time).
#include "render/quad_batch.h"

#include <glad/gl.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "render/embedded_files.h"
#include "render/layer_cache.h"

namespace ds::render {
namespace {

struct Program {
  GLuint id = 0;
  GLint origin = -1, display_pos = -1, display_size = -1;
};
Program g_programs[2];

GLuint compile(GLenum type, std::string_view source, const char* name, std::string* why) {
  GLuint s = glCreateShader(type);
  const char* src = source.data();
  const GLint len = GLint(source.size());
  glShaderSource(s, 1, &src, &len);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    if (why) *why = std::string(name) + ": " + log;
    glDeleteShader(s);
    return 0;
  }
  return s;
}

bool build(Program& p, const char* vert, const char* frag, std::string* why) {
  const std::string_view vs = embedded_file(vert), fs = embedded_file(frag);
  if (vs.empty() || fs.empty()) {
    if (why) *why = std::string("shader source missing from the build: ") + (vs.empty() ? vert : frag);
    return false;
  }
  GLuint v = compile(GL_VERTEX_SHADER, vs, vert, why);
  if (!v) return false;
  GLuint f = compile(GL_FRAGMENT_SHADER, fs, frag, why);
  if (!f) {
    glDeleteShader(v);
    return false;
  }
  p.id = glCreateProgram();
  glAttachShader(p.id, v);
  glAttachShader(p.id, f);
  glLinkProgram(p.id);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(p.id, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(p.id, sizeof log, nullptr, log);
    if (why) *why = std::string(vert) + " + " + frag + ": " + log;
    return false;
  }
  p.origin = glGetUniformLocation(p.id, "u_origin");
  p.display_pos = glGetUniformLocation(p.id, "u_display_pos");
  p.display_size = glGetUniformLocation(p.id, "u_display_size");
  return true;
}

}  // namespace

bool init_quad_programs(std::string* why) {
  return build(g_programs[0], "memory_blocks.vert", "memory_blocks.frag", why) &&
         build(g_programs[1], "timeline.vert", "timeline.frag", why);
}

void shutdown_quad_programs() {
  for (Program& p : g_programs) {
    if (p.id) glDeleteProgram(p.id);
    p = {};
  }
}

QuadBatch::~QuadBatch() {
  if (vbo_) glDeleteBuffers(1, &vbo_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
}

void QuadBatch::upload(const gui::Quad* quads, size_t count) {
  if (!vao_) {
    glGenVertexArrays(1, &vao_);
    glGenBuffers(1, &vbo_);
  }
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  const GLsizeiptr bytes = GLsizeiptr(count * sizeof(gui::Quad));
  if (count > capacity_) {
    glBufferData(GL_ARRAY_BUFFER, bytes, quads, GL_DYNAMIC_DRAW);
    capacity_ = count;
  } else if (count) {
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, quads);
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  count_ = count;
  ++uploads_;
}

bool QuadBatch::content_key(const ImDrawCmd& cmd, uint64_t* key, size_t* instances) {
  if (cmd.UserCallback != &QuadBatch::callback) return false;
  const Call* call = static_cast<const Call*>(cmd.UserCallbackData);
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  uint32_t ox = 0, oy = 0;
  std::memcpy(&ox, &call->origin.x, 4);
  std::memcpy(&oy, &call->origin.y, 4);
  mix(reinterpret_cast<uintptr_t>(call->batch)), mix(call->batch->uploads_), mix(ox), mix(oy), mix(call->first), mix(call->count);
  mix(uint64_t(call->batch->style_));
  *key = h;
  *instances = call->count;
  return true;
}

void QuadBatch::draw(ImDrawList* dl, ImVec2 origin, size_t first, size_t count) {
  if (first >= count_) return;
  count = std::min(count, count_ - first);
  if (count == 0) return;
  const int frame = ImGui::GetFrameCount();
  if (frame != calls_frame_) {  // the previous frame has been rendered: its calls are done
    calls_.clear();
    calls_frame_ = frame;
  }
  calls_.push_back({this, origin, first, count});
  dl->AddCallback(&QuadBatch::callback, &calls_.back());
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);  // ImGui's backend restores its GL state
}

void QuadBatch::callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Call* call = static_cast<const Call*>(cmd->UserCallbackData);
  call->batch->render(*call, cmd);
}

void QuadBatch::render(const Call& call, const ImDrawCmd* cmd) {
  const Program& p = g_programs[style_ == QuadStyle::MemoryBlocks ? 0 : 1];
  if (!p.id || !vao_) return;
  const ImDrawData* dd = current_draw_data();  // the frame's, or a cached window's image being made
  const ImVec2 off = dd->DisplayPos, scale = dd->FramebufferScale;
  const float fb_h = dd->DisplaySize.y * scale.y;
  const float x1 = (cmd->ClipRect.x - off.x) * scale.x, y1 = (cmd->ClipRect.y - off.y) * scale.y;
  const float x2 = (cmd->ClipRect.z - off.x) * scale.x, y2 = (cmd->ClipRect.w - off.y) * scale.y;
  if (x2 <= x1 || y2 <= y1) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(GLint(x1), GLint(fb_h - y2), GLsizei(x2 - x1), GLsizei(y2 - y1));
  // Memory blocks are opaque and never overlap: no blending (a software renderer then skips reading
  // the framebuffer). Timeline items may be dimmed, so they blend.
  if (style_ == QuadStyle::MemoryBlocks) {
    glDisable(GL_BLEND);
  } else {
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  }
  glUseProgram(p.id);
  glUniform2f(p.origin, call.origin.x, call.origin.y);
  glUniform2f(p.display_pos, off.x, off.y);
  glUniform2f(p.display_size, dd->DisplaySize.x, dd->DisplaySize.y);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  // GL 3.3 has no base instance: point the attributes at the first instance instead.
  const size_t base = call.first * sizeof(gui::Quad);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(gui::Quad), reinterpret_cast<void*>(base));
  glVertexAttribDivisor(0, 1);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(gui::Quad), reinterpret_cast<void*>(base + 16));
  glVertexAttribDivisor(1, 1);
  glEnableVertexAttribArray(2);
  glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, sizeof(gui::Quad), reinterpret_cast<void*>(base + 20));
  glVertexAttribDivisor(2, 1);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(call.count));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

}  // namespace ds::render

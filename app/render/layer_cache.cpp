// LayerCache: groups of draw lists hashed each frame; unchanged ones shown from a texture (see layer_cache.h).
#include "render/layer_cache.h"

#include <backends/imgui_impl_opengl3.h>
#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <string>

#include "render/quad_batch.h"

namespace ds::render {
namespace {

uint64_t g_texture_generation = 0;
const ImDrawData* g_draw_data_override = nullptr;

// The copy: one texel a pixel, no filtering, no blending (the image already holds the blended result).
struct CopyProgram {
  GLuint id = 0, vao = 0;
  GLint tex = -1, offset = -1;
};
CopyProgram g_copy;

bool build_copy_program() {
  if (g_copy.id) return true;
  const char* vs =
      "#version 330 core\n"
      "void main() {\n"
      "  vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
      "  gl_Position = vec4(c * 2.0 - 1.0, 0.0, 1.0);\n"  // the whole viewport; the scissor limits it
      "}\n";
  const char* fs =
      "#version 330 core\n"
      "uniform sampler2D u_tex;\n"
      "uniform ivec2 u_offset;\n"  // framebuffer pixel of the image's bottom-left texel
      "out vec4 frag;\n"
      "void main() { frag = texelFetch(u_tex, ivec2(gl_FragCoord.xy) - u_offset, 0); }\n";
  auto compile = [](GLenum type, const char* src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      glDeleteShader(s);
      return GLuint(0);
    }
    return s;
  };
  const GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
  if (!v || !f) return false;
  g_copy.id = glCreateProgram();
  glAttachShader(g_copy.id, v);
  glAttachShader(g_copy.id, f);
  glLinkProgram(g_copy.id);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(g_copy.id, GL_LINK_STATUS, &ok);
  if (!ok) {
    glDeleteProgram(g_copy.id);
    g_copy.id = 0;
    return false;
  }
  g_copy.tex = glGetUniformLocation(g_copy.id, "u_tex");
  g_copy.offset = glGetUniformLocation(g_copy.id, "u_offset");
  glGenVertexArrays(1, &g_copy.vao);  // core profile: a draw needs a bound vertex array, even an empty one
  return true;
}

// FNV-1a over bytes: a few hundred KiB of vertices a frame, well under a millisecond.
struct Hasher {
  uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, size_t n) {
    const unsigned char* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ull;
  }
  template <class T>
  void value(const T& v) { bytes(&v, sizeof v); }
};

struct Rect {
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  void add(float ax0, float ay0, float ax1, float ay1) {
    x0 = std::min(x0, ax0), y0 = std::min(y0, ay0), x1 = std::max(x1, ax1), y1 = std::max(y1, ay1);
  }
  bool overlaps(const Rect& o) const { return !empty() && !o.empty() && x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

}  // namespace

struct LayerCache::Entry {
  std::string root;  // the root window's name
  uint64_t hash = 0;  // what the lists held last frame
  uint64_t image_hash = 0;  // what the image shows (0: none)
  int x = 0, y = 0, w = 0, h = 0;  // its place, in framebuffer pixels from the display's top-left
  int fb_h = 0;  // the frame's framebuffer height
  const GLuint* tex = nullptr;  // the cache's image texture
  bool seen = false;
};

namespace {

void copy_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const LayerCache::Entry* e = static_cast<const LayerCache::Entry*>(cmd->UserCallbackData);
  if (!g_copy.id || !e->tex || !*e->tex) return;
  glDisable(GL_BLEND);
  glEnable(GL_SCISSOR_TEST);
  glScissor(e->x, e->fb_h - e->y - e->h, e->w, e->h);
  glUseProgram(g_copy.id);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, *e->tex);
  glUniform1i(g_copy.tex, 0);
  glUniform2i(g_copy.offset, 0, 0);  // the image is as large as the frame: the same pixel
  glBindVertexArray(g_copy.vao);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
}

// Renders lists [first, last) of `dd` into their place in the image (as large as the frame, so that every
// pixel is computed from the same coordinates as when drawn directly), over the clear colour.
bool render_image(LayerCache::Entry& e, GLuint fbo, const ImDrawData* dd, int first, int last, const float clear[3]) {
  // The state the frame's own clear and drawing expect back (a scissor left on would limit its clear).
  GLint previous_fbo = 0, previous_box[4] = {};
  GLfloat previous_clear[4] = {};
  const GLboolean previous_scissor = glIsEnabled(GL_SCISSOR_TEST);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo);
  glGetIntegerv(GL_SCISSOR_BOX, previous_box);
  glGetFloatv(GL_COLOR_CLEAR_VALUE, previous_clear);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  const bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (ok) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(e.x, e.fb_h - e.y - e.h, e.w, e.h);
    glClearColor(clear[0], clear[1], clear[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImDrawData sub = *dd;  // the frame's display, only the group's lists
    sub.CmdLists = dd->CmdLists + first;
    sub.CmdListsCount = last - first;
    sub.TotalVtxCount = sub.TotalIdxCount = 0;
    for (int i = first; i < last; ++i) sub.TotalVtxCount += dd->CmdLists[i]->VtxBuffer.Size, sub.TotalIdxCount += dd->CmdLists[i]->IdxBuffer.Size;
    g_draw_data_override = &sub;
    ImGui_ImplOpenGL3_RenderDrawData(&sub);
    g_draw_data_override = nullptr;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous_fbo));
  glScissor(previous_box[0], previous_box[1], previous_box[2], previous_box[3]);
  if (previous_scissor) glEnable(GL_SCISSOR_TEST);
  else glDisable(GL_SCISSOR_TEST);
  glClearColor(previous_clear[0], previous_clear[1], previous_clear[2], previous_clear[3]);
  return ok;
}

// Draw-list names: a child window's list is "Root/child".
std::string root_of(const ImDrawList* l) {
  const char* name = l->_OwnerName ? l->_OwnerName : "";
  const char* slash = std::strchr(name, '/');
  return slash ? std::string(name, size_t(slash - name)) : std::string(name);
}

}  // namespace

void note_texture_changed() { ++g_texture_generation; }

const ImDrawData* current_draw_data() { return g_draw_data_override ? g_draw_data_override : ImGui::GetDrawData(); }

LayerCache& frame_layer_cache() {
  static LayerCache cache;
  return cache;
}

void shutdown_layer_programs() {
  frame_layer_cache().clear();
  if (g_copy.id) glDeleteProgram(g_copy.id);
  if (g_copy.vao) glDeleteVertexArrays(1, &g_copy.vao);
  g_copy = {};
}

LayerCache::LayerCache() {
  const char* off = std::getenv("DEVICESCOPE_NO_LAYER_CACHE");
  disabled_ = off && *off && std::strcmp(off, "0") != 0;
}

LayerCache::~LayerCache() { clear(); }

void LayerCache::clear() {
  entries_.clear();
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (tex_) glDeleteTextures(1, &tex_);
  fbo_ = tex_ = 0;
  tex_w_ = tex_h_ = 0;
}

bool LayerCache::ensure_image(int w, int h) {
  if (tex_ && tex_w_ == w && tex_h_ == h) return true;
  for (auto& e : entries_) e->image_hash = 0;  // a new image holds none of them
  if (!tex_) glGenTextures(1, &tex_);
  if (!fbo_) glGenFramebuffers(1, &fbo_);
  GLint previous_tex = 0, previous_fbo = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous_tex);
  glBindTexture(GL_TEXTURE_2D, tex_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, GLuint(previous_tex));
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous_fbo));
  tex_w_ = w, tex_h_ = h;
  return true;
}

void LayerCache::apply(ImDrawData* dd, const float clear[3]) {
  stats_ = {};
  if (disabled_ || !dd || !dd->Valid || dd->FramebufferScale.x != 1.0f || dd->FramebufferScale.y != 1.0f || !build_copy_program())
    return;
  const int fb_w = int(dd->DisplaySize.x), fb_h = int(dd->DisplaySize.y);
  if (fb_w <= 0 || fb_h <= 0 || !ensure_image(fb_w, fb_h)) return;
  for (auto& e : entries_) e->seen = false;
  std::vector<Rect> drawn_before;  // what each group before this one covers
  int i = 0;
  while (i < dd->CmdListsCount) {
    // The group: a root window's list and its children's lists right after it.
    const std::string root = root_of(dd->CmdLists[i]);
    int end = i + 1;
    while (end < dd->CmdListsCount && !root.empty() && root_of(dd->CmdLists[end]) == root) ++end;
    // Its hash, its extent, and what drawing it directly costs (in pixels' worth of llvmpipe time: a
    // triangle ~150 pixels, a memory block ~700).
    Hasher hs;
    hs.value(g_texture_generation);
    Rect extent, verts;
    double cost = 0;
    bool cacheable = !root.empty() && root.rfind("##Tooltip", 0) != 0 && root.rfind("##Popup", 0) != 0;
    for (int l = i; l < end; ++l) {  // all of them, also when not cacheable: the extent counts
      const ImDrawList* list = dd->CmdLists[l];
      hs.bytes(list->VtxBuffer.Data, size_t(list->VtxBuffer.Size) * sizeof(ImDrawVert));
      hs.bytes(list->IdxBuffer.Data, size_t(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
      // ImGui's vertices include the anti-aliasing fringes: their box holds every pixel drawn.
      for (const ImDrawVert& v : list->VtxBuffer) verts.add(v.pos.x, v.pos.y, v.pos.x, v.pos.y);
      for (const ImDrawCmd& c : list->CmdBuffer) {
        hs.value(c.ClipRect), hs.value(c.TextureId), hs.value(c.VtxOffset), hs.value(c.IdxOffset), hs.value(c.ElemCount);
        if (c.UserCallback == ImDrawCallback_ResetRenderState) {
          hs.value(uint64_t(1));
          continue;
        }
        if (c.UserCallback) {
          uint64_t key = 0;
          size_t instances = 0;
          if (!QuadBatch::content_key(c, &key, &instances)) {
            cacheable = false;  // a callback whose drawing we cannot tell apart between frames
          }
          hs.value(key);
          cost += 700.0 * double(instances);
          verts.add(c.ClipRect.x, c.ClipRect.y, c.ClipRect.z, c.ClipRect.w);
        } else {
          cost += 150.0 * double(c.ElemCount / 3);
          for (unsigned t = 0; t + 2 < c.ElemCount; t += 3) {  // and the pixels they cover
            const ImDrawIdx* idx = list->IdxBuffer.Data + c.IdxOffset + t;
            const ImVec2 a = list->VtxBuffer[int(idx[0] + c.VtxOffset)].pos, b = list->VtxBuffer[int(idx[1] + c.VtxOffset)].pos,
                         d = list->VtxBuffer[int(idx[2] + c.VtxOffset)].pos;
            cost += 0.5 * std::fabs(double((b.x - a.x) * (d.y - a.y) - (d.x - a.x) * (b.y - a.y)));
          }
        }
        extent.add(c.ClipRect.x, c.ClipRect.y, c.ClipRect.z, c.ClipRect.w);
      }
    }
    // Whole pixels inside the display, within both the clip rectangles and the vertices.
    Rect r;
    r.x0 = std::max({extent.x0, verts.x0, dd->DisplayPos.x});
    r.y0 = std::max({extent.y0, verts.y0, dd->DisplayPos.y});
    r.x1 = std::min({extent.x1, verts.x1, dd->DisplayPos.x + dd->DisplaySize.x});
    r.y1 = std::min({extent.y1, verts.y1, dd->DisplayPos.y + dd->DisplaySize.y});
    const int x = int(std::floor(r.x0 - dd->DisplayPos.x)), y = int(std::floor(r.y0 - dd->DisplayPos.y));
    const int w = std::min(fb_w, int(std::ceil(r.x1 - dd->DisplayPos.x))) - x, h = std::min(fb_h, int(std::ceil(r.y1 - dd->DisplayPos.y))) - y;
    Rect pixels;
    pixels.add(dd->DisplayPos.x + float(x), dd->DisplayPos.y + float(y), dd->DisplayPos.x + float(x + w), dd->DisplayPos.y + float(y + h));
    // The image is made over the clear colour: only where nothing drawn before shows through.
    const bool overlap = std::any_of(drawn_before.begin(), drawn_before.end(), [&](const Rect& o) { return pixels.overlaps(o); });
    cacheable = cacheable && w > 0 && h > 0 && !overlap && cost > 1.3 * double(w) * double(h);
    ++stats_.groups;
    if (cacheable) {
      hs.value(x), hs.value(y), hs.value(w), hs.value(h), hs.value(fb_h);
      Entry* e = nullptr;
      for (auto& c : entries_)
        if (c->root == root && !c->seen) e = c.get();
      if (!e) {
        entries_.push_back(std::make_unique<Entry>());
        e = entries_.back().get();
        e->root = root;
      }
      e->seen = true;
      const bool steady = hs.h == e->hash;  // the same as last frame: worth an image
      e->hash = hs.h;
      if (steady && e->image_hash != hs.h) {
        e->x = x, e->y = y, e->w = w, e->h = h, e->fb_h = fb_h;
        e->tex = &tex_;
        e->image_hash = render_image(*e, fbo_, dd, i, end, clear) ? hs.h : 0;
        stats_.rendered += e->image_hash != 0;
      }
      if (steady && e->image_hash == hs.h) {
        // The lists give way to one copy of the image (the root's list keeps it; the children's are emptied).
        for (int l = i; l < end; ++l) {
          ImDrawList* list = dd->CmdLists[l];
          dd->TotalVtxCount -= list->VtxBuffer.Size;
          dd->TotalIdxCount -= list->IdxBuffer.Size;
          list->CmdBuffer.resize(0);
          list->VtxBuffer.resize(0);
          list->IdxBuffer.resize(0);
        }
        ImDrawCmd copy;
        copy.ClipRect = ImVec4(pixels.x0, pixels.y0, pixels.x1, pixels.y1);
        copy.UserCallback = copy_callback;
        copy.UserCallbackData = e;
        dd->CmdLists[i]->CmdBuffer.push_back(copy);
        ImDrawCmd reset;
        reset.ClipRect = copy.ClipRect;
        reset.UserCallback = ImDrawCallback_ResetRenderState;
        dd->CmdLists[i]->CmdBuffer.push_back(reset);
        ++stats_.copied;
      }
    }
    if (w > 0 && h > 0) drawn_before.push_back(pixels);
    i = end;
  }
  // Windows that went away give their images back.
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [](const std::unique_ptr<Entry>& e) { return !e->seen; }),
                 entries_.end());
}

}  // namespace ds::render

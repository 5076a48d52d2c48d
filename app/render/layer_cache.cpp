// LayerCache: groups of draw lists hashed each frame; unchanged ones shown from an image (see layer_cache.h).
#include "render/layer_cache.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "render/quad_batch.h"

namespace ds::render {
namespace {

uint64_t g_texture_generation = 0;

// What a copy costs, in the units of the drawing cost below (pixels of plain quads): per pixel, and for the
// wait each copy makes for the drawing queued before it.
constexpr double kCopyCostPerPixel = 0.3, kCopyCostEach = 20000;

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
  uint64_t image_hash = 0;  // what the image shows (0: none, or being captured this frame)
  uint64_t captured_hash = 0;  // what a capture queued this frame will show once it ran
  int x = 0, y = 0, w = 0, h = 0;  // its place, in framebuffer pixels from the display's top-left
  int fb_h = 0;  // the frame's framebuffer height
  bool window_target = false;  // captured from the window's own buffer (rows stored top first), not an image
  LayerCache* cache = nullptr;
  bool seen = false;
};

namespace {

// Copies the entry's rectangle between the frame's target (`target`, 0: the window) and the cache's image.
// The window system's buffer keeps its rows top first and a texture bottom first; the copy to or from the
// window is asked for upside down, so that the driver sees two buffers with the same row order and one
// rectangle of rows to move as they are (llvmpipe then copies memory instead of drawing a textured quad,
// under 2 instead of ~7 ns a pixel). Byte for byte what was drawn, whichever way the driver does it.
void copy_rect(const LayerCache::Entry& e, GLuint image_fbo, GLuint target, bool to_target) {
  GLint previous_read = 0, previous_draw = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous_read);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_draw);
  const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
  glDisable(GL_SCISSOR_TEST);  // a scissored blit is drawn, not copied (and the rectangle is exact anyway)
  const int x0 = e.x, x1 = e.x + e.w, y0 = e.fb_h - e.y - e.h, y1 = e.fb_h - e.y;  // GL's rows: bottom up
  const int iy0 = e.window_target ? y1 : y0, iy1 = e.window_target ? y0 : y1;  // the image's rows
  glBindFramebuffer(GL_READ_FRAMEBUFFER, to_target ? image_fbo : target);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, to_target ? target : image_fbo);
  if (to_target) glBlitFramebuffer(x0, iy0, x1, iy1, x0, y0, x1, y1, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  else glBlitFramebuffer(x0, y0, x1, y1, x0, iy0, x1, iy1, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(previous_read));
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(previous_draw));
  if (scissor) glEnable(GL_SCISSOR_TEST);
}

GLuint bound_target() {
  GLint fbo = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
  return GLuint(fbo);
}

}  // namespace

// A group shown from its image: one copy into the frame.
void LayerCache::copy_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Entry* e = static_cast<const Entry*>(cmd->UserCallbackData);
  if (e->cache->fbo_) copy_rect(*e, e->cache->fbo_, bound_target(), true);
}

// A group just drawn directly over the cleared frame: its pixels go into the image (the next frame that
// draws the same copies them back).
void LayerCache::capture_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  Entry* e = static_cast<Entry*>(cmd->UserCallbackData);
  if (!e->cache->fbo_) return;
  while (glGetError() != GL_NO_ERROR) {
  }
  copy_rect(*e, e->cache->fbo_, bound_target(), false);
  if (glGetError() != GL_NO_ERROR) {
    e->cache->disabled_ = true;  // a driver that cannot copy this way: draw everything from now on
    return;
  }
  e->image_hash = e->captured_hash;
}

namespace {

// Draw-list names: a child window's list is "Root/child".
std::string root_of(const ImDrawList* l) {
  const char* name = l->_OwnerName ? l->_OwnerName : "";
  const char* slash = std::strchr(name, '/');
  return slash ? std::string(name, size_t(slash - name)) : std::string(name);
}

}  // namespace

void note_texture_changed() { ++g_texture_generation; }

const ImDrawData* current_draw_data() { return ImGui::GetDrawData(); }

LayerCache& frame_layer_cache() {
  static LayerCache cache;
  return cache;
}

void shutdown_layer_programs() { frame_layer_cache().clear(); }

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
  // Unsized RGBA given as BGRA bytes: Mesa then stores it B8G8R8A8 like the window's buffer, and a copy
  // between them moves memory as it is (GL_RGBA8 is stored R8G8B8A8: every copy would be drawn, ~7 ns a
  // pixel; measured with bench_gui_frames). Any other driver takes it as an ordinary 8-bit RGBA image.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_BGRA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, GLuint(previous_tex));
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous_fbo));
  tex_w_ = w, tex_h_ = h;
  return true;
}

void LayerCache::apply(ImDrawData* dd) {
  stats_ = {};
  if (disabled_ || !dd || !dd->Valid || dd->FramebufferScale.x != 1.0f || dd->FramebufferScale.y != 1.0f) return;
  const bool window_target = bound_target() == 0;  // the window's buffer, or an image (a screenshot)
  GLint samples = 0;
  glGetIntegerv(GL_SAMPLE_BUFFERS, &samples);
  if (samples) return;  // a multisampled target (a driver's forced antialiasing) takes no blit from an image
  const int fb_w = int(dd->DisplaySize.x), fb_h = int(dd->DisplaySize.y);
  if (fb_w <= 0 || fb_h <= 0 || !ensure_image(fb_w, fb_h)) return;
  for (auto& e : entries_) e->seen = false;
  std::vector<Rect> drawn_before;  // what each group before this one covers
  std::vector<ImDrawCmd> copies;  // the copied groups' images, in the groups' order
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
    // The image is taken right after the group is drawn over the cleared frame: only where nothing drawn
    // before shows through. A copy costs a memory copy and a wait for what was queued before it.
    const bool overlap = std::any_of(drawn_before.begin(), drawn_before.end(), [&](const Rect& o) { return pixels.overlaps(o); });
    cacheable = cacheable && w > 0 && h > 0 && !overlap && cost > kCopyCostPerPixel * double(w) * double(h) + kCopyCostEach;
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
      if (e->image_hash != hs.h || e->window_target != window_target) {
        // Drawn directly, then its pixels are copied into the image: if the next frame draws the same, it
        // copies them back (a memory copy of a few hundred thousand pixels when it does not).
        e->x = x, e->y = y, e->w = w, e->h = h, e->fb_h = fb_h;
        e->window_target = window_target;
        e->cache = this;
        e->image_hash = 0;
        e->captured_hash = hs.h;
        ImDrawList* last = dd->CmdLists[end - 1];
        ImDrawCmd capture;
        capture.ClipRect = ImVec4(pixels.x0, pixels.y0, pixels.x1, pixels.y1);
        capture.UserCallback = capture_callback;
        capture.UserCallbackData = e;
        last->CmdBuffer.push_back(capture);
        capture.UserCallback = ImDrawCallback_ResetRenderState;
        capture.UserCallbackData = nullptr;
        last->CmdBuffer.push_back(capture);
        ++stats_.captured;
      } else {
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
        copies.push_back(copy);
        ++stats_.copied;
      }
    }
    if (w > 0 && h > 0) drawn_before.push_back(pixels);
    i = end;
  }
  // The copies go first, before anything is drawn: nothing drawn before a copied group overlaps it, so the
  // picture is the same, and the driver waits once for the frame's clear instead of once for whatever was
  // drawn before each copy (on a loaded machine each wait can cost a time slice).
  if (!copies.empty()) {
    ImDrawCmd reset = copies.front();
    reset.UserCallback = ImDrawCallback_ResetRenderState;
    reset.UserCallbackData = nullptr;
    copies.push_back(reset);
    ImVector<ImDrawCmd>& first = dd->CmdLists[0]->CmdBuffer;
    for (auto c = copies.rbegin(); c != copies.rend(); ++c) first.push_front(*c);
  }
  // Windows that went away give their images back.
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [](const std::unique_ptr<Entry>& e) { return !e->seen; }),
                 entries_.end());
}

}  // namespace ds::render

// Instanced quads: a GPU buffer of per-instance rectangles (position, size, colour, flags) drawn with
// one glDrawArraysInstanced from inside ImGui's draw list (an ImDrawList callback), clipped to the
// widget's clip rect. Memory blocks and timeline items use it instead of one ImDrawList rect each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <imgui.h>

#include "gui/view_state/quad.h"

namespace ds::render {

enum class QuadStyle { MemoryBlocks, Timeline };  // which shaders/ program draws the quads

class QuadBatch {
 public:
  explicit QuadBatch(QuadStyle style) : style_(style) {}
  ~QuadBatch();
  QuadBatch(const QuadBatch&) = delete;
  QuadBatch& operator=(const QuadBatch&) = delete;

  // Replaces the instances (one buffer upload). Call only when they changed.
  void upload(const gui::Quad* quads, size_t count);
  void upload(const std::vector<gui::Quad>& q) { upload(q.data(), q.size()); }
  size_t size() const { return count_; }

  // For a draw command this class queued: a key of what it draws (the batch, its upload, the place and
  // range) and how many instances; false for any other command. LayerCache tells frames apart with it.
  static bool content_key(const ImDrawCmd& cmd, uint64_t* key, size_t* instances);

  // Queues drawing instances [first, first + count) at `origin` (display coordinates) into `dl`
  // at its current position in the draw order, clipped to its current clip rect.
  void draw(ImDrawList* dl, ImVec2 origin, size_t first = 0, size_t count = SIZE_MAX);

 private:
  struct Call {
    QuadBatch* batch;
    ImVec2 origin;
    size_t first, count;
  };
  static void callback(const ImDrawList* list, const ImDrawCmd* cmd);
  void render(const Call& call, const ImDrawCmd* cmd);

  QuadStyle style_;
  unsigned vao_ = 0, vbo_ = 0;
  size_t count_ = 0, capacity_ = 0;
  uint64_t uploads_ = 0;  // bumped by every upload()
  std::deque<Call> calls_;  // alive until the frame's draw data is rendered
  int calls_frame_ = -1;
};

// Compiles the shaders/ programs (call once after GL is loaded; false with the compiler's log).
bool init_quad_programs(std::string* why);
void shutdown_quad_programs();

}  // namespace ds::render

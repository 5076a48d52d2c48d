#version 330 core
// Memory map blocks: one instance per block (or folded run), expanded to a quad from gl_VertexID.
layout(location = 0) in vec4 a_rect;   // x, y, w, h in pixels, relative to the pane origin
layout(location = 1) in vec4 a_color;  // normalized from RGBA8
layout(location = 2) in uint a_flags;  // QuadFlags (app/gui/model/quad.h)

uniform vec2 u_origin;        // pane origin in ImGui display coordinates
uniform vec2 u_display_pos;   // ImDrawData::DisplayPos
uniform vec2 u_display_size;  // ImDrawData::DisplaySize

out vec2 v_local;   // pixel position inside the quad
out vec2 v_size;
out vec4 v_color;
flat out uint v_flags;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vec2 p = u_origin + a_rect.xy + corner * a_rect.zw;
  vec2 ndc = (p - u_display_pos) / u_display_size * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
  v_local = corner * a_rect.zw;
  v_size = a_rect.zw;
  v_color = a_color;
  v_flags = a_flags;
}

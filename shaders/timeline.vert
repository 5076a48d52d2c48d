#version 330 core
// Transfer timeline items: one instance per copy or folded run of copies, in lane pixels.
layout(location = 0) in vec4 a_rect;   // x, y, w, h in pixels, relative to the timeline origin
layout(location = 1) in vec4 a_color;
layout(location = 2) in uint a_flags;

uniform vec2 u_origin;
uniform vec2 u_display_pos;
uniform vec2 u_display_size;

out vec2 v_local;
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

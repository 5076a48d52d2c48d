#version 330 core
// Memory map blocks: a soft vertical gradient with a 1 px darker edge so neighbours stay apart;
// cached free blocks are dim fills with a light outline; folded runs are hatched; highlights glow.
// Drawn without blending: every quad is opaque and none overlaps another.
in vec2 v_local;
in vec2 v_size;
in vec4 v_color;
flat in uint v_flags;
out vec4 frag;

const uint kFrame = 1u;
const uint kFolded = 2u;
const uint kHighlight = 4u;
const uint kDim = 8u;
const uint kOpenLeft = 32u;
const uint kOpenRight = 64u;

void main() {
  // Distance to the nearest edge; sides where a wrapped block continues on another row have none.
  float left = (v_flags & kOpenLeft) != 0u ? 1e6 : v_local.x;
  float right = (v_flags & kOpenRight) != 0u ? 1e6 : v_size.x - v_local.x;
  float edge = min(min(left, right), min(v_local.y, v_size.y - v_local.y));
  vec3 c = v_color.rgb;
  float a = v_color.a;
  if ((v_flags & kFrame) != 0u) {
    // A cached free block (reserved, not allocated): dark, with a 2 px light outline (kFreeBlockOutline).
    c = edge < 2.0 ? min(c * 1.6, vec3(1.0)) : c * 0.6;
  } else {
    float t = v_size.y > 0.0 ? v_local.y / v_size.y : 0.0;
    c *= 1.12 - 0.22 * t;
    if (edge < 1.0 && v_size.x > 3.0) c *= 0.55;
    if ((v_flags & kFolded) != 0u) {
      float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, 4.0);
      c *= stripe < 2.0 ? 0.8 : 1.0;
    }
  }
  if ((v_flags & kHighlight) != 0u) c = edge < 2.0 ? vec3(1.0) : mix(c, vec3(1.0), 0.25);
  if ((v_flags & kDim) != 0u) a *= 0.3;
  frag = vec4(c, a);
}

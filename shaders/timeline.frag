#version 330 core
// Transfer timeline items: a bar with a lighter top edge; folded runs show a zig-zag band so they
// read as "many copies here, zoom in"; unfinished async copies are striped.
in vec2 v_local;
in vec2 v_size;
in vec4 v_color;
flat in uint v_flags;
out vec4 frag;

const uint kFolded = 2u;
const uint kHighlight = 4u;
const uint kDim = 8u;
const uint kInFlight = 16u;

void main() {
  vec3 c = v_color.rgb;
  float a = v_color.a;
  float edge = min(min(v_local.x, v_size.x - v_local.x), min(v_local.y, v_size.y - v_local.y));
  if ((v_flags & kFolded) != 0u) {
    float zig = abs(mod(v_local.x, 6.0) - 3.0);
    float mid = v_size.y * 0.5;
    c *= abs(v_local.y - mid) < zig + 1.0 ? 1.0 : 0.55;
  } else {
    if (v_local.y < 1.5) c = mix(c, vec3(1.0), 0.35);
    if (edge < 1.0 && v_size.x > 4.0) c *= 0.6;
  }
  if ((v_flags & kInFlight) != 0u && mod(gl_FragCoord.x - gl_FragCoord.y, 8.0) < 4.0) c *= 0.55;
  if ((v_flags & kHighlight) != 0u) c = edge < 1.5 ? vec3(1.0) : mix(c, vec3(1.0), 0.3);
  if ((v_flags & kDim) != 0u) a *= 0.3;
  frag = vec4(c, a);
}

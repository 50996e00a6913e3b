#version 450
// The on-screen display: one instance per quad (a glyph or a filled rectangle), two triangles each.
// Quads come from a storage buffer in target pixels (origin top left); uv is in the atlas, 0..1.
struct Quad {
    vec4 rect;  // x0, y0, x1, y1 in pixels
    vec4 uv;    // u0, v0, u1, v1
    vec4 color; // straight (not premultiplied) RGBA
};
layout(std430, set = 0, binding = 1) readonly buffer Quads {
    Quad quads[];
};
layout(push_constant) uniform Params {
    vec2 size; // the target's size in pixels
} p;
layout(location = 0) out vec2 uv;
layout(location = 1) out vec4 color;

const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(0, 1), vec2(1, 0), vec2(1, 1));

void main() {
    Quad q = quads[gl_InstanceIndex];
    vec2 c = corners[gl_VertexIndex];
    uv = mix(q.uv.xy, q.uv.zw, c);
    color = q.color;
    gl_Position = vec4(mix(q.rect.xy, q.rect.zw, c) / p.size * 2.0 - 1.0, 0.0, 1.0);
}

#version 450
// Subtitles: one quad, the overlay image's place in the target (pixels, origin top left).
layout(push_constant) uniform Params {
    vec4 rect;  // x0, y0, x1, y1 in pixels
    vec2 size;  // the target's size in pixels
    int stride; // pixels from one row of the image to the next
    int hdr;    // 0: the target is SDR (sRGB-encoded); 1: HDR10 (PQ, BT.2020)
} p;

const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(0, 1), vec2(1, 0), vec2(1, 1));

void main() {
    gl_Position = vec4(mix(p.rect.xy, p.rect.zw, corners[gl_VertexIndex]) / p.size * 2.0 - 1.0, 0.0, 1.0);
}

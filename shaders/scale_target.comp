#version 450
// The scale pass's last step written straight into the target (a storage image), for targets that
// allow it: the columns of the rows image (binding 0, float32: the picture resampled along its
// rows) resampled with the weight table (binding 1), turned for display, into the rgba8 target
// (binding 2). It replaces scale.comp's columns and scale.frag's draw, which some GPUs run on a
// small part of their cores (the H100's fragment stage: docs/scaling.md). One invocation per target
// pixel, the letterbox included: outside the viewport it writes the render pass's clear colour, so
// the render pass that follows (the on-screen display) loads the target instead of clearing it.
// The mapping from display to picture-aligned pixels is scale.frag's.
#extension GL_GOOGLE_include_directive : require
#include "dither.glsl"

layout(local_size_x = 16, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(std430, set = 0, binding = 1) readonly buffer Weights {
    float w[];
} table;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D dst;

layout(push_constant) uniform Params {
    int srcSize;  // the rows image's height (the picture's)
    int outW;     // picture-aligned output width P
    int outH;     // picture-aligned output height Q
    int taps;     // the columns' table's taps per output row
    int base;     // the columns' table's first float
    int vx;       // the viewport's origin in the target
    int vy;
    int tw;       // the target's size
    int th;
    int rotate;   // 0..3: clockwise quarter turns
    int flip;     // 1: flipped horizontally before the rotation
} p;

void main() {
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (g.x >= p.tw || g.y >= p.th) {
        return;
    }
    int P = p.outW, Q = p.outH;
    ivec2 viewport = (p.rotate % 2 == 1) ? ivec2(Q, P) : ivec2(P, Q);
    ivec2 d = g - ivec2(p.vx, p.vy);
    vec4 colour = vec4(0.0, 0.0, 0.0, 1.0); // gpu.BeginPass's clear colour
    if (all(greaterThanEqual(d, ivec2(0))) && all(lessThan(d, viewport))) {
        ivec2 a; // after the flip, before the rotation
        if (p.rotate == 0) {
            a = d;
        } else if (p.rotate == 1) {
            a = ivec2(d.y, Q - 1 - d.x);
        } else if (p.rotate == 2) {
            a = ivec2(P - 1 - d.x, Q - 1 - d.y);
        } else {
            a = ivec2(P - 1 - d.y, d.x);
        }
        if (p.flip != 0) {
            a.x = P - 1 - a.x;
        }
        int e = p.base + a.y * (p.taps + 1);
        int lo = int(table.w[e]);
        vec3 acc = vec3(0.0);
        for (int k = 0; k < p.taps; k++) {
            acc += table.w[e + 1 + k] * texelFetch(src, ivec2(a.x, clamp(lo + k, 0, p.srcSize - 1)), 0).rgb;
        }
        colour = vec4(dither(clamp(acc, 0.0, 1.0), g), 1.0);
    }
    imageStore(dst, g, colour);
}

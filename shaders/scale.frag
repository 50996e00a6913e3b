#version 450
// The scale pass, drawn: the picture-aligned output of scale.comp (binding 0, float32: the picture
// resampled along its rows, then its columns) onto the target, turned for display. The fragment at
// display pixel (i, j) of the viewport is mapped to the picture-aligned output pixel (x, y): the
// display picture is the output flipped horizontally (flip) and then rotated clockwise by rotate ×
// 90°. One fetch per fragment: the filtering runs in compute, as some GPUs run fragment shaders on
// a small part of their cores (the H100: two TPCs of 66, NVIDIA's H100 whitepaper). With DIRECT = 1
// binding 0 holds the rows only and the columns are resampled here, output row y centred at source
// y = offset + (y + 0.5)·step (the pass as it first was).
#extension GL_GOOGLE_include_directive : require
#include "scale.glsl"
#include "dither.glsl"

layout(set = 0, binding = 0) uniform sampler2D src;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

layout(push_constant) uniform Params {
    float offset;
    float step;
    float radius;
    float B;
    float C;
    int kind;
    int srcSize;  // source height
    int outW;     // picture-aligned output width
    int outH;     // picture-aligned output height
    int rotate;   // 0..3: clockwise quarter turns
    int flip;     // 1: flipped horizontally before the rotation
} p;

vec3 fetch(int x, int y) {
    return texelFetch(src, ivec2(x, clamp(y, 0, p.srcSize - 1)), 0).rgb;
}

void main() {
    int P = p.outW, Q = p.outH;
    vec2 viewport = (p.rotate % 2 == 1) ? vec2(Q, P) : vec2(P, Q);
    ivec2 d = ivec2(floor(uv * viewport)); // uv runs 0..1 over the viewport: pixel centres at (i + 0.5)/size

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
    a = clamp(a, ivec2(0), ivec2(P - 1, Q - 1));
    vec3 acc;
    if (DIRECT == 0) {
        acc = texelFetch(src, a, 0).rgb;
    } else {
        float c = p.offset + (float(a.y) + 0.5) * p.step - 0.5;
        if (p.step == 1.0 && fract(c) == 0.0) {
            acc = fetch(a.x, int(c));
        } else {
            float f = max(p.step, 1.0);
            float r = p.radius * f;
            int lo = int(floor(c - r)) + 1;
            int hi = int(floor(c + r));
            vec3 sum = vec3(0.0);
            float wsum = 0.0;
            for (int t = lo; t <= hi; t++) {
                float w = kernel(p.kind, (float(t) - c) / f, p.radius, p.B, p.C);
                sum += w * fetch(a.x, t);
                wsum += w;
            }
            acc = sum / wsum;
        }
    }
    color = vec4(dither(clamp(acc, 0.0, 1.0), ivec2(gl_FragCoord.xy)), 1.0);
}

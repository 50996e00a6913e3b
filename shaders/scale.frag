#version 450
// The scale pass, second half: resamples the columns of scale.comp's output (binding 0: the picture
// resampled along its rows, float16; binding 1: the weight table) onto the target, turned for
// display. The fragment at display pixel (i, j) of the viewport is mapped to the picture-aligned
// output pixel (x, y): the display picture is the output flipped horizontally (flip) and then
// rotated clockwise by rotate × 90°.
// Output row y is centred at source y = offset + (y + 0.5)·step.
#extension GL_GOOGLE_include_directive : require
#include "scale.glsl"

layout(set = 0, binding = 0) uniform sampler2D rows;
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
    int outW;     // picture-aligned output width (scale.comp's output width)
    int outH;     // picture-aligned output height
    int rotate;   // 0..3: clockwise quarter turns
    int flip;     // 1: flipped horizontally before the rotation
    int taps;     // the table's taps per output row
    int base;     // the table's first float for this axis
} p;

vec3 fetch(int x, int y) {
    return texelFetch(rows, ivec2(x, clamp(y, 0, p.srcSize - 1)), 0).rgb;
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
    vec3 acc = vec3(0.0);
    if (DIRECT == 0) {
        int e = p.base + a.y * (p.taps + 1);
        int lo = int(table.w[e]);
        for (int k = 0; k < p.taps; k++) {
            acc += table.w[e + 1 + k] * fetch(a.x, lo + k);
        }
    } else {
        float c = p.offset + (float(a.y) + 0.5) * p.step - 0.5;
        if (p.step == 1.0 && fract(c) == 0.0) {
            acc = fetch(a.x, int(c));
        } else {
            float f = max(p.step, 1.0);
            float r = p.radius * f;
            int lo = int(floor(c - r)) + 1;
            int hi = int(floor(c + r));
            float wsum = 0.0;
            for (int t = lo; t <= hi; t++) {
                float w = kernel(p.kind, (float(t) - c) / f, p.radius, p.B, p.C);
                acc += w * fetch(a.x, t);
                wsum += w;
            }
            acc /= wsum;
        }
    }
    color = vec4(clamp(acc, 0.0, 1.0), 1.0);
}

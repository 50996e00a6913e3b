#version 450
// The scale pass, first half: resamples each row of the converted picture (binding 0, fetched whole
// texels) to the output's width, into a float16 storage image (binding 2) that scale.frag then
// resamples vertically. Output column i is centred at source x = offset + (i + 0.5)·step.
#extension GL_GOOGLE_include_directive : require
#include "scale.glsl"

layout(local_size_x = 16, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D dst;

layout(push_constant) uniform Params {
    float offset; // source x of the output's left edge, in source pixels
    float step;   // source pixels per output pixel
    float radius; // the kernel's support at unit scale
    float B;
    float C;
    int kind;     // 0 bilinear, 1 cubic (B, C), 2 Lanczos
    int srcSize;  // source width
    int outW;     // output width
    int outH;     // output height (the source's)
    int taps;     // the table's taps per output column
    int base;     // the table's first float for this axis
} p;

vec3 fetch(int x, int y) {
    return texelFetch(src, ivec2(clamp(x, 0, p.srcSize - 1), y), 0).rgb;
}

void main() {
    ivec2 o = ivec2(gl_GlobalInvocationID.xy);
    if (o.x >= p.outW || o.y >= p.outH) {
        return;
    }
    vec3 acc = vec3(0.0);
    if (DIRECT == 0) {
        int e = p.base + o.x * (p.taps + 1);
        int lo = int(table.w[e]);
        for (int k = 0; k < p.taps; k++) {
            acc += table.w[e + 1 + k] * fetch(lo + k, o.y);
        }
    } else {
        float c = p.offset + (float(o.x) + 0.5) * p.step - 0.5;
        if (p.step == 1.0 && fract(c) == 0.0) { // 1:1 on whole pixels: the pixel itself, whatever the kernel
            acc = fetch(int(c), o.y);
        } else {
            float f = max(p.step, 1.0);
            float r = p.radius * f;
            int lo = int(floor(c - r)) + 1;
            int hi = int(floor(c + r));
            float wsum = 0.0;
            for (int t = lo; t <= hi; t++) {
                float w = kernel(p.kind, (float(t) - c) / f, p.radius, p.B, p.C);
                acc += w * fetch(t, o.y);
                wsum += w;
            }
            acc /= wsum;
        }
    }
    imageStore(dst, o, vec4(acc, 1.0));
}

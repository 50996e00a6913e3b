#version 450
// The scale pass's filtering: resamples the picture along one axis (AXIS 0: each row to the output's
// width; 1: each column to the output's height) from binding 0 (fetched whole texels) into a
// float32 storage image (binding 2), with the weight table (binding 1). Run twice, rows then
// columns, it leaves the picture-aligned output for scale.frag to draw turned. Output index i is
// centred at source offset + (i + 0.5)·step along the axis.
#extension GL_GOOGLE_include_directive : require
#include "scale.glsl"

layout(constant_id = 1) const int AXIS = 0;

layout(local_size_x = 16, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(std430, set = 0, binding = 1) readonly buffer Weights {
    float w[];
} table;
layout(set = 0, binding = 2, rgba32f) uniform writeonly image2D dst;

layout(push_constant) uniform Params {
    float offset; // source position of the output's first edge along the axis, in source pixels
    float step;   // source pixels per output pixel
    float radius; // the kernel's support at unit scale
    float B;
    float C;
    int kind;     // 0 bilinear, 1 cubic (B, C), 2 Lanczos
    int srcSize;  // the source's size along the axis
    int outW;     // output width
    int outH;     // output height
    int taps;     // the table's taps per output index
    int base;     // the table's first float for this axis
} p;

vec3 fetch(ivec2 o, int t) {
    t = clamp(t, 0, p.srcSize - 1);
    return texelFetch(src, AXIS == 0 ? ivec2(t, o.y) : ivec2(o.x, t), 0).rgb;
}

void main() {
    ivec2 o = ivec2(gl_GlobalInvocationID.xy);
    if (o.x >= p.outW || o.y >= p.outH) {
        return;
    }
    int i = AXIS == 0 ? o.x : o.y;
    vec3 acc = vec3(0.0);
    if (DIRECT == 0) {
        int e = p.base + i * (p.taps + 1);
        int lo = int(table.w[e]);
        for (int k = 0; k < p.taps; k++) {
            acc += table.w[e + 1 + k] * fetch(o, lo + k);
        }
    } else {
        float c = p.offset + (float(i) + 0.5) * p.step - 0.5;
        if (p.step == 1.0 && fract(c) == 0.0) { // 1:1 on whole pixels: the pixel itself, whatever the kernel
            acc = fetch(o, int(c));
        } else {
            float f = max(p.step, 1.0);
            float r = p.radius * f;
            int lo = int(floor(c - r)) + 1;
            int hi = int(floor(c + r));
            float wsum = 0.0;
            for (int t = lo; t <= hi; t++) {
                float w = kernel(p.kind, (float(t) - c) / f, p.radius, p.B, p.C);
                acc += w * fetch(o, t);
                wsum += w;
            }
            acc /= wsum;
        }
    }
    imageStore(dst, o, vec4(acc, 1.0));
}

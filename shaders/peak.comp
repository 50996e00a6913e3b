#version 450
#extension GL_GOOGLE_include_directive : require
// HDR peak detection (ycbcr.PeakPass): the PQ picture's brightest and mean signal, measured on a
// grid of half its width and height. Each invocation converts the planes at its grid point
// (shaderpath.glsl, the shader path's own reading, so it measures exactly what the tone stage will
// see); at the grid's spacing the bilinear fetch averages the 2×2 pixels around the point, so that
// a single hot pixel counts for a quarter. The value is max(R′, G′, B′), the PQ signal of the
// brightest component (PQ is monotonic): the per-component EETF bends each component by its own
// luminance, and the largest one is what clips. Each workgroup reduces its 128 values in shared
// memory, then adds its sum to the result and raises the peak with atomics: non-negative floats
// order as their bit patterns do, so atomicMax on the bits is the float maximum.
layout(local_size_x = 16, local_size_y = 8) in;
#include "shaderpath.glsl"
layout(std430, set = 0, binding = 3) buffer Result {
    uint peak; // float bits of the largest value
    uint sum;  // Σ of each workgroup's round(256 · Σ values): the mean is sum / 256 / invocations
} result;

shared float smax[128];
shared float ssum[128];

void main() {
    vec2 grid = vec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
    vec3 rgb = rgbAt((vec2(gl_GlobalInvocationID.xy) + 0.5) / grid);
    float v = clamp(max(rgb.r, max(rgb.g, rgb.b)), 0.0, 1.0);
    uint i = gl_LocalInvocationIndex;
    smax[i] = v;
    ssum[i] = v;
    barrier();
    for (uint n = 64u; n > 0u; n >>= 1u) {
        if (i < n) {
            smax[i] = max(smax[i], smax[i + n]);
            ssum[i] += ssum[i + n];
        }
        barrier();
    }
    if (i == 0u) {
        atomicMax(result.peak, floatBitsToUint(smax[0]));
        atomicAdd(result.sum, uint(ssum[0] * 256.0 + 0.5));
    }
}

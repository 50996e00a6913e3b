#version 450
#extension GL_GOOGLE_include_directive : require
// HDR peak detection (ycbcr.PeakBinding): the PQ picture's brightest and mean signal, measured on a
// grid of about half its width and height. Each invocation converts the planes at PEAK_ROWS grid
// points of its column (shaderpath.glsl, the shader path's own reading, so it measures exactly what
// the tone stage will see); at the grid's spacing the bilinear fetch averages the 2×2 pixels around
// each point, so that a single hot pixel counts for a quarter. The value is max(R′, G′, B′), the PQ
// signal of the brightest component (PQ is monotonic): the per-component EETF bends each component
// by its own luminance, and the largest one is what clips. Each workgroup reduces its 128
// invocations' values in shared memory, then adds its sum to the result and raises the peak with
// atomics: non-negative floats order as their bit patterns do, so atomicMax on the bits is the
// float maximum. The cost is in the reduction and the atomics more than in the texels: several
// points per invocation make a workgroup cover 16×32 grid points, four times fewer reductions and
// atomics than one point each; the workgroups spread their atomics over PEAK_SLICES copies of the
// result, 32 bytes apart, which the CPU then combines (as libplacebo's pl_shader_detect_peak
// does), so that they do not all queue on one address; and the result lives in device memory
// (ycbcr.PeakBinding copies it to the host's buffer), not in memory across the bus.
layout(local_size_x = 16, local_size_y = 8) in;
#include "shaderpath.glsl"
const uint PEAK_ROWS = 4u;    // grid points per invocation, 8 rows apart (shaders.PeakRows)
const uint PEAK_SLICES = 32u; // copies of the result (shaders.PeakSlices)

struct Slice {
    uint peak; // float bits of the largest value
    uint sum;  // Σ of its workgroups' round(256 · Σ values): the mean is Σ sum / 256 / grid points
    uint pad[6];
};
layout(std430, set = 0, binding = 3) buffer Result {
    Slice slice[PEAK_SLICES];
} result;

shared float smax[128];
shared float ssum[128];

void main() {
    uvec2 size = gl_WorkGroupSize.xy * uvec2(1u, PEAK_ROWS);
    vec2 grid = vec2(gl_NumWorkGroups.xy * size);
    uvec2 at = gl_WorkGroupID.xy * size + gl_LocalInvocationID.xy;
    float m = 0.0, s = 0.0;
    for (uint j = 0u; j < PEAK_ROWS; j++) {
        vec3 rgb = rgbAt((vec2(at.x, at.y + j * gl_WorkGroupSize.y) + 0.5) / grid);
        float v = clamp(max(rgb.r, max(rgb.g, rgb.b)), 0.0, 1.0);
        m = max(m, v);
        s += v;
    }
    uint i = gl_LocalInvocationIndex;
    smax[i] = m;
    ssum[i] = s;
    barrier();
    for (uint n = 64u; n > 0u; n >>= 1u) {
        if (i < n) {
            smax[i] = max(smax[i], smax[i + n]);
            ssum[i] += ssum[i + n];
        }
        barrier();
    }
    if (i == 0u) {
        uint k = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) % PEAK_SLICES;
        atomicMax(result.slice[k].peak, floatBitsToUint(smax[0]));
        atomicAdd(result.slice[k].sum, uint(ssum[0] * 256.0 + 0.5));
    }
}

#version 450
// LSB-aligned 10/12-bit samples (yuv420p10le: 0..1023 in a 16-bit word) shifted to the MSB, where
// the X6/X4 formats of the Y′CbCr sampler path expect them. Reads the decoder's planes where they lie
// (host memory imported as buffers), writes the padded layout the planes are copied from, so the CPU
// copies nothing. One invocation writes one 32-bit word: two 16-bit samples.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src0 { uint w[]; } src0;
layout(set = 0, binding = 1) readonly buffer Src1 { uint w[]; } src1;
layout(set = 0, binding = 2) readonly buffer Src2 { uint w[]; } src2;
layout(set = 0, binding = 3) writeonly buffer Dst { uint w[]; } dst;
layout(push_constant) uniform Params {
    uint plane;     // which source binding holds this plane
    uint srcOffset; // byte offset of the plane's first sample in its buffer (even)
    uint srcStride; // bytes per source row
    uint srcWidth;  // samples per source row
    uint srcHeight; // source rows
    uint dstOffset; // word offset of the plane in the destination
    uint dstWidth;  // samples per destination row (padded to whole chroma samples)
    uint dstHeight; // destination rows (padded)
    uint perTexel;  // samples per texel: the padding repeats whole texels
    uint shift;     // 16 − depth
} p;

uint sampleAt(uint i) { // i: sample index in the destination plane, row by row
    uint row = i / p.dstWidth;
    uint col = i - row * p.dstWidth;
    uint sy = min(row, p.srcHeight - 1);
    uint texel = min(col / p.perTexel, p.srcWidth / p.perTexel - 1);
    uint sx = texel * p.perTexel + col % p.perTexel;
    uint at = p.srcOffset + sy * p.srcStride + sx * 2;
    uint word;
    if (p.plane == 0) {
        word = src0.w[at >> 2];
    } else if (p.plane == 1) {
        word = src1.w[at >> 2];
    } else {
        word = src2.w[at >> 2];
    }
    return ((word >> ((at & 2u) * 8u)) << p.shift) & 0xffffu;
}

void main() {
    // Two-dimensional grids: an 8K plane needs more groups than one dimension may have.
    uint k = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
    uint n = p.dstWidth * p.dstHeight;
    if (2u * k >= n) {
        return;
    }
    uint hi = 2u * k + 1u < n ? sampleAt(2u * k + 1u) : 0u;
    dst.w[p.dstOffset + k] = sampleAt(2u * k) | (hi << 16);
}

#version 450
// The scale pass's filtering, both axes in one dispatch: a workgroup makes a tile of 32 × 8·ROWS
// output pixels (float32, binding 2) from the picture (binding 0, fetched whole texels) with the
// weight table (binding 1). It first resamples, along the rows, the picture rows its tile's columns
// need, into shared memory, then resamples those along the columns: the row-filtered intermediate
// never goes through device memory. Doing both axes in one kernel out of on-chip memory is the
// usual separable-convolution layout on GPUs (NVIDIA's CUDA samples "convolutionSeparable", Podlozhnyuk
// 2007, and the CUDA C++ Best Practices Guide's "Shared Memory" section); this pass's gain is mostly
// the intermediate image it no longer writes and reads (docs/scaling.md).
//
// The rows a tile needs are lo(first row) .. lo(last row) + taps − 1 of the column table: a span of
// about (8·ROWS − 1)·step + taps rows, any length for any ratio. They pass through shared memory
// CHUNK rows at a time, each output adding the taps that fall in the chunk, so the shared memory a
// workgroup takes is bounded whatever the ratio (upscaling, or 37:1). With one chunk (the common
// case: 2:1 with Lanczos needs 42 rows for ROWS = 2) every output sums its taps in the same order
// and in the same float32 arithmetic as the two dispatches of scale.comp.
//
// The table (ycbcr/scale.go) is planar here: per axis, n first source indices, then the weights tap
// by tap (weight k of output i at k·n + i), so that the 32 invocations along a row, reading one tap
// each, read 32 neighbouring floats (one coalesced load) instead of 32 floats taps + 1 apart.

layout(constant_id = 0) const int ROWS = 2;   // output rows per invocation
layout(constant_id = 1) const int CHUNK = 48; // intermediate rows in shared memory at once (a multiple of 8)
// TILE = 1: where the tile's picture columns fit in IW (p.fits), the row step reads the picture from
// a shared tile (IB rows of IW texels at a time, each texel fetched once per workgroup, kept as the
// rgba8 it is: the picture is R8G8B8A8_UNORM, gpu.TargetFormat) instead of fetching every tap.
layout(constant_id = 2) const int TILE = 1;

const int TW = 32; // tile width: local_size_x
const int LY = 8;  // local_size_y
const int IW = 128; // the picture tile's columns: 31·step + taps ≤ 128 (2:1 with Lanczos: 74)
const int IB = 16;  // the picture tile's rows

layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(std430, set = 0, binding = 1) readonly buffer Weights {
    float w[];
} table;
layout(set = 0, binding = 2, rgba32f) uniform writeonly image2D dst;

layout(push_constant) uniform Params {
    int srcW;  // picture width
    int srcH;  // picture height
    int outW;  // output width
    int outH;  // output height
    int tapsX; // the row table's taps per output column
    int tapsY; // the column table's taps per output row
    int baseY; // the column table's first float (the row table's is 0)
    int fits;  // 1: every tile's picture columns fit in IW (ycbcr/scale.go checks)
} p;

// The intermediate, one float array per channel: invocation lx reads and writes element r·TW + lx,
// 32 consecutive words per row, which fall in distinct banks.
shared float sr[CHUNK * TW];
shared float sg[CHUNK * TW];
shared float sb[CHUNK * TW];
shared uint tile[TILE * IB * IW + 1];

void main() {
    int lx = int(gl_LocalInvocationID.x);
    int ly = int(gl_LocalInvocationID.y);
    int x = int(gl_WorkGroupID.x) * TW + lx;
    int y0 = int(gl_WorkGroupID.y) * LY * ROWS;
    int xc = min(x, p.outW - 1); // past the right edge: work as the last column, store nothing
    int loX = int(table.w[xc]);
    int nY = p.outH;
    int spanLo = int(table.w[p.baseY + y0]);
    int spanHi = int(table.w[p.baseY + min(y0 + LY * ROWS, nY) - 1]) + p.tapsY - 1;

    vec3 acc[ROWS];
    int loY[ROWS];
    int yc[ROWS];
    for (int j = 0; j < ROWS; j++) {
        acc[j] = vec3(0.0);
        yc[j] = min(y0 + ly + j * LY, nY - 1);
        loY[j] = int(table.w[p.baseY + yc[j]]);
    }
    int wY = p.baseY + nY; // the column table's weights
    int wX = p.outW;       // the row table's

    for (int c0 = spanLo; c0 <= spanHi; c0 += CHUNK) { // the same bounds in every invocation
        int n = min(CHUNK, spanHi - c0 + 1);
        barrier(); // the previous chunk's reads are done
        if (TILE == 1 && p.fits != 0) {
            int tx0 = int(table.w[int(gl_WorkGroupID.x) * TW]); // the tile's first picture column
            int id = ly * TW + lx;
            for (int b = 0; b < n; b += IB) {
                int nb = min(IB, n - b);
                barrier(); // the previous batch's reads are done
                for (int e = id; e < nb * IW; e += TW * LY) {
                    ivec2 at = ivec2(clamp(tx0 + e % IW, 0, p.srcW - 1), clamp(c0 + b + e / IW, 0, p.srcH - 1));
                    tile[e] = packUnorm4x8(texelFetch(src, at, 0)); // exact: the texel is 8-bit
                }
                barrier();
                for (int r = ly; r < nb; r += LY) {
                    int t0 = r * IW + loX - tx0;
                    vec3 a = vec3(0.0);
                    for (int k = 0; k < p.tapsX; k++) {
                        a += table.w[wX + k * p.outW + xc] * unpackUnorm4x8(tile[t0 + k]).rgb;
                    }
                    int e = (b + r) * TW + lx;
                    sr[e] = a.r;
                    sg[e] = a.g;
                    sb[e] = a.b;
                }
            }
        } else for (int r = ly; r < n; r += LY) {
            int sy = clamp(c0 + r, 0, p.srcH - 1);
            vec3 a = vec3(0.0);
            for (int k = 0; k < p.tapsX; k++) {
                int sx = clamp(loX + k, 0, p.srcW - 1);
                a += table.w[wX + k * p.outW + xc] * texelFetch(src, ivec2(sx, sy), 0).rgb;
            }
            sr[r * TW + lx] = a.r;
            sg[r * TW + lx] = a.g;
            sb[r * TW + lx] = a.b;
        }
        barrier();
        for (int j = 0; j < ROWS; j++) {
            int lo = loY[j] - c0;
            int k1 = min(p.tapsY, n - lo);
            for (int k = max(0, -lo); k < k1; k++) {
                int e = (lo + k) * TW + lx;
                acc[j] += table.w[wY + k * nY + yc[j]] * vec3(sr[e], sg[e], sb[e]);
            }
        }
    }
    if (x < p.outW) {
        for (int j = 0; j < ROWS; j++) {
            int y = y0 + ly + j * LY;
            if (y < nY) {
                imageStore(dst, ivec2(x, y), vec4(acc[j], 1.0));
            }
        }
    }
}

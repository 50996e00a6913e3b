// Dithering to the target's depth (ycbcr.Dither): the last step of every pass that writes the
// picture into a target of fewer bits than it computed (the conversions, the scale pass). Rounding
// a smooth picture to the nearest code shows its steps as bands; adding a threshold in [0, 1) of a
// step before truncating instead spreads each value between its two neighbouring codes in the
// proportion of its fraction, so that the eye, and any average over a tile, sees the value itself.
// The thresholds come from a matrix tiled over the target, fixed per pixel: a still picture stays
// still. DITHER 1 takes them from a 16×16 blue-noise matrix (bluenoise.glsl: void-and-cluster, the
// blue noise of libplacebo's and mpv's default dither), whose error has no low frequencies and so no
// visible pattern; DITHER 2 from the 16×16 Bayer matrix (ordered dither, Bayer 1973), cheaper in
// memory but with a visible cross-hatch. Both hold every threshold (k + 0.5)/256 once per tile, so
// the mean of any 16×16 block of a flat value v is v within 1/512 of a step. A value on a code stays
// on it (floor(k + t) = k), so pictures the target holds exactly are unchanged.
layout(constant_id = 26) const int DITHER = 0;      // 0: off (round to nearest); 1: blue noise; 2: ordered
layout(constant_id = 27) const int DITHER_BITS = 8; // the target's bits per component

#include "bluenoise.glsl"

// ditherThreshold is the threshold at target pixel at, in (0, 1).
float ditherThreshold(ivec2 at) {
    uvec2 p = uvec2(at) & 15u;
    uint rank;
    if (DITHER == 1) {
        uint i = p.y * 16u + p.x;
        rank = (BLUE_NOISE[i >> 2u] >> ((i & 3u) * 8u)) & 255u;
    } else {
        // Bayer's matrix of order 16: the bits of (x XOR y) and y interleaved, least significant
        // coordinate bits first (Bayer, "An optimum method for two-level rendition of continuous-tone
        // pictures", IEEE ICC 1973).
        uint v = p.x ^ p.y;
        rank = 0u;
        for (uint b = 0u; b < 4u; b++) {
            rank = (rank << 2u) | (((v >> b) & 1u) << 1u) | ((p.y >> b) & 1u);
        }
    }
    return (float(rank) + 0.5) / 256.0;
}

// dither is c (0..1 per component) as the target will hold it: truncated after the threshold when
// DITHER is on (the result is exactly a code, which the UNORM store keeps), c itself otherwise.
vec3 dither(vec3 c, ivec2 at) {
    if (DITHER == 0) {
        return c;
    }
    float m = float((1 << DITHER_BITS) - 1);
    return floor(clamp(c, 0.0, 1.0) * m + ditherThreshold(at)) / m;
}

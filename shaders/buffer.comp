#version 450
// Shader path from the planes' own buffers: shader.frag's conversion (bilinear chroma at the sited
// position, range expansion, matrix) computed from the bytes of the planes as the decoder laid them
// out — no images, no texture units — into packed RGBA8 words, one invocation per output pixel. On a
// CPU renderer (lavapipe) texture sampling is most of a conversion's cost, and imported decoder
// memory can be read where it lies, so neither an upload nor a sampler is needed there.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Plane0 { uint w[]; } plane0;
layout(set = 0, binding = 1) readonly buffer Plane1 { uint w[]; } plane1;
layout(set = 0, binding = 2) readonly buffer Plane2 { uint w[]; } plane2;
layout(set = 0, binding = 3) writeonly buffer Out { uint w[]; } dst;
layout(push_constant) uniform Params {
    vec4 row0, row1, row2; // xyz: R′G′B′ = M · (Y′, Cb, Cr); w: range offset of Y, Cb, Cr
    vec4 scale;            // xyz: code → range-expanded value for Y, Cb, Cr
    vec4 chroma;           // chroma sample coordinate of luma pixel x: x·chroma.x + chroma.z (y: .y, .w)
    uvec4 offs;            // xyz: byte offset of each plane in its buffer; w: word offset of the output
    uvec4 strides;         // xyz: bytes per row of each plane; w: words per output row
    uvec4 size;            // xy: picture size; zw: chroma size
} p;
// The layout, from the pixel-format table: bytes per sample, where each channel's samples sit.
layout(constant_id = 0) const uint SAMPLE_BYTES = 1;  // 1 or 2
layout(constant_id = 1) const uint CODE_SHIFT = 0;    // MSB-aligned data: 16 − depth
layout(constant_id = 2) const uint Y_PLANE = 0;
layout(constant_id = 3) const uint Y_SAMPLES = 1;     // samples per texel of Y's plane
layout(constant_id = 4) const uint Y_POS0 = 0;        // Y's sample in the texel (even pixels)
layout(constant_id = 5) const uint Y_POS1 = 0;        // odd pixels (packed 4:2:2: two Y per block)
layout(constant_id = 6) const uint Y_PIXELS = 1;      // pixels per texel of Y's plane: 1, or 2 (packed)
layout(constant_id = 7) const uint CB_PLANE = 1;
layout(constant_id = 8) const uint CB_SAMPLES = 1;
layout(constant_id = 9) const uint CB_POS = 0;
layout(constant_id = 10) const uint CR_PLANE = 2;
layout(constant_id = 11) const uint CR_SAMPLES = 1;
layout(constant_id = 12) const uint CR_POS = 0;
layout(constant_id = 13) const uint BGRA = 0;         // 1: write B, G, R, A (B8G8R8A8 targets)

float code(uint plane, uint at) { // the sample at byte at of plane, as its code value
    uint word;
    if (plane == 0u) {
        word = plane0.w[at >> 2];
    } else if (plane == 1u) {
        word = plane1.w[at >> 2];
    } else {
        word = plane2.w[at >> 2];
    }
    uint v = word >> ((at & 3u) * 8u);
    v = SAMPLE_BYTES == 1u ? (v & 0xffu) : (v & 0xffffu) >> CODE_SHIFT;
    return float(v);
}

uint sampleAt(uint plane, uint samples, uint pos, uint x, uint y) {
    return p.offs[plane] + y * p.strides[plane] + (x * samples + pos) * SAMPLE_BYTES;
}

// Bilinear chroma at chroma-sample coordinate c (sample centres at integers), clamped to the edge.
float chromaAt(uint plane, uint samples, uint pos, vec2 c) {
    vec2 i = floor(c);
    vec2 f = c - i;
    ivec2 hi = ivec2(p.size.zw) - 1;
    uint x0 = uint(clamp(int(i.x), 0, hi.x)), x1 = uint(clamp(int(i.x) + 1, 0, hi.x));
    uint y0 = uint(clamp(int(i.y), 0, hi.y)), y1 = uint(clamp(int(i.y) + 1, 0, hi.y));
    float a = code(plane, sampleAt(plane, samples, pos, x0, y0));
    float b = code(plane, sampleAt(plane, samples, pos, x1, y0));
    float c0 = code(plane, sampleAt(plane, samples, pos, x0, y1));
    float d = code(plane, sampleAt(plane, samples, pos, x1, y1));
    return mix(mix(a, b, f.x), mix(c0, d, f.x), f.y);
}

void main() {
    uint k = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
    uint y = k / p.size.x;
    uint x = k - y * p.size.x;
    if (y >= p.size.y) {
        return;
    }
    uint yPos = (x & 1u) == 0u ? Y_POS0 : Y_POS1;
    float luma = code(Y_PLANE, sampleAt(Y_PLANE, Y_SAMPLES, yPos, x / Y_PIXELS, y));
    vec2 c = vec2(x, y) * p.chroma.xy + p.chroma.zw;
    vec3 ycc = vec3(luma, chromaAt(CB_PLANE, CB_SAMPLES, CB_POS, c), chromaAt(CR_PLANE, CR_SAMPLES, CR_POS, c));
    ycc = ycc * p.scale.xyz + vec3(p.row0.w, p.row1.w, p.row2.w);
    vec3 rgb = clamp(vec3(dot(p.row0.xyz, ycc), dot(p.row1.xyz, ycc), dot(p.row2.xyz, ycc)), 0.0, 1.0);
    uvec3 q = uvec3(rgb * 255.0 + 0.5);
    if (BGRA == 1u) {
        q = q.zyx;
    }
    dst.w[p.offs.w + y * p.strides.w + x] = q.x | (q.y << 8) | (q.z << 16) | 0xff000000u;
}

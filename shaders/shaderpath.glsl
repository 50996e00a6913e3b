// The shader path's reading of the planes, shared by shader.frag, shader.comp and peak.comp: one
// plain texture per plane (or per view of a packed plane) at bindings 0..2; the same steps as the
// Y′CbCr sampler, in the order Vulkan defines: chroma reconstruction (bilinear at a sited
// coordinate), range expansion, matrix. The host fills every number from the pixel-format table and
// the metadata (ycbcr.ShaderConstants).
layout(set = 0, binding = 0) uniform sampler2D tex0;
layout(set = 0, binding = 1) uniform sampler2D tex1;
layout(set = 0, binding = 2) uniform sampler2D tex2;
layout(push_constant) uniform Params {
    vec4 row0, row1, row2; // R′G′B′ = M · (Y′, Cb, Cr); rows in xyz (w: shader.comp's origin)
    vec4 scale;            // xyz: code scale × range scale for Y, Cb, Cr; w: luma u scale (crop)
    vec4 offset;           // xyz: range offsets for Y, Cb, Cr; w: luma v scale (crop)
    vec4 chroma;           // chroma coordinate = uv · chroma.xy + chroma.zw (siting and subsampling)
    vec4 tone0, tone1;     // tone stage (colour.glsl)
} p;
// Where Y, Cb and Cr are read (texture index, component): the layout's, fixed per pipeline so the
// compiler drops the selection (dynamic selection cost llvmpipe a quarter of its time).
layout(constant_id = 0) const int Y_TEX = 0;
layout(constant_id = 1) const int Y_COMP = 0;
layout(constant_id = 2) const int CB_TEX = 1;
layout(constant_id = 3) const int CB_COMP = 0;
layout(constant_id = 4) const int CR_TEX = 2;
layout(constant_id = 5) const int CR_COMP = 0;
#include "colour.glsl"

vec4 gather(int t, int c, vec2 at) {
    // textureGather's component must be a constant expression: one call per component.
    if (t == 0) {
        return c == 0 ? textureGather(tex0, at, 0) : c == 1 ? textureGather(tex0, at, 1) : c == 2 ? textureGather(tex0, at, 2) : textureGather(tex0, at, 3);
    } else if (t == 1) {
        return c == 0 ? textureGather(tex1, at, 0) : c == 1 ? textureGather(tex1, at, 1) : c == 2 ? textureGather(tex1, at, 2) : textureGather(tex1, at, 3);
    }
    return c == 0 ? textureGather(tex2, at, 0) : c == 1 ? textureGather(tex2, at, 1) : c == 2 ? textureGather(tex2, at, 2) : textureGather(tex2, at, 3);
}

// Bilinear filtering done here in fp32: texture units may filter with few fraction bits and round
// to the source precision (llvmpipe does, 8 bits for R8), which the matrix then amplifies to 2 LSB.
// One gather fetches the 2×2 footprint (clamped to the edge by the sampler); it is taken at the
// footprint's centre, half a texel from any boundary, so the hardware's coordinate rounding cannot
// pick another footprint than the floor() here.
float fetch(int t, int c, vec2 at) {
    ivec2 isize = t == 0 ? textureSize(tex0, 0) : (t == 1 ? textureSize(tex1, 0) : textureSize(tex2, 0));
    vec2 size = vec2(isize);
    vec2 p = at * size - 0.5;
    vec2 i = floor(p);
    vec2 f = p - i;
    vec4 g = gather(t, c, (i + 1.0) / size); // x: (i0,j1) y: (i1,j1) z: (i1,j0) w: (i0,j0)
    return mix(mix(g.w, g.z, f.x), mix(g.x, g.y, f.x), f.y);
}

// rgbAt is the picture's R′G′B′ at uv (0..1 over the picture), before the tone stage.
vec3 rgbAt(vec2 uv) {
    vec2 lumaUV = uv * vec2(p.scale.w, p.offset.w);
    vec2 chromaUV = uv * p.chroma.xy + p.chroma.zw;
    vec3 ycc = vec3(fetch(Y_TEX, Y_COMP, lumaUV),
                    fetch(CB_TEX, CB_COMP, chromaUV),
                    fetch(CR_TEX, CR_COMP, chromaUV));
    ycc = ycc * p.scale.xyz + p.offset.xyz;
    return colourMatrix(ycc, p.row0.xyz, p.row1.xyz, p.row2.xyz);
}

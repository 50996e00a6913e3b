#version 450
// Shader path: one plain texture per plane (or per view of a packed plane); the same steps as the
// Y′CbCr sampler, in the order Vulkan defines: chroma reconstruction (bilinear at a sited coordinate),
// range expansion, matrix. The host fills every number from the pixel-format table and the metadata.
layout(set = 0, binding = 0) uniform sampler2D tex0;
layout(set = 0, binding = 1) uniform sampler2D tex1;
layout(set = 0, binding = 2) uniform sampler2D tex2;
layout(push_constant) uniform Params {
    vec4 row0, row1, row2; // R′G′B′ = M · (Y′, Cb, Cr); rows in xyz
    vec4 scale;            // xyz: code scale × range scale for Y, Cb, Cr; w: luma u scale (crop)
    vec4 offset;           // xyz: range offsets for Y, Cb, Cr; w: luma v scale (crop)
    vec4 chroma;           // chroma coordinate = uv · chroma.xy + chroma.zw (siting and subsampling)
    ivec4 srcTex;          // texture index of Y, Cb, Cr
    ivec4 srcComp;         // component index (0..3) of Y, Cb, Cr in that texture
} p;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

vec4 texel(int t, ivec2 at) {
    return t == 0 ? texelFetch(tex0, at, 0) : (t == 1 ? texelFetch(tex1, at, 0) : texelFetch(tex2, at, 0));
}

// Bilinear filtering done here in fp32, clamped to the edge like CLAMP_TO_EDGE: texture units may
// filter with few fraction bits and round to the source precision (llvmpipe does, 8 bits for R8),
// which the matrix then amplifies to 2 LSB of error. Here the weights and the sum are exact to fp32.
float fetch(int t, int c, vec2 at) {
    ivec2 size = t == 0 ? textureSize(tex0, 0) : (t == 1 ? textureSize(tex1, 0) : textureSize(tex2, 0));
    vec2 p = at * vec2(size) - 0.5;
    vec2 f = fract(p);
    ivec2 i = ivec2(floor(p));
    ivec2 lo = clamp(i, ivec2(0), size - 1);
    ivec2 hi = clamp(i + 1, ivec2(0), size - 1);
    float v00 = texel(t, lo)[c];
    float v10 = texel(t, ivec2(hi.x, lo.y))[c];
    float v01 = texel(t, ivec2(lo.x, hi.y))[c];
    float v11 = texel(t, hi)[c];
    return mix(mix(v00, v10, f.x), mix(v01, v11, f.x), f.y);
}

void main() {
    vec2 lumaUV = uv * vec2(p.scale.w, p.offset.w);
    vec2 chromaUV = uv * p.chroma.xy + p.chroma.zw;
    vec3 ycc = vec3(fetch(p.srcTex.x, p.srcComp.x, lumaUV),
                    fetch(p.srcTex.y, p.srcComp.y, chromaUV),
                    fetch(p.srcTex.z, p.srcComp.z, chromaUV));
    ycc = ycc * p.scale.xyz + p.offset.xyz;
    color = vec4(dot(p.row0.xyz, ycc), dot(p.row1.xyz, ycc), dot(p.row2.xyz, ycc), 1.0);
}

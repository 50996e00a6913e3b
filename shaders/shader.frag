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

float fetch(int t, int c, vec2 at) {
    vec4 v = t == 0 ? texture(tex0, at) : (t == 1 ? texture(tex1, at) : texture(tex2, at));
    return v[c];
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

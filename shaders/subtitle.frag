#version 450
#extension GL_GOOGLE_include_directive : require
// Subtitles: the overlay image (premultiplied RGBA8, sRGB-encoded, rows in a storage buffer, one
// texel per target pixel) blended over the video with straight alpha. On an HDR10 target its colours
// go to PQ in BT.2020 with sRGB white at BT.2408's graphics white, 203 cd/m² (BT.2408 §5.1; as mpv
// draws subtitles on HDR output).
#include "colour.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Pixels {
    uint pix[];
};
layout(push_constant) uniform Params {
    vec4 rect;
    vec2 size;
    int stride;
    int hdr;
} p;
layout(location = 0) out vec4 outColor;

// IEC 61966-2-1 sRGB EOTF.
vec3 srgbEotf(vec3 v) {
    return mix(v / 12.92, pow((v + 0.055) / 1.055, vec3(2.4)), greaterThan(v, vec3(0.04045)));
}

// Linear BT.709 to linear BT.2020 (BT.2087 §2, equation 4; column-major).
const mat3 BT709_TO_BT2020 = mat3(0.6274, 0.0691, 0.0164, 0.3293, 0.9195, 0.0880, 0.0433, 0.0114, 0.8956);

const float GRAPHICS_WHITE = 203.0 / 10000.0; // of PQ's 10000 cd/m²

void main() {
    ivec2 at = ivec2(gl_FragCoord.xy - p.rect.xy);
    vec4 c = unpackUnorm4x8(pix[at.y * p.stride + at.x]); // bytes R, G, B, A: little-endian x..w
    vec3 rgb = c.a > 0.0 ? c.rgb / c.a : vec3(0.0);
    if (p.hdr == 1) {
        rgb = pqInverseEotf(BT709_TO_BT2020 * srgbEotf(rgb) * GRAPHICS_WHITE);
    }
    outColor = vec4(rgb, c.a);
}

#version 450
// The display's ICC profile (-icc-profile): each pixel of the picture, as drawn for a display of the
// output's nominal space (sRGB), through a 3D LUT that LittleCMS made from that space to the
// profile's. The LUT is a storage buffer of size³ RGBA entries (red varies fastest), interpolated
// trilinearly in the shader's own float arithmetic rather than by the texture unit, whose filter
// weights keep only subTexelPrecisionBits (4 or more) of fraction (Vulkan spec, "Texel Filtering").
layout(set = 0, binding = 0) uniform sampler2D picture;
layout(std430, set = 0, binding = 1) readonly buffer LUT {
    vec4 lut[];
};
layout(push_constant) uniform Params {
    int size; // grid points per axis
} p;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

vec3 at(ivec3 i) {
    return lut[(i.b * p.size + i.g) * p.size + i.r].rgb;
}

void main() {
    // The picture is the target's size and the viewport covers it: one texel per pixel, fetched
    // (uv is at the pixel's centre, (x + 0.5)/width).
    vec4 c = texelFetch(picture, ivec2(uv * vec2(textureSize(picture, 0))), 0);
    vec3 x = clamp(c.rgb, 0.0, 1.0) * float(p.size - 1);
    ivec3 i = min(ivec3(x), ivec3(p.size - 2));
    vec3 f = x - vec3(i);
    vec3 c00 = mix(at(i), at(i + ivec3(1, 0, 0)), f.r);
    vec3 c10 = mix(at(i + ivec3(0, 1, 0)), at(i + ivec3(1, 1, 0)), f.r);
    vec3 c01 = mix(at(i + ivec3(0, 0, 1)), at(i + ivec3(1, 0, 1)), f.r);
    vec3 c11 = mix(at(i + ivec3(0, 1, 1)), at(i + ivec3(1, 1, 1)), f.r);
    color = vec4(mix(mix(c00, c10, f.g), mix(c01, c11, f.g), f.b), c.a);
}

#version 450
#extension GL_GOOGLE_include_directive : require
// Sampler path: the immutable sampler's Y′CbCr conversion does reconstruction, range expansion and
// the matrix; the shader only samples. No texelFetch, gather or offsets are allowed on such a sampler.
layout(set = 0, binding = 0) uniform sampler2D picture;
layout(push_constant) uniform Params {
    vec2 uvScale; // crops a padded image: picture size / image size
} params;
#include "dither.glsl"
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    color = vec4(dither(texture(picture, uv * params.uvScale).rgb, ivec2(gl_FragCoord.xy)), 1.0);
}

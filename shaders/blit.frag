#version 450
#extension GL_GOOGLE_include_directive : require
// The compute conversions' way onto a render target: the converted picture (an RGBA8 image of the
// picture's size, or the debanded rgba16f one) drawn over the viewport. At the picture's own size
// each pixel centre is a texel centre, so bilinear filtering returns the texel itself and the
// picture is unchanged; dither.glsl rounds it to the target (a no-op on RGBA8 codes).
#include "dither.glsl"
layout(set = 0, binding = 0) uniform sampler2D picture;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    color = vec4(dither(texture(picture, uv).rgb, ivec2(gl_FragCoord.xy)), 1.0);
}

#version 450
#extension GL_GOOGLE_include_directive : require
// Shader path, drawn: the planes read and converted (shaderpath.glsl), tone-mapped (colour.glsl) and
// rounded to the target (dither.glsl).
#include "shaderpath.glsl"
#include "dither.glsl"
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    color = vec4(dither(toneStage(rgbAt(uv), p.tone0, p.tone1), ivec2(gl_FragCoord.xy)), 1.0);
}

#version 450
// Frame blending (the player's -interpolation, mpv's tscale): the two converted pictures around a
// display refresh's time, mixed by the weight of the later one. Both pictures are the output's
// size, so each pixel centre is a texel centre and a weight of 0 or 1 returns one picture exactly.
layout(set = 0, binding = 0) uniform sampler2D before;
layout(set = 0, binding = 1) uniform sampler2D after;
layout(push_constant) uniform Params {
    float weight; // of after, 0..1
} p;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    color = vec4(mix(texture(before, uv).rgb, texture(after, uv).rgb, p.weight), 1.0);
}

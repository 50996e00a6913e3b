#version 450
// The video through the engine's own binding: a combined image sampler whose set-layout binding
// carries videotex's immutable sampler (a Y′CbCr conversion, or a plain one for the RGBA8
// fallback). Only texture() at level 0: no gather, texelFetch or offsets on a Y′CbCr sampler.
layout(set = 0, binding = 0) uniform sampler2D video;
layout(location = 0) in vec2 uv;
layout(location = 1) in float shade;
layout(location = 0) out vec4 color;

void main() {
    color = vec4(texture(video, uv).rgb * shade, 1.0);
}

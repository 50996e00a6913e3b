#version 450
// Samples the video through the binding's immutable sampler (a Y'CbCr conversion on the sampler
// path); uv_scale crops the padding to whole chroma samples.
layout(set = 0, binding = 0) uniform sampler2D video;
layout(push_constant) uniform Push { vec2 uv_scale; } pc;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = vec4(texture(video, uv * pc.uv_scale).rgb, 1.0); }

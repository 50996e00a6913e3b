#version 450
// Compare mode: the amplified absolute difference of the two paths' pictures.
layout(set = 0, binding = 0) uniform sampler2D samplerPath;
layout(set = 0, binding = 1) uniform sampler2D shaderPath;
layout(push_constant) uniform Params {
    float gain;
} p;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    vec3 d = abs(texture(samplerPath, uv).rgb - texture(shaderPath, uv).rgb) * p.gain;
    color = vec4(min(d, vec3(1.0)), 1.0);
}

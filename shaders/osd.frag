#version 450
// The on-screen display: the quad's colour with the atlas's coverage (R8: a glyph's antialiased
// mask, or the atlas's solid texel for rectangles) as alpha; blended over the video.
layout(set = 0, binding = 0) uniform sampler2D atlas;
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = vec4(color.rgb, color.a * texture(atlas, uv).r);
}

#version 450
// The compute conversions' way onto a render target: the converted picture (an RGBA8 image of the
// picture's size) drawn over the viewport. At the picture's own size each pixel centre is a texel
// centre, so bilinear filtering returns the texel itself and the picture is unchanged.
layout(set = 0, binding = 0) uniform sampler2D picture;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    color = vec4(texture(picture, uv).rgb, 1.0);
}

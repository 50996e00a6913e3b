#version 450
#extension GL_GOOGLE_include_directive : require
// Shader path as a compute shader: shader.frag's conversion, one invocation per output pixel, written
// to a storage image (see sampler.comp for why). Keep the two in step: the test compares them.
layout(local_size_x = 16, local_size_y = 8) in;
#include "shaderpath.glsl"
#include "dither.glsl"
#include "place.glsl"
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D target;

void main() {
    ivec2 size = PLACE_W > 0 ? ivec2(PLACE_W, PLACE_H) : imageSize(target);
    // Placed, the origin is in the rows' unused w (whole numbers, exact in a float).
    ivec2 origin = PLACE_W > 0 ? ivec2(p.row0.w, p.row1.w) : ivec2(0);
    ivec2 at = ivec2(gl_GlobalInvocationID.xy);
    if (at.x >= size.x || at.y >= size.y) {
        return;
    }
    vec2 uv = (vec2(at) + 0.5) / vec2(size);
    imageStore(target, origin + at, vec4(dither(toneStage(rgbAt(uv), p.tone0, p.tone1), at), 1.0));
}

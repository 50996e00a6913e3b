#version 450
#extension GL_GOOGLE_include_directive : require
// Sampler path as a compute shader: the same sampling through the immutable Y′CbCr sampler, one
// invocation per output pixel, written to a storage image. On GPUs with little raster hardware
// (Hopper) this runs on every SM, where the fragment pipeline does not.
layout(local_size_x = 16, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D picture;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D target;
layout(push_constant) uniform Params {
    vec2 uvScale; // crops a padded image: picture size / image size
    ivec2 origin; // where the picture goes in the target when placed (place.glsl)
} params;
#include "dither.glsl"
#include "place.glsl"

void main() {
    ivec2 size = PLACE_W > 0 ? ivec2(PLACE_W, PLACE_H) : imageSize(target);
    ivec2 origin = PLACE_W > 0 ? params.origin : ivec2(0);
    ivec2 at = ivec2(gl_GlobalInvocationID.xy);
    if (at.x >= size.x || at.y >= size.y) {
        return;
    }
    vec2 uv = (vec2(at) + 0.5) / vec2(size);
    imageStore(target, origin + at, vec4(dither(texture(picture, uv * params.uvScale).rgb, at), 1.0));
}

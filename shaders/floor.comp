#version 450
// A constant packed-RGBA8 word per pixel into a storage buffer (binding 3, as buffer.comp): the
// cheapest pass that writes every pixel of buffer.comp's output, its floor in benchmarks.
layout(local_size_x = 64) in;
layout(set = 0, binding = 3) writeonly buffer Out { uint w[]; } dst;
layout(push_constant) uniform Params {
    uint pixels;
} p;

void main() {
    uint k = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
    if (k < p.pixels) {
        dst.w[k] = 0xff000000u | k;
    }
}

#version 450
// Debanding (ycbcr.DebandParams): libplacebo's algorithm (pl_shader_deband). An 8-bit source's
// smooth gradients are stored as flat steps one code apart: each step's edge is a band. For each
// pixel, iteration i (1..iterations) takes the mean of bilinear samples at a distance below
// i·radius pixels in some direction, mirrored into the four quadrants; where a component of the
// pixel is within threshold/(1000·i) of that mean, the pixel is on a gentle slope (a band's edge)
// and takes the mean; where it differs more, it is detail and keeps its value. Grain then adds noise
// of grain/1000 peak to peak, which hides what is left of the steps.
//
// One change: libplacebo takes one random distance and direction per iteration, whose mean is as
// noisy as the steps it replaces (TestDeband: +2.5 dB of PSNR on a stepped gradient). Here the mean
// is over `samples` directions, stratified: sample s's distance is drawn from the s-th of `samples`
// equal slices of the radius, and the directions (a quarter turn covers them all, with the mirror)
// follow one random start by the golden ratio's fraction of a quarter turn, so that near and far,
// steep and flat offsets all come in every pixel's mean whatever the gradient's orientation. With
// four, +7.7 to +7.9 dB on horizontal, vertical and diagonal steps; one is libplacebo's.
//
// The random numbers are a hash of the pixel's position and the draw (no state, the same every
// frame: a still picture stays still). The converted picture (binding 0, sampled with linear
// filtering) is written at its own size to an rgba32f image (binding 1), so that the scale pass and
// the target's dither get the smooth values. Not rgba16f: half floats hold 8-bit codes only to
// within 1/16 of a code (11 significant bits), so a flat area on code c came back slightly off it
// and the target's dither turned a few percent of its pixels into c − 1 (TestDebandScreenshot);
// rgba32f holds them exactly (the other formats that would, rgba16 unorm, need
// shaderStorageImageExtendedFormats).
layout(local_size_x = 16, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D picture;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(push_constant) uniform Params {
    int iterations;
    int samples;     // directions per iteration
    float threshold; // in 1/1000 of the full range
    float radius;    // pixels
    float grain;     // in 1/1000 of the full range
} p;

// A 32-bit integer hash (the PCG output permutation of O'Neill, "PCG: a family of simple fast
// space-efficient statistically good algorithms for random number generation", 2014), as a float in
// [0, 1).
uint state;
float rand() {
    state = state * 747796405u + 2891336453u;
    uint w = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return float((w >> 22u) ^ w) * (1.0 / 4294967296.0);
}

void main() {
    ivec2 size = imageSize(dst);
    ivec2 at = ivec2(gl_GlobalInvocationID.xy);
    if (at.x >= size.x || at.y >= size.y) {
        return;
    }
    state = uint(at.x) * 1973u + uint(at.y) * 9277u + 26699u;
    rand();
    vec2 px = 1.0 / vec2(size);
    vec2 pos = (vec2(at) + 0.5) * px;
    vec4 colour = texelFetch(picture, at, 0);
    for (int i = 1; i <= p.iterations; i++) {
        vec4 avg = vec4(0.0);
        float a0 = rand();
        for (int s = 0; s < p.samples; s++) {
            float dist = (float(s) + rand()) / float(p.samples) * p.radius * float(i);
            float dir = fract(a0 + float(s) * 0.618033988749) * 1.57079632679; // a quarter turn
            vec2 o = dist * vec2(cos(dir), sin(dir)) * px;
            avg += texture(picture, pos + vec2(o.x, o.y)) + texture(picture, pos + vec2(-o.x, o.y)) +
                   texture(picture, pos + vec2(-o.x, -o.y)) + texture(picture, pos + vec2(o.x, -o.y));
        }
        avg *= 0.25 / float(p.samples);
        vec4 diff = abs(colour - avg);
        colour = mix(avg, colour, greaterThan(diff, vec4(p.threshold / (1000.0 * float(i)))));
    }
    if (p.grain > 0.0) {
        colour.rgb += p.grain / 1000.0 * (vec3(rand(), rand(), rand()) - 0.5);
    }
    imageStore(dst, at, vec4(clamp(colour.rgb, 0.0, 1.0), 1.0));
}

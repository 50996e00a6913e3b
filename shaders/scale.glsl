// The scale pass's filter kernels, shared by scale.comp and scale.frag.
//
// Kernels, as functions of the distance x in source pixels at unit scale:
//   0 bilinear: the triangle max(0, 1 − |x|);
//   1 cubic: Mitchell & Netravali, "Reconstruction filters in computer graphics" (SIGGRAPH 1988),
//     the two-parameter family (B, C); B = 0, C = 0.5 is Keys' cubic convolution ("Cubic convolution
//     interpolation for digital image processing", IEEE Trans. ASSP 29(6), 1981), the Catmull-Rom
//     spline; B = C = 1/3 is Mitchell–Netravali's recommended filter;
//   2 Lanczos: sinc(x) · sinc(x / a) for |x| < a (Turkowski, "Filters for common resampling tasks",
//     Graphics Gems, 1990), a = radius.
// Downscaling by a factor f > 1 stretches the kernel by f (the prefilter: its support covers
// radius·f source pixels on each side, for any ratio); the weights are normalised by their sum.
//
// The compute passes normally read their weights from a table (scale.comp's binding 1, made on the
// CPU once per view by ycbcr/scale.go, the same kernels in float64): for output index i, the first
// source index lo and `taps` normalised weights, so that a sample costs one fetch and one
// multiply-add per tap and no sin, division or data-dependent loop bound (a polyphase filter bank,
// as swscale's filter/filterPos arrays and zimg's FilterContext are). DIRECT = 1 is the pass as it
// first was, kept as the reference of tests and benchmarks: the kernel evaluated per sample, the
// rows in scale.comp and the columns in scale.frag.
layout(constant_id = 0) const int DIRECT = 0;

const float PI = 3.14159265358979;

float kernel(int kind, float x, float radius, float B, float C) {
    x = abs(x);
    if (kind == 0) {
        return max(0.0, 1.0 - x);
    }
    if (kind == 1) {
        if (x < 1.0) {
            return ((12.0 - 9.0 * B - 6.0 * C) * x * x * x + (-18.0 + 12.0 * B + 6.0 * C) * x * x + (6.0 - 2.0 * B)) / 6.0;
        }
        if (x < 2.0) {
            return ((-B - 6.0 * C) * x * x * x + (6.0 * B + 30.0 * C) * x * x + (-12.0 * B - 48.0 * C) * x + (8.0 * B + 24.0 * C)) / 6.0;
        }
        return 0.0;
    }
    if (x >= radius) {
        return 0.0;
    }
    if (x < 1e-5) {
        return 1.0;
    }
    float px = PI * x;
    return radius * sin(px) * sin(px / radius) / (px * px);
}

// The colour stage of the shader path (shader.frag, shader.comp), after range expansion: the matrix
// (linear rows, or BT.2020 constant luminance), then for PQ and HLG pictures the tone stage to SDR
// BT.709 (docs/ycbcr-math.md §11–§14). Every number that depends on the stream is a specialization
// constant or a push constant filled from the formats table and the metadata (ycbcr.ShaderConstants);
// the constants written here define the standard transfer functions themselves.

layout(constant_id = 6) const int SYSTEM = 0; // formats.System: 3 = BT.2020 constant luminance
layout(constant_id = 7) const int TONE = 0;   // 0: none; 1: PQ; 2: HLG; 3: SDR by BT.1886 (display-light outputs)
layout(constant_id = 8) const int CURVE = 1;  // 0: clip; 1: BT.2390 EETF per component; 2: on max(R, G, B)
layout(constant_id = 9) const float KR = 0.2627; // linear-light luminance weights
layout(constant_id = 10) const float KB = 0.0593;
layout(constant_id = 11) const float CB_NEG = 1.9404; // BT.2020 Table 4 divisors
layout(constant_id = 12) const float CB_POS = 1.5816;
layout(constant_id = 13) const float CR_NEG = 1.7184;
layout(constant_id = 14) const float CR_POS = 0.9936;
layout(constant_id = 15) const float G00 = 1.0; // linear source RGB → linear BT.709 RGB
layout(constant_id = 16) const float G01 = 0.0;
layout(constant_id = 17) const float G02 = 0.0;
layout(constant_id = 18) const float G10 = 0.0;
layout(constant_id = 19) const float G11 = 1.0;
layout(constant_id = 20) const float G12 = 0.0;
layout(constant_id = 21) const float G20 = 0.0;
layout(constant_id = 22) const float G21 = 0.0;
layout(constant_id = 23) const float G22 = 1.0;
layout(constant_id = 24) const float YCGCOR_MAX = 255.0; // YCgCo-R: 2^m − 1 of the m-bit R′G′B′
layout(constant_id = 25) const int OUTPUT = 0; // 0: SDR BT.709 (BT.709 OETF); 1: HDR10 (PQ, BT.2020); 2: extended-linear BT.709

const int SYSTEM_YCGCOR = 2, SYSTEM_CL = 3;

// BT.2020 Table 4 transfer (the BT.709 form with α = 1.09929682680944, β = 0.018053968510807).
float bt2020Inverse(float v) {
    return v < 4.5 * 0.018053968510807 ? v / 4.5 : pow((v + 0.09929682680944) / 1.09929682680944, 1.0 / 0.45);
}
float bt2020Oetf(float l) {
    return l < 0.018053968510807 ? 4.5 * l : 1.09929682680944 * pow(l, 0.45) - 0.09929682680944;
}

// R′G′B′ from range-expanded (Y′, C1, C2): the matrix's rows, or BT.2020 constant luminance, whose
// B′ and R′ come from piecewise scales and whose G′ from the linear-light luminance equation.
vec3 colourMatrix(vec3 ycc, vec3 row0, vec3 row1, vec3 row2) {
    if (SYSTEM == SYSTEM_YCGCOR) {
        // H.273's integer inverse lifting on the (rounded) codes: t = Y − (Cg >> 1); G = Cg + t;
        // B = t − (Co >> 1); R = Co + B. Exact for 4:4:4 at sample positions.
        vec3 c = floor(ycc * YCGCOR_MAX + 0.5);
        float t = c.x - floor(c.y * 0.5);
        float b = t - floor(c.z * 0.5);
        return vec3(c.z + b, c.y + t, b) / YCGCOR_MAX;
    }
    if (SYSTEM == SYSTEM_CL) {
        float b = ycc.x + ycc.y * (ycc.y <= 0.0 ? CB_NEG : CB_POS);
        float r = ycc.x + ycc.z * (ycc.z <= 0.0 ? CR_NEG : CR_POS);
        float yl = bt2020Inverse(ycc.x), rl = bt2020Inverse(r), bl = bt2020Inverse(b);
        float gl = (yl - KR * rl - KB * bl) / (1.0 - KR - KB);
        return vec3(r, bt2020Oetf(gl), b);
    }
    return vec3(dot(row0, ycc), dot(row1, ycc), dot(row2, ycc));
}

// SMPTE ST 2084 (BT.2100 Table 4): EOTF as a fraction of 10000 cd/m², and its inverse.
const float PQ_M1 = 2610.0 / 16384.0, PQ_M2 = 2523.0 / 4096.0 * 128.0;
const float PQ_C1 = 3424.0 / 4096.0, PQ_C2 = 2413.0 / 4096.0 * 32.0, PQ_C3 = 2392.0 / 4096.0 * 32.0;
vec3 pqEotf(vec3 e) {
    vec3 p = pow(clamp(e, 0.0, 1.0), vec3(1.0 / PQ_M2));
    return pow(max(p - PQ_C1, 0.0) / (PQ_C2 - PQ_C3 * p), vec3(1.0 / PQ_M1));
}
vec3 pqInverseEotf(vec3 y) {
    vec3 l = pow(max(y, 0.0), vec3(PQ_M1));
    return pow((PQ_C1 + PQ_C2 * l) / (1.0 + PQ_C3 * l), vec3(PQ_M2));
}

// ARIB STD-B67 / BT.2100 Table 5 HLG inverse OETF: scene light 0..1 from the signal.
float hlgInverse(float e) {
    const float a = 0.17883277, b = 0.28466892, c = 0.55991073;
    return e <= 0.5 ? e * e / 3.0 : (exp((e - c) / a) + b) / 12.0;
}

// BT.2390 §5.4 EETF on normalised PQ values (the spline above KS, the black lift below).
vec3 eetf(vec3 e, vec4 t0, float ks) {
    vec3 e1 = clamp((e - t0.x) / (t0.y - t0.x), 0.0, 1.0);
    vec3 tt = (e1 - ks) / (1.0 - ks);
    vec3 t2 = tt * tt, t3 = t2 * tt;
    vec3 p = (2.0 * t3 - 3.0 * t2 + 1.0) * ks + (t3 - 2.0 * t2 + tt) * (1.0 - ks) + (-2.0 * t3 + 3.0 * t2) * t0.w;
    vec3 e2 = mix(e1, p, greaterThan(e1, vec3(ks)));
    vec3 m = 1.0 - e2;
    vec3 e3 = e2 + t0.z * (m * m) * (m * m);
    return e3 * (t0.y - t0.x) + t0.x;
}

// BT.709 OETF (BT.709 Table 1 item 1.2), for the SDR target.
vec3 bt709Oetf(vec3 l) {
    vec3 hi = 1.099 * pow(l, vec3(0.45)) - 0.099;
    return mix(4.5 * l, hi, greaterThanEqual(l, vec3(0.018)));
}

// The tone stage: PQ or HLG R′G′B′ → display light (cd/m²) → BT.2390 EETF (in PQ) or clip → SDR
// linear (1 = t1.w⁻¹ cd/m²) → BT.709 gamut, clipped → BT.709 OETF. t0 = (PQ(LB), PQ(LW), minLum,
// maxLum), t1 = (KS, HLG LW, HLG γ, 1/SDR peak).
// With OUTPUT 1 (an HDR10 swapchain) the picture keeps its display light instead: PQ as it is, HLG
// through its OOTF, SDR (TONE 3) by BT.1886's EOTF (γ 2.4, black 0) with white at t1.y cd/m²
// (BT.2408's HDR reference white); converted to BT.2020 primaries (G), clipped to 0..10000 cd/m² and
// PQ-encoded, for the display to tone-map with the stream's metadata. With OUTPUT 2 (extended-linear
// sRGB, scRGB) the display light goes to BT.709 primaries (G) and is scaled by t1.w (1.0 = 80 cd/m²
// or the engine's white, where SDR white lands: t1.y), unclipped: above 1 for highlights, below 0 for colours outside BT.709, as scRGB carries them.
vec3 toneStage(vec3 rgb, vec4 t0, vec4 t1) {
    if (TONE == 0) {
        return rgb;
    }
    vec3 nits;
    if (TONE == 3) {
        nits = t1.y * pow(clamp(rgb, 0.0, 1.0), vec3(2.4));
    } else if (TONE == 1) {
        nits = pqEotf(rgb) * 10000.0;
    } else {
        vec3 s = clamp(rgb, 0.0, 1.0);
        vec3 e = vec3(hlgInverse(s.r), hlgInverse(s.g), hlgInverse(s.b));
        float ys = dot(vec3(KR, 1.0 - KR - KB, KB), e);
        nits = t1.y * pow(max(ys, 0.0), t1.z - 1.0) * e; // BT.2100 Table 5 OOTF, black level 0
    }
    if (OUTPUT != 0) {
        vec3 b = vec3(dot(vec3(G00, G01, G02), nits), dot(vec3(G10, G11, G12), nits), dot(vec3(G20, G21, G22), nits));
        return OUTPUT == 2 ? b * t1.w : pqInverseEotf(clamp(b, 0.0, 10000.0) / 10000.0);
    }
    if (CURVE == 1) {
        nits = pqEotf(eetf(pqInverseEotf(nits / 10000.0), t0, t1.x)) * 10000.0;
    } else if (CURVE == 2) {
        // The EETF on max(R, G, B), one of BT.2390's ways of applying it (§5.4): R, G and B are scaled
        // by the same ratio, so their ratios survive. A black pixel (max 0) takes the curve's value
        // at 0 on every component, the limit of the ratio form for greys.
        float m = max(nits.r, max(nits.g, nits.b));
        float f = pqEotf(eetf(pqInverseEotf(vec3(m / 10000.0)), t0, t1.x)).x * 10000.0;
        nits = m > 0.0 ? nits * (f / m) : vec3(f);
    }
    vec3 lin = nits * t1.w;
    lin = clamp(vec3(dot(vec3(G00, G01, G02), lin), dot(vec3(G10, G11, G12), lin), dot(vec3(G20, G21, G22), lin)), 0.0, 1.0);
    return bt709Oetf(lin);
}

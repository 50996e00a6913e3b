// Package oracle is the CPU reference for sampling a Y′CbCr picture the way a Vulkan
// VkSamplerYcbcrConversion does, in float64 and with the standard library only.
//
// It serves two purposes:
//
//   - it says what a conformant Vulkan implementation computes when a shader samples a Y′CbCr
//     image through a sampler Y′CbCr conversion (Sample, Image), and how far a conformant result
//     may stray from that (SampleBounds);
//   - it is the reference of the project's shader path, which also supports chroma sitings and
//     matrices that Vulkan cannot express (Params.XChromaPos/YChromaPos = 1, Params.Kr/Kb).
//
// The specification it implements is the project's digest of the Vulkan spec and the Khronos Data
// Format Specification, docs/ycbcr-math.md (the sections cited below as §n are that file's):
//
//   - §0.1 order of operations: texel read (UNORM → float), the conversion's component swizzle,
//     chroma reconstruction (implicit: part of texel filtering; explicit: per luma texel), then range
//     expansion and model conversion. Both are affine, so in exact arithmetic it makes no difference
//     whether filtering comes before or after them; the oracle filters the normalized codes.
//   - §1: G = Y′, B = Cb, R = Cr; the only legal chroma swizzle is the Cb/Cr swap (Params.SwapCbCr);
//     A = 1; UNORM is code/(2^n−1), with n = 10 for X6 formats (§1.3).
//   - §2: ITU_FULL and ITU_NARROW range expansion with n-bit constants; RGB_IDENTITY skips it;
//     YCBCR_IDENTITY returns (Cr, Y′, Cb).
//   - §3: the DFS BT.709/BT.601/BT.2020 inverse equations with K_R/K_B.
//   - §4: luma is filtered at u = s·W, v = t·H with the luma filter; implicit chroma at
//     u_RB = (u − 0.5 − p)/2^l + 0.5 in the chroma plane with the chroma filter (§4.2, general form,
//     p = chroma sample 0's luma position); explicit chroma by the §4.4 formulas at every luma texel
//     the luma filter reads; every index clamps to its plane (CLAMP_TO_EDGE, §4.5).
//   - §5.4 tight bounds: the union over the alternatives the spec allows (implicit NEAREST with a
//     COSITED offset may behave as MIDPOINT; NEAREST coordinate ties pick either texel; X6 texels
//     ±1 ULP₁₀; optional clamps of Y′/Cb/Cr and R′G′B′; LINEAR weights snapped to the
//     subTexelPrecisionBits grid either way), plus an arithmetic slack, optionally mapped onto an
//     m-bit UNORM render target.
//
// Its types (Model, Range, Filter and the chroma positions) are its own, spelled from the spec: it
// imports none of the project's packages (formats' Vulkan enums and tables included), so that a
// mistake in the code it checks cannot reach the reference too. The likeness of the two enum sets
// is that independence, not a repeat to merge.
//
// Odd sizes (which Vulkan forbids for subsampled axes, §6.4) use chroma planes of ⌈W/2^l⌉ and the
// same luma-space geometry; at texel centres this equals sampling §6.4's padded even-sized image
// with the coordinate scaled by w/W′.
//
// Sample returns exact values without any of the optional clamps, so they can fall outside [0,1]
// for codes outside the nominal range.
//
// FFmpeg's zscale filter (zimg) is an independent implementation of the same implicit LINEAR
// reconstruction and conversion; the tests check the oracle against it for every FFmpeg chroma
// location (docs/ycbcr-math.md §10).
package oracle

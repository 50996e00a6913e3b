// Package check is the device conformance checker behind cmd/ycbcrcheck: for one Vulkan device it
// runs every Y′CbCr conversion setting the device offers through the sampler path (a
// VkSamplerYcbcrConversion with an immutable sampler) and, where the settings match what it
// implements, through the shader path, and compares every output pixel with the CPU oracle's
// per-pixel bounds (ycbcr/oracle, docs/ycbcr-math.md §5.4).
//
// The settings are the product of, per format in formats.MultiPlanarFormats that the device can
// sample with a conversion and that the pixel-format table can make frames for:
//
//   - model: RGB_IDENTITY, YCBCR_IDENTITY, YCBCR_601, YCBCR_709, YCBCR_2020;
//   - range: ITU_FULL and ITU_NARROW (RGB_IDENTITY ignores the range, so only ITU_FULL);
//   - x/y chroma offset: COSITED_EVEN and MIDPOINT as the format's feature bits allow, on
//     subsampled axes only (the offset has no effect on the others);
//   - chroma filter: NEAREST, and LINEAR with YCBCR_CONVERSION_LINEAR_FILTER;
//   - reconstruction: implicit, and forced explicit with CHROMA_RECONSTRUCTION_EXPLICIT_FORCEABLE
//     (always explicit with CHROMA_RECONSTRUCTION_EXPLICIT).
//
// Each setting draws a noise frame and a siting-probe frame (testvectors/synth) twice: into a
// target of the frame's size (samples at luma texel centres, where implicit and explicit
// reconstruction agree) and into one of twice the size (samples a quarter texel off centre, where
// MIDPOINT implicit and explicit reconstruction differ and filter weights are not trivial).
//
// Everything the device does not offer is listed with the feature bit (and VUID) that rules it out.
//
// Then, unless Options.SkipSystems, the colour systems no sampler model expresses (YCgCo, YCgCo-R,
// BT.2020 constant luminance, PQ and HLG tone-mapped to SDR) run through the shader path on a few
// layouts, a SystemReport row each, judged against the oracle (systems.go).
//
// A failing combination is diagnosed (diagnose.go): its read-backs are compared again with the
// oracle under each fault hypothesis (one setting or the codes read changed), and those that explain
// them are its symptoms, summed in Report.Findings as the likely causes. The fault layer
// (layers/faults) plants such faults below the checker to prove it catches and names them
// (TestPlantedFaults; docs/conformance/faults.md).
package check

package ycbcr

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// Dither is how a pass that writes the picture into its target rounds it to the target's depth
// (shaders/dither.glsl): the conversions of both paths, drawn and computed, and the scale pass's
// last step. The zero value rounds to the nearest code, the exact answer the oracle and the
// conformance checker judge; the others add a threshold fixed per target pixel before truncating,
// so that a picture computed with more bits than the target holds (10-bit sources, tone mapping,
// scaling) shows no bands: a 16×16 block's mean follows the computed value within 1/512 of a step.
type Dither int

const (
	DitherOff     Dither = iota // round to the nearest code
	DitherBlue                  // a 16×16 blue-noise matrix (void-and-cluster): no visible pattern
	DitherOrdered               // the 16×16 Bayer matrix: a faint regular cross-hatch
)

func (d Dither) String() string {
	switch d {
	case DitherOff:
		return "off"
	case DitherBlue:
		return "blue"
	case DitherOrdered:
		return "ordered"
	}
	return fmt.Sprintf("Dither(%d)", int(d))
}

// DitherNeeded says whether a picture of pf converted with p carries more precision than a target
// of targetBits bits per component holds, so that rounding it to the target shows bands: sources
// of more bits, and pictures that are tone-mapped (computed in linear light) or whose output is
// PQ-encoded. An 8-bit source's conversion shown 1:1 on an 8-bit target rounds within half a step
// of the exact value everywhere and does not band. The scale pass of a picture whose dither is on
// dithers too.
func DitherNeeded(pf *formats.PixelFormat, p Params, targetBits int) bool {
	if pf.Depth > targetBits || p.Output != OutputSDR {
		return true
	}
	k := p.Transfer.Kind()
	return p.Tone != ToneOff && p.Transfer != 0 && (k == formats.TransferPQ || k == formats.TransferHLG)
}

// TargetBits is the bits per colour component of a target of format, which dither.glsl rounds to:
// 0 for float formats and formats it does not know, which are not dithered.
func TargetBits(format vk.Format) int {
	switch format {
	case vk.FormatR8g8b8a8Unorm, vk.FormatB8g8r8a8Unorm, vk.FormatR8g8b8a8Srgb, vk.FormatB8g8r8a8Srgb,
		vk.FormatA8b8g8r8UnormPack32:
		return 8
	case vk.FormatA2b10g10r10UnormPack32, vk.FormatA2r10g10b10UnormPack32:
		return 10
	case vk.FormatR16g16b16a16Unorm:
		return 16
	}
	return 0
}

// withDither is spec with dither.glsl's constants for d on a target of format.
func withDither(spec Spec, d Dither, format vk.Format) Spec {
	bits := TargetBits(format)
	if d == DitherOff || bits == 0 {
		spec[shaders.DitherConstant], spec[shaders.DitherConstant+1] = 0, 8
		return spec
	}
	spec[shaders.DitherConstant], spec[shaders.DitherConstant+1] = int32(d), int32(bits)
	return spec
}

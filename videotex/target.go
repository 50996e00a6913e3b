package videotex

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Target is the colour the engine's render target shows (primaries, transfer, peak): the toolkit
// converts or tone-maps every picture to it, as ycbcrplay does for its swapchain (ycbcr.Params'
// Output). The zero value is SDR.
type Target struct {
	// Output is ycbcr.OutputSDR (the zero value): BT.709 primaries and R′G′B′ as an SDR BT.709
	// stream's (BT.709 OETF), white at ycbcr.SDRPeak (100 cd/m²). SDR streams are passed through
	// (any path); PQ and HLG streams are tone-mapped with Tone on the shader path
	// (docs/ycbcr-math.md §13). Or ycbcr.OutputHDR10: BT.2020 primaries, PQ (SMPTE ST 2084:
	// absolute, 1.0 = 10000 cd/m²), every stream's display light kept (SDR white at
	// ycbcr.HDRReferenceWhite, 203 cd/m²; HLG through its OOTF for a 1000 cd/m² display), no tone
	// curve: the engine's swapchain or compositor maps it (§13.5). HDR10 runs on the shader path,
	// whose texture is RGBA8: 8-bit PQ codes. Or ycbcr.OutputExtendedLinear, extended-linear sRGB
	// (scRGB, for a VK_COLOR_SPACE_EXTENDED_SRGB_LINEAR_EXT swapchain): the same display light in
	// BT.709 primaries, linear, 1.0 = White (80 cd/m² by default, scRGB's; SDR white lands there),
	// not clipped — above 1 for highlights (PQ 1000 cd/m² is 12.5 of 80), below 0 for colours
	// outside BT.709, as scRGB carries wide gamut — in an R16G16B16A16_SFLOAT texture, on the
	// shader path. Frame.DrawInto refuses it (its scale pass writes RGBA8).
	Output ycbcr.Output
	// White is the extended-linear output's 1.0 in cd/m², where SDR white lands (zero: 80, scRGB's,
	// as Windows composes it); an engine whose compositor shows 1.0 at its SDR white (Apple's EDR)
	// states that white, and HDR streams are scaled by it instead. Only with OutputExtendedLinear.
	White float64
	// Tone is the curve that brings PQ and HLG pictures to an SDR target (the zero value:
	// ycbcr.ToneBT2390); ycbcr.ToneOff hands their R′G′B′ over unconverted.
	Tone ycbcr.ToneCurve
}

func (t Target) check() error {
	switch t.Output {
	case ycbcr.OutputSDR, ycbcr.OutputHDR10, ycbcr.OutputExtendedLinear:
	default:
		return fmt.Errorf("target output %s: SDR, HDR10 or extended-linear", t.Output)
	}
	if t.White != 0 && (t.Output != ycbcr.OutputExtendedLinear || !(t.White > 0 && t.White <= 10000)) {
		return fmt.Errorf("target white %g cd/m²: 0 (80) to 10000, extended-linear only", t.White)
	}
	if t.Tone < ycbcr.ToneBT2390 || t.Tone > ycbcr.ToneBT2390Max {
		return fmt.Errorf("target tone curve %s", t.Tone)
	}
	return nil
}

// params is the conversion of a picture described by c to t.
func (t Target) params(c formats.Color) ycbcr.Params {
	p := ycbcr.FromColor(c)
	p.Output, p.Tone, p.LinearWhite = t.Output, t.Tone, t.White
	return p
}

// converted says whether t changes the R′G′B′ of a picture described by c (its transfer or
// primaries), rather than handing it over as the stream has it.
func (t Target) converted(c formats.Color) bool {
	if t.Output != ycbcr.OutputSDR {
		return true
	}
	k := c.Transfer.Kind()
	return c.Transfer != 0 && t.Tone != ycbcr.ToneOff && (k == formats.TransferPQ || k == formats.TransferHLG)
}

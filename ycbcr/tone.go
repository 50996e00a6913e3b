package ycbcr

import (
	"fmt"
	"math"
	"slices"
	"strings"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// ToneCurve is how PQ and HLG pictures are brought to an SDR BT.709 target (docs/ycbcr-math.md §13).
// The zero value is the default, BT.2390.
type ToneCurve int

const (
	ToneBT2390 ToneCurve = iota // ITU-R BT.2390 §5.4 EETF (the default)
	ToneClip                    // no curve: luminance above the SDR peak clips
	ToneOff                     // no HDR processing: the PQ/HLG R′G′B′ is shown as it is
	// ToneBT2390Max applies the same EETF to max(R, G, B) of the display light and scales R, G and B
	// by the ratio, which keeps their ratios (hue and saturation) where the per-component curve
	// bends each component by a different amount (docs/ycbcr-math.md §13.2).
	ToneBT2390Max
)

var toneNames = []string{"bt2390", "clip", "off", "bt2390-max"}

func (t ToneCurve) String() string {
	if t >= 0 && int(t) < len(toneNames) {
		return toneNames[t]
	}
	return fmt.Sprintf("ToneCurve(%d)", int(t))
}

// ParseToneCurve accepts "bt2390", "clip", "off" and "bt2390-max" (case-insensitive).
func ParseToneCurve(s string) (ToneCurve, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	for i, n := range toneNames {
		if n == k {
			return ToneCurve(i), nil
		}
	}
	return ToneBT2390, fmt.Errorf("ycbcr: unknown tone curve %q (valid: %s)", s, strings.Join(toneNames, ", "))
}

// The SDR target (§13.4): BT.709 primaries, 100 cd/m² peak white (the reference of BT.2035 and of
// zimg's default nominal peak), black at 0 cd/m², encoded with the BT.709 OETF as an SDR BT.709
// stream's R′G′B′ is.
const (
	SDRPeak  = 100.0
	SDRBlack = 0.0
)

// Defaults when a stream has no metadata (§13.3): HDR10 without mastering metadata is taken as
// graded on a 1000 cd/m² display; HLG's OOTF is rendered for BT.2100's reference 1000 cd/m² display.
const (
	DefaultPQPeak  = 1000.0
	HLGDisplayPeak = 1000.0
)

// PQInverseEOTF is SMPTE ST 2084's inverse EOTF: the PQ signal of luminance y/10000 (y in cd/m²).
func PQInverseEOTF(y float64) float64 {
	const m1, m2 = 2610.0 / 16384, 2523.0 / 4096 * 128
	const c1, c2, c3 = 3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32
	l := math.Pow(math.Max(y, 0)/10000, m1)
	return math.Pow((c1+c2*l)/(1+c3*l), m2)
}

// ToneInputs are the luminances the tone stage works with, in cd/m².
type ToneInputs struct {
	SourceBlack, SourcePeak float64 // LB, LW of BT.2390
	TargetBlack, TargetPeak float64 // Lmin, Lmax
	HLGPeak, HLGGamma       float64 // HLG's OOTF: LW and γ (BT.2100 Table 5)
}

// ToneInputs picks the luminances for p (§13.3): the source peak is MaxCLL where given (and below
// the mastering peak), else the mastering display's peak, else DefaultPQPeak; the source black is
// the mastering display's. HLG is rendered for a HLGDisplayPeak display (γ = 1.2) and toned from there.
func (p Params) ToneInputs() ToneInputs {
	in := ToneInputs{TargetBlack: SDRBlack, TargetPeak: SDRPeak}
	h := p.HDR
	if !h.Valid() {
		h = formats.HDRMetadata{}
	}
	switch p.Transfer.Kind() {
	case formats.TransferHLG:
		in.HLGPeak = HLGDisplayPeak
		in.HLGGamma = 1.2 + 0.42*math.Log10(in.HLGPeak/1000) // BT.2100 Table 5 note
		in.SourcePeak = in.HLGPeak
	default:
		in.SourceBlack = h.MinLuminance
		in.SourcePeak = h.MaxLuminance
		if h.MaxCLL > 0 && (in.SourcePeak == 0 || h.MaxCLL < in.SourcePeak) {
			in.SourcePeak = h.MaxCLL
		}
		if in.SourcePeak == 0 {
			in.SourcePeak = DefaultPQPeak
		}
		if in.SourceBlack >= in.SourcePeak {
			in.SourceBlack = 0
		}
	}
	return in
}

// Output is what the conversion's target shows.
type Output int

const (
	OutputSDR   Output = iota // SDR BT.709 R′G′B′ (BT.709 OETF): PQ and HLG are tone-mapped
	OutputHDR10               // HDR10: PQ (SMPTE ST 2084) with BT.2020 primaries, display light kept
	// OutputExtendedLinear is extended-linear sRGB (scRGB, Vulkan's
	// VK_COLOR_SPACE_EXTENDED_SRGB_LINEAR_EXT): BT.709 primaries, linear light, 1.0 =
	// ExtendedLinearWhite cd/m², display light kept above 1 and out-of-gamut colours as
	// negative components (§13.5), in a float16 texture.
	OutputExtendedLinear
)

// outputs is each Output's name, the primaries its colour stage converts to, and the format of the
// texture that holds it (stream.TextureKit): 8-bit codes for the encoded outputs, float16 for the
// linear one, whose values pass 1 and go below 0.
var outputs = [...]struct {
	name      string
	primaries formats.Primaries
	texture   vk.Format
}{
	OutputSDR:            {"sdr", formats.PrimariesBT709, vk.FormatR8g8b8a8Unorm},
	OutputHDR10:          {"hdr10", formats.PrimariesBT2020, vk.FormatR8g8b8a8Unorm},
	OutputExtendedLinear: {"extended-linear", formats.PrimariesBT709, vk.FormatR16g16b16a16Sfloat},
}

func (o Output) String() string {
	if o >= 0 && int(o) < len(outputs) {
		return outputs[o].name
	}
	return fmt.Sprintf("Output(%d)", int(o))
}

// TextureFormat is the format of an image that holds o's pictures (0 for an unknown Output).
func (o Output) TextureFormat() vk.Format {
	if o >= 0 && int(o) < len(outputs) {
		return outputs[o].texture
	}
	return 0
}

// TextureFormats are the formats TextureFormat answers, each once, for kits that make a render
// pass per format ahead.
func TextureFormats() []vk.Format {
	var fs []vk.Format
	for _, o := range outputs {
		if !slices.Contains(fs, o.texture) {
			fs = append(fs, o.texture)
		}
	}
	return fs
}

// HDRReferenceWhite is where SDR white lands on an HDR10 output: BT.2408's HDR reference white,
// 203 cd/m² (PQ signal 0.58).
const HDRReferenceWhite = 203.0

// ExtendedLinearWhite is the default luminance of 1.0 on an extended-linear output
// (Params.LinearWhite), where SDR white lands: scRGB's 80 cd/m² (IEC 61966-2-2; Android's
// DATASPACE_SCRGB_LINEAR, Direct2D's D2D1_SCENE_REFERRED_SDR_WHITE_LEVEL), so a compositor that
// shows 1.0 at 80 cd/m² shows HDR streams at their display light (1000 cd/m² = 12.5) and an
// engine's SDR content and SDR streams alike at 1.0.
const ExtendedLinearWhite = 80.0

// ExtendedLinearWhite is the cd/m² of 1.0 on p's extended-linear output: p.LinearWhite, or the
// default.
func (p Params) ExtendedLinearWhite() float64 {
	if p.LinearWhite > 0 {
		return p.LinearWhite
	}
	return ExtendedLinearWhite
}

// displayStage fills c's constants for an output that keeps display light (§13.5): every stream
// keeps it — PQ as it is, HLG through its OOTF (rendered for HLGDisplayPeak), SDR by BT.1886's EOTF
// with white at the output's SDR white — converted to the output's primaries; HDR10 then PQ-encodes
// it, the extended-linear output divides it by its white (Params.ExtendedLinearWhite). No tone
// curve: the display (or the engine) maps it, with the metadata the swapchain passes on.
func (p Params) displayStage(c *ShaderConstants) error {
	kind := p.Transfer.Kind()
	if c.Colour.System == formats.SystemCL && (kind == formats.TransferPQ || kind == formats.TransferHLG) {
		return fmt.Errorf("ycbcr: BT.2020 constant luminance with %s: not implemented", p.Transfer)
	}
	to := outputs[p.Output].primaries
	g, err := formats.GamutMatrix(p.Primaries, to)
	if err != nil {
		return fmt.Errorf("ycbcr: %s output from %s: %w", p.Output, p.Primaries, err)
	}
	prim, _ := p.Primaries.Chromaticities()
	lum := formats.RGBToXYZ(prim)[1]
	in := p.ToneInputs()
	white, enc := HDRReferenceWhite, "PQ (HDR10 output)"
	c.Colour.Gamut, c.Colour.Output = g, 1
	if p.Output == OutputExtendedLinear {
		if !(p.LinearWhite >= 0 && p.LinearWhite <= 10000) {
			return fmt.Errorf("ycbcr: extended-linear white %g cd/m²: 0 (80) to 10000", p.LinearWhite)
		}
		white = p.ExtendedLinearWhite()
		enc = fmt.Sprintf("linear, 1.0 = %g cd/m² (extended-linear output)", white)
		c.Colour.Output = 2
		c.Tone[1][3] = float32(1 / white)
	}
	if c.Colour.System != formats.SystemCL {
		c.Colour.Kr, c.Colour.Kb = lum[0], lum[2]
	}
	switch kind {
	case formats.TransferPQ:
		c.Colour.Tone = 1
		c.Colour.Applied = fmt.Sprintf("smpte2084 passed through: %s → %s gamut, %s", p.Primaries, to, enc)
	case formats.TransferHLG:
		c.Colour.Tone = 2
		c.Tone[1][1], c.Tone[1][2] = float32(in.HLGPeak), float32(in.HLGGamma)
		c.Colour.Applied = fmt.Sprintf("arib-std-b67 → OOTF (%g cd/m², γ %.3g), %s → %s gamut, %s", in.HLGPeak, in.HLGGamma, p.Primaries, to, enc)
	default:
		c.Colour.Tone = 3
		c.Tone[1][1] = float32(white)
		c.Colour.Applied = fmt.Sprintf("SDR → BT.1886 (white %g cd/m²), %s → %s gamut, %s", white, p.Primaries, to, enc)
	}
	return nil
}

// toneStage fills c's tone constants for p: nothing unless the transfer is PQ or HLG and the curve
// is not off. Tone[0] = (PQ(LB), PQ(LW), minLum, maxLum), Tone[1] = (KS, HLG LW, HLG γ, 1/SDR peak),
// in BT.2390 §5.4's terms.
func (p Params) toneStage(c *ShaderConstants) error {
	switch p.Output {
	case OutputSDR:
	case OutputHDR10, OutputExtendedLinear:
		return p.displayStage(c)
	default:
		return fmt.Errorf("ycbcr: output %s", p.Output)
	}
	kind := p.Transfer.Kind()
	if p.Transfer == 0 || (kind != formats.TransferPQ && kind != formats.TransferHLG) || p.Tone == ToneOff {
		return nil
	}
	curve, ok := map[ToneCurve]int{ToneClip: 0, ToneBT2390: 1, ToneBT2390Max: 2}[p.Tone]
	if !ok {
		return fmt.Errorf("ycbcr: tone curve %d", int(p.Tone))
	}
	if c.Colour.System == formats.SystemCL {
		return fmt.Errorf("ycbcr: BT.2020 constant luminance with %s: not implemented", p.Transfer)
	}
	g, err := formats.GamutMatrix(p.Primaries, formats.PrimariesBT709)
	if err != nil {
		return fmt.Errorf("ycbcr: tone mapping %s: %w", p.Transfer, err)
	}
	prim, _ := p.Primaries.Chromaticities()
	lum := formats.RGBToXYZ(prim)[1]
	in := p.ToneInputs()
	c.Colour.Gamut, c.Colour.Kr, c.Colour.Kb = g, lum[0], lum[2]
	c.Colour.Tone, c.Colour.Curve = 1, curve
	if kind == formats.TransferHLG {
		c.Colour.Tone = 2
	}
	b, w := PQInverseEOTF(in.SourceBlack), PQInverseEOTF(in.SourcePeak)
	minLum := (PQInverseEOTF(in.TargetBlack) - b) / (w - b)
	maxLum := (PQInverseEOTF(in.TargetPeak) - b) / (w - b)
	ks := 1.5*maxLum - 0.5
	c.Tone[0] = [4]float32{float32(b), float32(w), float32(minLum), float32(maxLum)}
	c.Tone[1] = [4]float32{float32(ks), float32(in.HLGPeak), float32(in.HLGGamma), float32(1 / in.TargetPeak)}
	c.Colour.Applied = fmt.Sprintf("%s → linear, %s (%g–%g cd/m² → %g–%g), %s → bt709 gamut (clip), bt709 OETF",
		p.Transfer, p.Tone, in.SourceBlack, in.SourcePeak, in.TargetBlack, in.TargetPeak, p.Primaries)
	if kind == formats.TransferHLG {
		c.Colour.Applied = fmt.Sprintf("arib-std-b67 → linear, OOTF (%g cd/m², γ %.3g), %s (%g → %g cd/m²), %s → bt709 gamut (clip), bt709 OETF",
			in.HLGPeak, in.HLGGamma, p.Tone, in.SourcePeak, in.TargetPeak, p.Primaries)
	}
	return nil
}

// Applied says what the shader path's colour stage does for a stream with p beyond range expansion
// and a linear matrix ("" when nothing), for -stats and logs.
func (p Params) Applied(pf *formats.PixelFormat) string {
	c, err := p.shader(pf, 2, 2, 1)
	if err != nil {
		return ""
	}
	return c.Colour.Applied
}

// TransferNotice is the one notice a player gives for a transfer the toolkit shows without handling
// it ("" for handled transfers).
func TransferNotice(t formats.Transfer) string {
	if t.Kind() != formats.TransferUnhandled {
		return ""
	}
	return fmt.Sprintf("transfer %s is not handled: shown as SDR R′G′B′ without a transfer conversion", t)
}

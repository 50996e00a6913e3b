package ycbcr

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// Params is what a conversion does, in the domain's words: the matrix, the range and where the chroma
// samples sit. Both paths are built from it; the sampler path only when Vulkan can express it.
type Params struct {
	Matrix         formats.Matrix // FFmpeg's matrix; MatrixRGB is Vulkan's RGB_IDENTITY
	YCbCrIdentity  bool           // Vulkan's YCBCR_IDENTITY: range expansion only, output (Cr, Y′, Cb)
	Range          formats.Range
	ChromaLocation formats.ChromaLocation
	// Transfer, Primaries and HDR matter only for PQ and HLG streams, which the shader path
	// tone-maps to SDR BT.709 (docs/ycbcr-math.md §13–§14) unless Tone is ToneOff. The zero values
	// (reserved transfer 0) mean "not HDR": the picture is shown as R′G′B′, as before.
	Transfer  formats.Transfer
	Primaries formats.Primaries
	HDR       formats.HDRMetadata
	Tone      ToneCurve
	// Output is what the target shows: SDR BT.709 (the zero value), or HDR10 (PQ, BT.2020
	// primaries) on a swapchain with that colour space, where every picture keeps its display
	// light and is PQ-encoded instead of tone-mapped (docs/ycbcr-math.md §13.5), or extended-linear
	// sRGB (the same display light, linear in BT.709, into a float16 target).
	Output Output
	// LinearWhite is the extended-linear output's 1.0 in cd/m², where SDR white lands: zero means
	// ExtendedLinearWhite (scRGB's 80); an engine that shows 1.0 at its own SDR white (Apple's EDR)
	// states it. Other outputs ignore it.
	LinearWhite float64
	// Dither is how the picture is rounded to the target's depth, by the conversion and by the
	// scale pass: the zero value rounds to the nearest code (the exact answer; the conformance
	// checker and the exactness tests use it).
	Dither Dither
}

func (p Params) String() string {
	m := p.Matrix.String()
	if p.YCbCrIdentity {
		m = "ycbcr-identity"
	}
	s := fmt.Sprintf("%s/%s/%s", m, p.Range, p.ChromaLocation)
	if k := p.Transfer.Kind(); p.Transfer != 0 && (k == formats.TransferPQ || k == formats.TransferHLG) {
		s += fmt.Sprintf("/%s/%s/tonemap=%s", p.Transfer, p.Primaries, p.Tone)
	}
	if p.Output != OutputSDR {
		s += "/output=" + p.Output.String()
	}
	if p.Output == OutputExtendedLinear && p.LinearWhite != 0 {
		s += fmt.Sprintf("/white=%g", p.LinearWhite)
	}
	if p.Dither != DitherOff {
		s += "/dither=" + p.Dither.String()
	}
	return s
}

// FromColor takes resolved colour metadata (formats.Resolve) as conversion parameters, with the
// default tone curve.
func FromColor(c formats.Color) Params {
	return Params{Matrix: c.Matrix, Range: c.Range, ChromaLocation: c.ChromaLocation,
		Transfer: c.Transfer, Primaries: c.Primaries, HDR: c.HDR}
}

// ShaderConstants is the shader path's parameters: the push-constant block of shaders/shader.frag
// (shaders.ShaderParamsSize bytes), and its specialization constants: the texture and component
// each channel is read from, and the colour stage (shaders/colour.glsl).
type ShaderConstants struct {
	Rows    [3][4]float32 // R′G′B′ = Rows · (Y′, Cb, Cr)
	Scale   [4]float32    // xyz: per-channel scale (UNORM → code/(2^n−1) → range expansion); w: luma u crop
	Offset  [4]float32    // xyz: range-expansion offsets; w: luma v crop
	Chroma  [4]float32    // chroma uv = uv·xy + zw
	Tone    [2][4]float32 // tone mapping (colour.glsl): see toneConstants
	SrcTex  [4]int32
	SrcComp [4]int32
	Colour  ColourStage
}

// ColourStage is the colour stage's specialization constants (shaders/colour.glsl), decided by the
// matrix's form, the transfer and the primaries (formats.Matrix.Form, formats.Transfer.Kind,
// formats.GamutMatrix).
type ColourStage struct {
	System formats.System // SystemCL selects the constant-luminance decoding; the others use Rows
	Tone   int            // 0: none; 1: PQ; 2: HLG; 3: SDR by BT.1886 (display-light outputs only)
	Output int            // 0: SDR BT.709; 1: HDR10 (PQ, BT.2020); 2: extended-linear (BT.709)
	Curve  int            // 0: clip; 1: BT.2390 EETF per component; 2: BT.2390 EETF on max(R, G, B)
	// Kr, Kb: the linear-light luminance weights (constant luminance, HLG's OOTF).
	Kr, Kb float64
	// CL's Table 4 divisors: Cb negative, positive, Cr negative, positive.
	CL [4]float64
	// Gamut: linear source R, G, B → linear BT.709 R, G, B (HDR10 output: BT.2020).
	Gamut [3][3]float64
	// YCgCoRMax (SystemYCgCoR): 2^m − 1 of the m-bit R′G′B′ the lifting was applied to.
	YCgCoRMax float64
	// Applied names what the stage does, for -stats and logs ("" when only the matrix runs).
	Applied string
}

// Spec is the shader path's specialization-constant data (shaders.ShaderSpecConstants words).
type Spec [shaders.ShaderSpecConstants]int32

// Bytes is the push-constant block as the shader reads it (std430 layout, little endian).
func (c *ShaderConstants) Bytes() []byte {
	out := make([]byte, 0, shaders.ShaderParamsSize)
	f := func(v float32) { out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v)) }
	for _, r := range c.Rows {
		for _, v := range r {
			f(v)
		}
	}
	for _, v := range [][4]float32{c.Scale, c.Offset, c.Chroma, c.Tone[0], c.Tone[1]} {
		for _, x := range v {
			f(x)
		}
	}
	return out
}

// Spec is the specialization-constant data: Y texture, Y component, Cb texture, ... (int32 each),
// then the colour stage (floats as their bits), in shaders/colour.glsl's constant_id order.
func (c *ShaderConstants) Spec() Spec {
	s := Spec{c.SrcTex[0], c.SrcComp[0], c.SrcTex[1], c.SrcComp[1], c.SrcTex[2], c.SrcComp[2]}
	cs := c.Colour
	fb := func(v float64) int32 { return int32(math.Float32bits(float32(v))) }
	s[6], s[7], s[8] = int32(cs.System), int32(cs.Tone), int32(cs.Curve)
	s[9], s[10] = fb(cs.Kr), fb(cs.Kb)
	for i, v := range cs.CL {
		s[11+i] = fb(v)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			s[15+3*i+j] = fb(cs.Gamut[i][j])
		}
	}
	s[24] = fb(cs.YCgCoRMax)
	s[25] = int32(cs.Output)
	return s
}

// rangeExpansion returns, for n-bit codes normalised to code/(2^n−1), the scale and offset that give
// Y′ and Cb/Cr (docs/ycbcr-math.md §2.1, §2.2); span is the matrix's limited-range chroma excursion
// (224, or 219 for YCgCo: formats.MatrixForm.ChromaSpan, §11.1).
func rangeExpansion(r formats.Range, n int, span float64) (ys, yo, cs, co float64, err error) {
	max := math.Exp2(float64(n)) - 1
	q := math.Exp2(float64(n - 8))
	switch r {
	case formats.RangeLimited:
		return max / (219 * q), -16.0 / 219, max / (span * q), -128.0 / span, nil
	case formats.RangeFull:
		return 1, 0, 1, -math.Exp2(float64(n-1)) / max, nil
	}
	return 0, 0, 0, 0, fmt.Errorf("ycbcr: range %s: resolve first", r)
}

// matrixRows gives R′G′B′ from (Y′, Cb, Cr) (docs/ycbcr-math.md §3.1, DFS inverse form).
func matrixRows(kr, kb float64) [3][3]float64 {
	kg := 1 - kr - kb
	return [3][3]float64{
		{1, 0, 2 * (1 - kr)},
		{1, -2 * kb * (1 - kb) / kg, -2 * kr * (1 - kr) / kg},
		{1, 2 * (1 - kb), 0},
	}
}

// ycgcoRows gives R′G′B′ from (Y, Cg, Co) (H.273 MatrixCoefficients 8: R = Y − Cg + Co,
// G = Y + Cg, B = Y − Cg − Co), with the chroma scaled by k (½ for YCgCo-R, whose Cg and Co are
// twice YCgCo's).
func ycgcoRows(k float64) [3][3]float64 {
	return [3][3]float64{{1, -k, k}, {1, k, 0}, {1, -k, -k}}
}

// chromaAxis maps a luma-normalised coordinate s to the chroma texture's: chroma sample 0 sits at
// luma position pos, so u_c = (s·size − 0.5 − pos)/2^log2 + 0.5 in chroma texels
// (docs/ycbcr-math.md §4.2), divided by the chroma size, which is ⌈size/2^log2⌉ also for odd sizes.
func chromaAxis(size, log2 int, pos float64) (scale, offset float64) {
	if log2 == 0 {
		return 1, 0
	}
	f := math.Exp2(float64(log2))
	cs := math.Ceil(float64(size) / f)
	return float64(size) / (f * cs), (0.5 - (0.5+pos)/f) / cs
}

// Shader computes the shader path's constants for a width×height picture of layout pf, sampled
// from the table's plain textures (pf.Textures).
func (p Params) Shader(pf *formats.PixelFormat, width, height int) (*ShaderConstants, error) {
	return p.shader(pf, width, height, pf.ShaderScale())
}

// shader is Shader for textures whose sampled values times ss are code/(2^Depth−1).
func (p Params) shader(pf *formats.PixelFormat, width, height int, ss float64) (*ShaderConstants, error) {
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("ycbcr: picture size %dx%d: must be positive", width, height)
	}
	c := &ShaderConstants{}
	c.Colour.Gamut = [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	var rows [3][3]float64
	expand := true
	span := 224.0 // Vulkan's ITU_NARROW (YCbCr identity), and every Kr/Kb matrix
	ys, yo, cs, co := 1.0, 0.0, 1.0, 0.0
	switch {
	case p.YCbCrIdentity:
		rows = [3][3]float64{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
	case p.Matrix == formats.MatrixRGB:
		// G, B, R in the Y, Cb, Cr slots; RGB identity applies no range expansion (§2.3).
		rows = [3][3]float64{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
		expand = false
	default:
		form, err := p.Matrix.Form()
		if err != nil {
			return nil, fmt.Errorf("ycbcr: matrix %s: the shader path implements no such matrix: %w", p.Matrix, err)
		}
		span = form.ChromaSpan
		switch form.System {
		case formats.SystemKrKb:
			rows = matrixRows(form.Kr, form.Kb)
		case formats.SystemYCgCo:
			rows = ycgcoRows(1)
		case formats.SystemYCgCoR:
			// H.273's lifting works on the codes themselves at any range: Y′ = Y/(2^m−1) and
			// Cg, Co = (C − 2^(n−1))/(2^m−1) in R′G′B′ units, m = n − AddedBits (§11.2).
			rows = ycgcoRows(0.5) // the buffer variant's approximation; the shader lifts exactly
			expand = false
			m := math.Exp2(float64(pf.Depth-form.AddedBits)) - 1
			c.Colour.System, c.Colour.YCgCoRMax = formats.SystemYCgCoR, m
			c.Colour.Applied = fmt.Sprintf("%s (H.273 integer lifting, %d-bit R′G′B′)", p.Matrix, pf.Depth-form.AddedBits)
			max := math.Exp2(float64(pf.Depth)) - 1
			ys, yo, cs, co = max/m, 0, max/m, -math.Exp2(float64(pf.Depth-1))/m
		case formats.SystemCL:
			rows = [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} // the shader decodes (Y′C, CBC, CRC) itself
			c.Colour.System, c.Colour.Kr, c.Colour.Kb = formats.SystemCL, form.Kr, form.Kb
			c.Colour.CL = [4]float64{form.CbNeg, form.CbPos, form.CrNeg, form.CrPos}
			c.Colour.Applied = "BT.2020 constant luminance"
		}
	}
	if expand {
		var err error
		if ys, yo, cs, co, err = rangeExpansion(p.Range, pf.Depth, span); err != nil {
			return nil, err
		}
	}
	if err := p.toneStage(c); err != nil {
		return nil, err
	}
	for i := range rows {
		for j := range rows[i] {
			c.Rows[i][j] = float32(rows[i][j])
		}
	}
	c.Scale = [4]float32{float32(ys * ss), float32(cs * ss), float32(cs * ss), 1}
	c.Offset = [4]float32{float32(yo), float32(co), float32(co), 1}
	if pf.Gray { // no chroma: Cb = Cr = 0 whatever is sampled
		c.Scale[1], c.Scale[2], c.Offset[1], c.Offset[2] = 0, 0, 0, 0
	} else {
		px, py := 0.0, 0.0
		if pf.Log2ChromaW > 0 || pf.Log2ChromaH > 0 {
			var err error
			if px, py, err = p.ChromaLocation.Position(); err != nil {
				return nil, fmt.Errorf("ycbcr: %w", err)
			}
		}
		ax, bx := chromaAxis(width, pf.Log2ChromaW, px)
		ay, by := chromaAxis(height, pf.Log2ChromaH, py)
		c.Chroma = [4]float32{float32(ax), float32(ay), float32(bx), float32(by)}
	}
	for ch := formats.Y; ch <= formats.Cr; ch++ {
		src := pf.Sources[ch]
		if pf.Gray && ch != formats.Y {
			src = pf.Sources[formats.Y]
		}
		c.SrcTex[ch], c.SrcComp[ch] = int32(src.Texture), int32(src.Component)
	}
	return c, nil
}

package oracle

import (
	"errors"
	"fmt"
	"math"
)

// Model is VkSamplerYcbcrModelConversion, in Vulkan's order.
type Model int

const (
	ModelRGBIdentity   Model = iota // no range expansion, no matrix (§2.3)
	ModelYCbCrIdentity              // range expansion only; output (Cr, Y′, Cb) (§2.3)
	Model709                        // BT.709 K_R = 0.2126, K_B = 0.0722 (§3.1)
	Model601                        // BT.601 K_R = 0.299, K_B = 0.114
	Model2020                       // BT.2020 non-constant luminance K_R = 0.2627, K_B = 0.0593
	// Shader path only (no Vulkan model; docs/ycbcr-math.md §11, §12):
	ModelYCgCo  // H.273 MatrixCoefficients 8: Cb holds Cg, Cr holds Co
	ModelYCgCoR // H.273 MatrixCoefficients 16/17: reversible YCgCo-R; Params.YCgCoRAddedBits
	Model2020CL // BT.2020 constant luminance (Table 4)
)

func (m Model) String() string {
	switch m {
	case ModelRGBIdentity:
		return "RGB_IDENTITY"
	case ModelYCbCrIdentity:
		return "YCBCR_IDENTITY"
	case Model709:
		return "YCBCR_709"
	case Model601:
		return "YCBCR_601"
	case Model2020:
		return "YCBCR_2020"
	case ModelYCgCo:
		return "YCGCO"
	case ModelYCgCoR:
		return "YCGCO_R"
	case Model2020CL:
		return "BT2020_CL"
	}
	return fmt.Sprintf("Model(%d)", int(m))
}

// Coefficients returns K_R and K_B of a matrix model (§3.1); ok is false for the identity models.
func (m Model) Coefficients() (kr, kb float64, ok bool) {
	switch m {
	case Model709:
		return 0.2126, 0.0722, true
	case Model601:
		return 0.299, 0.114, true
	case Model2020:
		return 0.2627, 0.0593, true
	}
	return 0, 0, false
}

// Range is VkSamplerYcbcrRange, in Vulkan's order.
type Range int

const (
	RangeFull   Range = iota // ITU_FULL (§2.1)
	RangeNarrow              // ITU_NARROW (§2.2)
)

func (r Range) String() string {
	switch r {
	case RangeFull:
		return "ITU_FULL"
	case RangeNarrow:
		return "ITU_NARROW"
	}
	return fmt.Sprintf("Range(%d)", int(r))
}

// Filter is VkFilter (NEAREST, LINEAR), in Vulkan's order.
type Filter int

const (
	Nearest Filter = iota
	Linear
)

func (f Filter) String() string {
	switch f {
	case Nearest:
		return "NEAREST"
	case Linear:
		return "LINEAR"
	}
	return fmt.Sprintf("Filter(%d)", int(f))
}

// Chroma sample 0's position in luma texel units (§4.2, §7.3).
const (
	PosCositedEven = 0.0 // VK_CHROMA_LOCATION_COSITED_EVEN
	PosMidpoint    = 0.5 // VK_CHROMA_LOCATION_MIDPOINT
	PosOdd         = 1.0 // FFmpeg "bottom" rows: no Vulkan enum, shader path only
)

// Picture holds integer codes, already de-padded (a 10-bit X6 word w is stored as w>>6), each plane
// at its own resolution.
type Picture struct {
	Width, Height            int // luma size
	Log2ChromaW, Log2ChromaH int // 4:2:0 = (1,1), 4:2:2 = (1,0), 4:4:4 = (0,0)
	Bits                     int // n: 8, 10, 12, 16
	// Y, Cb, Cr are row-major. Cb/Cr are chroma-sized: ceil(W/2^lw) × ceil(H/2^lh). For the
	// RGB_IDENTITY model they hold G, B, R (§7.4 gbrp: G plane 0, B plane 1, R plane 2).
	Y, Cb, Cr []uint16
}

// NewPicture allocates a zeroed picture.
func NewPicture(w, h, log2cw, log2ch, bits int) *Picture {
	p := &Picture{Width: w, Height: h, Log2ChromaW: log2cw, Log2ChromaH: log2ch, Bits: bits}
	cw, ch := p.ChromaSize()
	p.Y = make([]uint16, w*h)
	p.Cb = make([]uint16, cw*ch)
	p.Cr = make([]uint16, cw*ch)
	return p
}

// ChromaSize is the chroma plane size: the luma size divided by 2^l, rounded up (FFmpeg's
// AV_CEIL_RSHIFT; exact for the even sizes Vulkan requires, §6.4).
func (p *Picture) ChromaSize() (w, h int) {
	return ceilShift(p.Width, p.Log2ChromaW), ceilShift(p.Height, p.Log2ChromaH)
}

func ceilShift(a, s int) int { return (a + (1 << s) - 1) >> s }

// Validate reports whether the picture is well formed.
func (p *Picture) Validate() error {
	if p == nil {
		return errors.New("oracle: nil picture")
	}
	if p.Width <= 0 || p.Height <= 0 {
		return fmt.Errorf("oracle: bad size %dx%d", p.Width, p.Height)
	}
	if p.Width > math.MaxInt32 || p.Height > math.MaxInt32 {
		// The plane lengths checked below are products of the sizes: larger sizes could overflow int
		// and wrap to a length that matches empty planes (found by FuzzValidate).
		return fmt.Errorf("oracle: size %dx%d too large", p.Width, p.Height)
	}
	if p.Log2ChromaW < 0 || p.Log2ChromaW > 4 || p.Log2ChromaH < 0 || p.Log2ChromaH > 4 {
		return fmt.Errorf("oracle: bad chroma subsampling 2^%d×2^%d", p.Log2ChromaW, p.Log2ChromaH)
	}
	if p.Bits < 1 || p.Bits > 16 {
		return fmt.Errorf("oracle: bad bit depth %d", p.Bits)
	}
	cw, ch := p.ChromaSize()
	if len(p.Y) != p.Width*p.Height {
		return fmt.Errorf("oracle: Y plane has %d codes, want %d", len(p.Y), p.Width*p.Height)
	}
	if len(p.Cb) != cw*ch || len(p.Cr) != cw*ch {
		return fmt.Errorf("oracle: chroma planes have %d/%d codes, want %d", len(p.Cb), len(p.Cr), cw*ch)
	}
	maxCode := uint16(1<<p.Bits - 1)
	for _, pl := range [][]uint16{p.Y, p.Cb, p.Cr} {
		for _, c := range pl {
			if c > maxCode {
				return fmt.Errorf("oracle: code %d exceeds %d bits", c, p.Bits)
			}
		}
	}
	return nil
}

// Params describe the sampler and its Y′CbCr conversion (or the shader path's equivalent).
type Params struct {
	Model Model
	Range Range
	// Chroma sample 0's position in luma texel units per axis (§4.2): 0 = COSITED_EVEN,
	// 0.5 = MIDPOINT, 1 = FFmpeg "bottom" (no Vulkan enum; shader path only). Ignored on axes that
	// are not subsampled (samplers.adoc: offsets have no effect there).
	XChromaPos, YChromaPos float64
	// LumaFilter is the sampler's min/magFilter, ChromaFilter its chromaFilter (§4.3).
	LumaFilter, ChromaFilter Filter
	// Explicit selects explicit chroma reconstruction (§4.4); only with positions 0 or 0.5.
	Explicit bool
	// SwapCbCr is the conversion's components = {r=B, b=R} swizzle (§1.2): the Cb plane is read as
	// Cr and vice versa (NV21, YVYU, NV61, NV42).
	SwapCbCr bool
	// X6 marks 10-bit data in an X6 container: SampleBounds widens every fetched texel by ±1 ULP₁₀
	// (§1.3). Requires Bits = 10. It does not change Sample.
	X6 bool
	// Kr, Kb optionally replace the model's coefficients (shader path only, e.g. SMPTE 240M:
	// 0.212/0.087). Used only when both are non-zero and Model is 709, 601 or 2020.
	Kr, Kb float64
	// YCgCoRAddedBits (ModelYCgCoR): bits the codes have beyond the R′G′B′ the lifting was applied
	// to: 2 for YCgCo-Re, 1 for YCgCo-Ro (§11.2).
	YCgCoRAddedBits int
	// Tone, when set, takes the R′G′B′ (PQ or HLG) to SDR BT.709 (§13, §14). Only Sample, Image and
	// SampleExpanded apply it; the bounds functions refuse it.
	Tone *Tone
}

// Validate reports whether prm is usable with p.
func (prm Params) Validate(p *Picture) error {
	if prm.Model < ModelRGBIdentity || prm.Model > Model2020CL {
		return fmt.Errorf("oracle: bad model %d", prm.Model)
	}
	if prm.Range != RangeFull && prm.Range != RangeNarrow {
		return fmt.Errorf("oracle: bad range %d", prm.Range)
	}
	for _, f := range []Filter{prm.LumaFilter, prm.ChromaFilter} {
		if f != Nearest && f != Linear {
			return fmt.Errorf("oracle: bad filter %d", f)
		}
	}
	for _, x := range []float64{prm.XChromaPos, prm.YChromaPos} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("oracle: bad chroma position")
		}
	}
	if prm.Explicit {
		// §4.4 defines explicit reconstruction for the two Vulkan offsets only.
		if (p.Log2ChromaW > 0 && !vulkanPos(prm.XChromaPos)) || (p.Log2ChromaH > 0 && !vulkanPos(prm.YChromaPos)) {
			return errors.New("oracle: explicit reconstruction needs chroma positions 0 or 0.5")
		}
	}
	if prm.X6 && p.Bits != 10 {
		return fmt.Errorf("oracle: X6 needs 10-bit codes, have %d", p.Bits)
	}
	if prm.Model == ModelYCgCoR && (prm.YCgCoRAddedBits < 1 || prm.YCgCoRAddedBits > 2 || p.Bits <= prm.YCgCoRAddedBits) {
		return fmt.Errorf("oracle: YCgCo-R needs 1 or 2 added bits below the depth, have %d of %d", prm.YCgCoRAddedBits, p.Bits)
	}
	if prm.Tone != nil {
		if err := prm.Tone.validate(); err != nil {
			return err
		}
	}
	if (prm.Kr != 0) != (prm.Kb != 0) || prm.Kr < 0 || prm.Kb < 0 || prm.Kr+prm.Kb >= 1 {
		return fmt.Errorf("oracle: bad Kr/Kb %v/%v", prm.Kr, prm.Kb)
	}
	return nil
}

func vulkanPos(x float64) bool { return x == PosCositedEven || x == PosMidpoint }

func mustValid(p *Picture, prm Params) {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	if err := prm.Validate(p); err != nil {
		panic(err)
	}
}

// Sample returns the exact R′G′B′A a conformant implementation approximates when a shader samples
// p at normalized (s,t) (§4.7's reference algorithm). No optional clamp is applied; A = 1.
// It panics if p or prm is invalid.
func Sample(p *Picture, prm Params, s, t float64) [4]float64 {
	mustValid(p, prm)
	return sampleUV(p, prm, s*float64(p.Width), t*float64(p.Height))
}

// SampleExpanded returns the filtered, swizzled, range-expanded (Y′, Cb, Cr) at (s,t): the values
// model conversion consumes (§2). For ModelRGBIdentity, which has no range expansion, it returns
// the normalized (C′[G], C′[B], C′[R]).
func SampleExpanded(p *Picture, prm Params, s, t float64) [3]float64 {
	mustValid(p, prm)
	e := evaluator{p: p, prm: prm}
	g := e.gbr(s*float64(p.Width), t*float64(p.Height))[0]
	if prm.Model == ModelRGBIdentity {
		return g
	}
	y, cb, cr := expandFor(prm, p.Bits, g[0], g[1], g[2])
	return [3]float64{y, cb, cr}
}

// Image samples p at every luma texel centre, row-major (u = i+0.5, v = j+0.5 exactly).
func Image(p *Picture, prm Params) [][4]float64 {
	mustValid(p, prm)
	out := make([][4]float64, 0, p.Width*p.Height)
	for j := 0; j < p.Height; j++ {
		for i := 0; i < p.Width; i++ {
			out = append(out, sampleUV(p, prm, float64(i)+0.5, float64(j)+0.5))
		}
	}
	return out
}

func sampleUV(p *Picture, prm Params, u, v float64) [4]float64 {
	e := evaluator{p: p, prm: prm}
	g := e.gbr(u, v)[0]
	rgb := convert(prm, p.Bits, g)
	return [4]float64{rgb[0], rgb[1], rgb[2], 1}
}

// expandFor is expand (with YCgCo's own limited range, §11.1), or for YCgCo-R the lifting's own
// scaling (§11.2): the codes over 2^m − 1, chroma centred at 2^(n−1), m = n − added bits, at any
// range.
func expandFor(prm Params, n int, g, b, rr float64) (y, cg, co float64) {
	if prm.Model == ModelYCgCo && prm.Range == RangeNarrow {
		// H.264 Annex E.2.1 (as H.273 §8.3) quantises YCgCo's R′G′B′ first, as luma:
		// R = 2^(n−8)·(219·E′R + 16) and likewise G, B (E-13 to E-15); then Y = G/2 + (R + B)/4,
		// Cg = G/2 − (R + B)/4 + 2^(n−1), Co = (R − B)/2 + 2^(n−1) (E-34 to E-36). The offsets
		// 16 cancel in Cg and Co, so Cg = 2^(n−8)·219·E′Cg + 2^(n−1): chroma's excursion is 219.
		max := float64(uint32(1)<<n - 1)
		q := math.Ldexp(1, n-8)
		return (g*max - 16*q) / (219 * q), (b*max - 128*q) / (219 * q), (rr*max - 128*q) / (219 * q)
	}
	if prm.Model != ModelYCgCoR {
		return expand(prm.Range, n, g, b, rr)
	}
	max := float64(uint32(1)<<n - 1)
	m := float64(uint32(1)<<(n-prm.YCgCoRAddedBits) - 1)
	mid := math.Ldexp(1, n-1)
	return g * max / m, (b*max - mid) / m, (rr*max - mid) / m
}

// ycgcoRLifting is H.273's inverse lifting (MatrixCoefficients 16/17) on the codes nearest to the
// reconstructed values (exact for 4:4:4 at sample positions): t = Y − (Cg >> 1); G = Cg + t;
// B = t − (Co >> 1); R = Co + B; out of m bits.
func ycgcoRLifting(prm Params, n int, y, cg, co float64) [3]float64 {
	m := float64(uint32(1)<<(n-prm.YCgCoRAddedBits) - 1)
	yc, cgc, coc := math.Floor(y*m+0.5), math.Floor(cg*m+0.5), math.Floor(co*m+0.5)
	t := yc - math.Floor(cgc/2)
	b := t - math.Floor(coc/2)
	return [3]float64{(coc + b) / m, (cgc + t) / m, b / m}
}

// expand is §2's range expansion of normalized (C′[G], C′[B], C′[R]).
func expand(r Range, n int, g, b, rr float64) (y, cb, cr float64) {
	max := float64(uint32(1)<<n - 1)
	if r == RangeFull {
		off := math.Ldexp(1, n-1) / max
		return g, b - off, rr - off
	}
	q := math.Ldexp(1, n-8) // 2^(n−8), a fraction for n < 8
	return (g*max - 16*q) / (219 * q), (b*max - 128*q) / (224 * q), (rr*max - 128*q) / (224 * q)
}

// matrix returns the rows of (R′,G′,B′) = M·(Y′,Cb,Cr) for a matrix model (§3.1).
func matrix(prm Params) [3][3]float64 {
	switch prm.Model {
	case ModelYCgCo:
		// H.273 (MatrixCoefficients 8): t = Y − Cg; G = Y + Cg; B = t − Co; R = t + Co.
		return [3][3]float64{{1, -1, 1}, {1, 1, 0}, {1, -1, -1}}
	case ModelYCgCoR:
		// H.273's lifting inverted in real arithmetic: t = Y − Cg/2; G = t + Cg; B = t − Co/2;
		// R = B + Co (the shifts of the integer equations are halvings).
		return [3][3]float64{{1, -0.5, 0.5}, {1, 0.5, 0}, {1, -0.5, -0.5}}
	}
	kr, kb, _ := prm.Model.Coefficients()
	if prm.Kr != 0 && prm.Kb != 0 {
		kr, kb = prm.Kr, prm.Kb
	}
	kg := 1 - kr - kb
	return [3][3]float64{
		{1, 0, 2 * (1 - kr)},
		{1, -2 * kb * (1 - kb) / kg, -2 * kr * (1 - kr) / kg},
		{1, 2 * (1 - kb), 0},
	}
}

// convert applies range expansion and model conversion (§2, §3) to normalized post-swizzle
// (C′[G], C′[B], C′[R]).
func convert(prm Params, n int, g [3]float64) [3]float64 {
	if prm.Model == ModelRGBIdentity {
		return [3]float64{g[2], g[0], g[1]}
	}
	y, cb, cr := expandFor(prm, n, g[0], g[1], g[2])
	if prm.Model == ModelYCbCrIdentity {
		return [3]float64{cr, y, cb}
	}
	var out [3]float64
	if prm.Model == Model2020CL {
		out = constantLuminance(y, cb, cr)
	} else if prm.Model == ModelYCgCoR {
		out = ycgcoRLifting(prm, n, y, cb, cr)
	} else {
		m := matrix(prm)
		for k := range out {
			out[k] = m[k][0]*y + m[k][1]*cb + m[k][2]*cr
		}
	}
	if prm.Tone != nil {
		out = prm.Tone.Apply(out)
	}
	return out
}
